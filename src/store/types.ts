import type { JsonValue } from '../core/index.js';

/**
 * The storage contract: threads, turns, the ordered item journal and pending confirmations.
 * Every implementation (memory, SQLite, later PostgreSQL) passes `runStoreConformance`.
 * Times are milliseconds since the epoch; ids are opaque strings.
 */

export const turnStatuses = ['accepted', 'running', 'waiting', 'completed', 'failed', 'cancelled'] as const;
export type TurnStatus = (typeof turnStatuses)[number];
/** A turn in one of these states holds its thread: a second turn must wait. */
export const activeTurnStatuses: readonly TurnStatus[] = ['accepted', 'running', 'waiting'];

export const itemKinds = [
  'user_text',
  'assistant_text',
  'tool_call',
  'tool_result',
  'confirmation_request',
  'confirmation_resolution',
  'error',
  'summary',
  'retry_marker',
] as const;
export type ItemKind = (typeof itemKinds)[number];

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ThreadRecord {
  readonly id: string;
  /** `user:<id>` or `session:<key>` (see `actorKey` in core). */
  readonly owner: string;
  readonly title: string | null;
  readonly summary: string | null;
  /** Id of the last item the summary covers; null when there is no summary. */
  readonly summaryThroughItemId: string | null;
  /** Free JSON text kept for the router's carried session (a later issue). */
  readonly routerSession: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface TurnRecord {
  readonly id: string;
  readonly threadId: string;
  readonly owner: string;
  readonly requestKey: string;
  readonly input: string;
  readonly status: TurnStatus;
  readonly failureCode: string | null;
  readonly failureMessage: string | null;
  readonly usage: TokenUsage;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ItemRecord {
  readonly id: string;
  readonly threadId: string;
  readonly turnId: string;
  /** 1, 2, 3 … within the thread, never reused, never reordered. */
  readonly ordinal: number;
  readonly kind: ItemKind;
  readonly data: JsonValue;
  readonly createdAt: number;
}

export interface NewItem {
  /** Optional caller-chosen id (stable across retries); generated when absent. */
  readonly id?: string;
  readonly kind: ItemKind;
  readonly data: JsonValue;
}

export type ConfirmationStatus = 'pending' | 'claimed' | 'resolved';

export interface ConfirmationRecord {
  readonly id: string;
  readonly threadId: string;
  readonly turnId: string;
  readonly owner: string;
  /** The requesting actor as JSON (kept so that a claim can hand it back). */
  readonly actor: JsonValue;
  /** The tool call awaiting approval. */
  readonly callId: string;
  readonly tool: string;
  readonly arguments: JsonValue;
  /** Canonical hash binding the approval to the exact arguments and actor. */
  readonly digest: string;
  readonly status: ConfirmationStatus;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly resolvedAt: number | null;
  /** How it ended, as JSON (`'expired'` when a claim or a sweep found it lapsed); null until then. */
  readonly resolution: JsonValue | null;
}

export type NewConfirmation = Omit<ConfirmationRecord, 'status' | 'resolvedAt' | 'resolution' | 'createdAt'> & {
  readonly createdAt?: number;
};

/** `thread` is the thread the turn was begun on (the owner's latest, or the one just created). */
export type BeginTurnResult =
  | { readonly outcome: 'created'; readonly thread: ThreadRecord; readonly turn: TurnRecord; readonly userItem: ItemRecord }
  | { readonly outcome: 'existing'; readonly thread: ThreadRecord; readonly turn: TurnRecord }
  | { readonly outcome: 'busy'; readonly thread: ThreadRecord; readonly turn: TurnRecord };

/**
 * Where a turn begins: a given thread, or the owner's most recently updated thread, created
 * (titled `newThreadTitle`) in the same transaction when the owner has none. With both `threadId`
 * and `owner`, the thread must be that owner's: another owner's thread is reported as missing
 * (`store_not_found`), checked in the turn's own transaction.
 */
export type BeginTurnInput = (
  | { readonly threadId: string; readonly owner?: string; readonly newThreadTitle?: undefined }
  | { readonly owner: string; readonly newThreadTitle?: string | null; readonly threadId?: undefined }
) & {
  readonly requestKey: string;
  readonly input: string;
  readonly turnId?: string;
};

export type ClaimResult =
  | { readonly outcome: 'claimed'; readonly confirmation: ConfirmationRecord }
  | { readonly outcome: 'missing' }
  | { readonly outcome: 'forbidden' }
  | { readonly outcome: 'expired'; readonly confirmation: ConfirmationRecord }
  | { readonly outcome: 'unavailable'; readonly confirmation: ConfirmationRecord };

export interface TurnPatch {
  readonly status?: TurnStatus;
  readonly failureCode?: string | null;
  readonly failureMessage?: string | null;
  /** Added to the turn's usage (not replacing it). */
  readonly addUsage?: TokenUsage;
}

export interface ThreadPatch {
  readonly title?: string | null;
  readonly summary?: string | null;
  readonly summaryThroughItemId?: string | null;
  readonly routerSession?: string | null;
}

export interface ListItemsOptions {
  readonly turnId?: string;
  /** Only items with an ordinal greater than this. */
  readonly afterOrdinal?: number;
}

export interface RetentionOptions {
  /** At most this many records per call (default 500), so that one transaction stays short. */
  readonly limit?: number;
}

/** Records per retention call when no `limit` is given. */
export const defaultRetentionLimit = 500;

export interface Store {
  /** `memory`, `sqlite`, `postgres`. */
  readonly kind: string;

  createThread(input: { readonly owner: string; readonly title?: string | null }): Promise<ThreadRecord>;
  getThread(id: string): Promise<ThreadRecord | undefined>;
  /** The owner's most recently updated thread. */
  latestThread(owner: string): Promise<ThreadRecord | undefined>;
  /** The owner's threads, most recently updated first. */
  listThreads(owner: string, options?: { readonly limit?: number }): Promise<readonly ThreadRecord[]>;
  updateThread(id: string, patch: ThreadPatch): Promise<ThreadRecord>;
  /** Deletes the thread with its turns, items and confirmations; false when it did not exist. */
  deleteThread(id: string): Promise<boolean>;

  /**
   * Accepts a turn, atomically: the same owner and `requestKey` give back the existing turn;
   * an active turn on the thread gives `busy`; otherwise the turn (`accepted`) and its user item
   * are committed together and the thread's `updatedAt` moves. Given an `owner` instead of a
   * thread, the turn goes to the owner's latest thread, or to a new one created in the same
   * transaction (one commit for a first message).
   */
  beginTurn(input: BeginTurnInput): Promise<BeginTurnResult>;
  getTurn(id: string): Promise<TurnRecord | undefined>;
  listTurns(threadId: string): Promise<readonly TurnRecord[]>;
  /** Turns in a status across every thread (restart recovery, confirmation sweeps). */
  turnsWithStatus(status: TurnStatus): Promise<readonly TurnRecord[]>;
  /**
   * Changes a turn only when its status is one of `from` (compare-and-set); undefined otherwise.
   */
  updateTurn(id: string, patch: TurnPatch, from?: readonly TurnStatus[]): Promise<TurnRecord | undefined>;

  /**
   * Appends items to the turn's thread in one transaction, with consecutive ordinals, and
   * optionally patches the turn in the same transaction. On any failure nothing is written.
   */
  appendItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch): Promise<readonly ItemRecord[]>;
  /**
   * Like `appendItems`, but may return before the write is durable: the records come back once
   * the write is applied, and `committed` settles when it is committed. A store that groups
   * commits (SQLite) commits a staged write with the next write or at the end of the event-loop
   * turn, whichever is first; if that commit fails, `committed` rejects and the items are lost,
   * and the caller must not go on as if they were kept. Other stores commit at once. For steps
   * that are safe to run again (read tools), whose events wait for `committed`.
   */
  stageItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch): Promise<StagedItems>;
  listItems(threadId: string, options?: ListItemsOptions): Promise<readonly ItemRecord[]>;

  createConfirmation(input: NewConfirmation): Promise<ConfirmationRecord>;
  getConfirmation(id: string): Promise<ConfirmationRecord | undefined>;
  /** Pending confirmations of a turn (waiting turns, cancellation). */
  pendingConfirmations(turnId: string): Promise<readonly ConfirmationRecord[]>;
  /**
   * Claims a pending confirmation for `owner`, atomically: exactly one concurrent caller gets
   * `claimed`; an expired one is resolved with `expiredResolution` on the spot.
   */
  claimConfirmation(id: string, owner: string, now: number, expiredResolution?: JsonValue): Promise<ClaimResult>;
  /** Records the final resolution; false when it was already resolved. */
  resolveConfirmation(id: string, resolution: JsonValue, now: number): Promise<boolean>;
  /** Resolves every pending confirmation whose `expiresAt` is at or before `now` as `resolution`; returns them. */
  expireConfirmations(now: number, resolution: JsonValue): Promise<readonly ConfirmationRecord[]>;

  /**
   * Retention: deletes, oldest first and in one transaction, up to `limit` threads whose
   * `updatedAt` is before `cutoff`, with their turns, items and confirmations; a thread with an
   * active turn (`accepted`, `running`, `waiting`) is kept. Returns the deleted thread ids; call
   * again until fewer than `limit` come back.
   */
  deleteThreadsUpdatedBefore(cutoff: number, options?: RetentionOptions): Promise<readonly string[]>;
  /**
   * Retention: deletes up to `limit` resolved confirmations (approved, rejected, expired,
   * cancelled) whose `resolvedAt` is before `cutoff`, in one transaction; returns how many.
   * Pending and claimed ones are never deleted.
   */
  deleteConfirmationsResolvedBefore(cutoff: number, options?: RetentionOptions): Promise<number>;

  /** Releases resources; idempotent. Later calls reject with `store_closed`. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** What `stageItems` gives back. */
export interface StagedItems {
  readonly records: readonly ItemRecord[];
  /** Settles once the items are committed; rejects if their commit failed. */
  readonly committed: Promise<void>;
}

export interface StoreOptions {
  /** Id generator (default: nanoid). */
  readonly ids?: () => string;
  /** Clock in ms (default: Date.now). */
  readonly clock?: () => number;
}
