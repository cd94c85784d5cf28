import type { JsonValue, MigrationState } from '../core/index.js';

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
  'question',
  'answer',
  'text_draft',
] as const;
export type ItemKind = (typeof itemKinds)[number];

/**
 * Where a thread's title came from when it is not the one given at its creation (the first
 * message's words, or none): `generated` by the engine from the first completed turn (without a
 * model), or `person` (a rename). A generated title never replaces a person's.
 */
export const titleSources = ['generated', 'person'] as const;
export type TitleSource = (typeof titleSources)[number];

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
  /** Null: the title given when the thread was created (or none). */
  readonly titleSource: TitleSource | null;
  /** A fork's origin: the thread and the message it was forked from; null for any other thread. */
  readonly forkedFrom: { readonly threadId: string; readonly itemId: string } | null;
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
  /**
   * The engine lease that runs the turn: set when the turn begins and when an engine resumes it
   * (a confirmation, an expiry, a retry); null when none does. Recovery ends an active turn only
   * once this lease has lapsed (docs/store.md, "Leases").
   */
  readonly lease: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** An engine's claim to the turns it runs, kept alive by its heartbeat. */
export interface LeaseRecord {
  readonly id: string;
  /** Who holds it, for people reading the journal (`host:pid`). */
  readonly holder: string;
  readonly acquiredAt: number;
  readonly heartbeatAt: number;
  /** At and after this time (the store's clock) the lease has lapsed and its turns are orphaned. */
  readonly expiresAt: number;
}

/**
 * The lease a running turn's write runs under (`appendItems`, `stageItems`): checked in the
 * write's own transaction; when the turn is no longer active under it (recovered, or taken over
 * by another engine) the write fails with `lease_lost` and nothing of it is kept.
 */
export interface WriteFence {
  readonly lease: string;
}

/** How `endOrphanedTurn` ends a turn: the items to append and the turn's change, in one transaction. */
export interface OrphanEnding {
  readonly items: readonly NewItem[];
  readonly patch: TurnPatch;
  /** Resolves the turn's `claimed` confirmations with this resolution (at the store's clock), in the same transaction. */
  readonly claimed?: JsonValue;
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

/**
 * A message sent while its thread was busy (a turn running, or waiting on a person), kept in the
 * thread's queue until it runs as a turn of its own or is removed. Ordered by position (1 first); `steer` marks a message sent now, which moves to the head.
 */
export interface QueuedMessage {
  readonly id: string;
  readonly threadId: string;
  readonly owner: string;
  /** The sending actor as JSON: the turn it becomes runs as this actor, whoever starts it. */
  readonly actor: JsonValue;
  /** The request key of the turn it becomes (a resend with the same key finds it, queued or begun). */
  readonly requestKey: string;
  readonly text: string;
  /** The language the person chose for it, or null. */
  readonly language: string | null;
  /** Sent now: it moves to the head and runs next (the engine stops the running attempt for it). */
  readonly steer: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface EnqueueInput {
  readonly threadId: string;
  readonly owner: string;
  readonly actor: JsonValue;
  readonly requestKey: string;
  readonly text: string;
  readonly language?: string | null;
  /** At most this many messages in the thread's queue; one more answers `full`. */
  readonly limit: number;
  readonly id?: string;
}

/** `position` counts from 1 at the head of the queue. */
export type EnqueueResult =
  | { readonly outcome: 'queued' | 'existing'; readonly message: QueuedMessage; readonly position: number }
  | { readonly outcome: 'full'; readonly size: number };

/** `thread` is the thread the turn was begun on (the owner's latest, or the one just created). */
export type BeginTurnResult =
  | { readonly outcome: 'created'; readonly thread: ThreadRecord; readonly turn: TurnRecord; readonly userItem: ItemRecord }
  | { readonly outcome: 'existing'; readonly thread: ThreadRecord; readonly turn: TurnRecord }
  | { readonly outcome: 'busy'; readonly thread: ThreadRecord; readonly turn: TurnRecord };

/**
 * Where a turn begins: a given thread, or the owner's most recently updated thread, created
 * (titled `newThreadTitle`) in the same transaction when the owner has none. With both `threadId`
 * and `owner`, the thread must be that owner's: another owner's thread is reported as missing
 * (`store_not_found`), checked in the turn's own transaction. `newThread`: a thread of the owner's
 * own, created in the turn's transaction (no one else sees it empty); a request key the owner already
 * used replays its turn in the thread it began, and no thread is made.
 */
export type BeginTurnInput = (
  | { readonly threadId: string; readonly owner?: string; readonly newThreadTitle?: undefined; readonly newThread?: undefined }
  | { readonly owner: string; readonly newThreadTitle?: string | null; readonly threadId?: undefined; readonly newThread?: boolean }
) & {
  readonly requestKey: string;
  readonly input: string;
  /** Further fields of the user item's data beside its `text` (the page context a message carries; docs/engine.md). */
  readonly userData?: Readonly<Record<string, JsonValue>>;
  readonly turnId?: string;
  /** The lease of the engine that will run the turn (`TurnRecord.lease`). */
  readonly lease?: string;
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
  /** The lease of the engine that runs the turn from now on (an engine resuming it takes it over). */
  readonly lease?: string | null;
}

/**
 * What a turn's step changes on its thread, written in the step's own transaction
 * (`appendItems`, `stageItems`): one commit for the step and its thread's change.
 */
export interface StepThreadPatch {
  /** The router session the step leaves; moves the thread's `updatedAt`, as `updateThread` does. */
  readonly routerSession?: string;
  /**
   * A generated title, set (source `generated`) only while the thread has no title source:
   * `setThreadTitle(id, title, 'generated', { onlyIf: [null] })`, never over a person's. `updatedAt` stays.
   */
  readonly generatedTitle?: string;
}

/** A turn's patch written with a step's items, and optionally the step's change to its thread. */
export interface StepPatch extends TurnPatch {
  readonly thread?: StepThreadPatch;
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

/** Where a page of an owner's threads goes on: after this thread, in the list's order (most recently updated first). */
export interface ThreadCursor {
  readonly updatedAt: number;
  readonly createdAt: number;
  readonly id: string;
}

export interface ThreadPageOptions {
  /** At most this many threads. */
  readonly limit: number;
  /** The threads after this one (the previous page's `next`); absent: from the most recent. */
  readonly after?: ThreadCursor;
  /**
   * Only threads whose title, or the text of one of their messages (`user_text`, `assistant_text`),
   * contains this text, ignoring case.
   */
  readonly search?: string;
}

export interface ThreadPage {
  readonly threads: readonly ThreadRecord[];
  /** The cursor of the next page; null when this one is the last. */
  readonly next: ThreadCursor | null;
}

/**
 * A page of a thread's items, in ordinal order. With `after` (0 for the start), the items after it
 * (and before `before`, if given); with `before` alone, the newest items before it. At most `limit`
 * items and `maxBytes` of item data (its JSON text, UTF-8) — but always one item at least, however
 * large, so that paging never stalls.
 */
export interface ItemPageOptions {
  readonly after?: number;
  readonly before?: number;
  readonly limit: number;
  readonly maxBytes: number;
}

export interface ItemPage {
  readonly items: readonly ItemRecord[];
  /** More items lie beyond this page in the direction it was read (newer after `after`, older before `before`). */
  readonly more: boolean;
}

/** A new thread of the same owner holding copies of a thread's items up to `throughOrdinal`. */
export interface ForkThreadInput {
  readonly threadId: string;
  readonly throughOrdinal: number;
  /** The message the fork starts from, recorded as `forkedFrom.itemId`. */
  readonly fromItemId: string;
  /** Default: the thread's title. */
  readonly title?: string | null;
}

export interface RetentionOptions {
  /** At most this many records per call (default 500), so that one transaction stays short. */
  readonly limit?: number;
}

/** What the journal holds, counted (`plumb store inspect`). */
export interface JournalCensus {
  readonly threads: number;
  /** Turns by status, every status present (0 when no turn has it). */
  readonly turns: Readonly<Record<TurnStatus, number>>;
  readonly confirmations: {
    readonly pending: number;
    readonly claimed: number;
    /** Resolved confirmations by outcome (`resolutionOutcome`: `executed`, `cancelled`, `expired`, `outcome_unknown`, …). */
    readonly resolved: Readonly<Record<string, number>>;
  };
  /** Leases that have not lapsed at the store's clock. */
  readonly liveLeases: number;
  /** `accepted` and `running` turns whose lease is missing, released or lapsed (`orphanedTurns`): recovery ends them when an engine starts. */
  readonly stuckTurns: number;
  /** Pending and claimed confirmations whose turn has ended or is gone: nothing will ever resolve them but retention. */
  readonly orphanedConfirmations: number;
}

/**
 * What a journal kept in a database (SQLite, PostgreSQL) offers its operator beyond the contract
 * (docs/store.md, "Upkeep"); a memory store keeps nothing to measure or compact.
 */
export interface JournalUpkeep {
  /**
   * Bytes on disk, by part: SQLite's `file` and its `wal`; PostgreSQL's journal tables by name,
   * each with its indexes and TOAST (`pg_total_relation_size`).
   */
  sizes(): Promise<Readonly<Record<string, number>>>;
  /**
   * Gives back the space of deleted rows. SQLite: `VACUUM` (it rewrites the file, holding the
   * write lock for its duration: writers wait, up to their busy timeout), then a checkpoint that
   * truncates the WAL. PostgreSQL: `VACUUM (ANALYZE)` of each journal table, which takes no lock
   * that blocks reads or writes.
   */
  vacuum(): Promise<void>;
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
   * A page of the owner's threads, most recently updated first (as `listThreads`), optionally only
   * those whose title or messages contain `search`.
   */
  pageThreads(owner: string, options: ThreadPageOptions): Promise<ThreadPage>;
  /**
   * Sets the title and where it came from, without moving `updatedAt` (a rename does not make a
   * thread the owner's latest). With `onlyIf`, only when the current source is one of those (so
   * that a generated title never replaces a person's); undefined when it was not set, or the thread
   * does not exist.
   */
  setThreadTitle(id: string, title: string | null, source: TitleSource | null, options?: { readonly onlyIf?: readonly (TitleSource | null)[] }): Promise<ThreadRecord | undefined>;
  /**
   * Forks a thread, in one transaction: a new thread of the same owner (its `updatedAt` now, so it
   * is the owner's latest) holding copies of the items up to `throughOrdinal`, with the same ids,
   * ordinals, kinds and data, each under a new turn that copies its original: the same input and
   * status when all of its items were copied and it had ended, otherwise `completed` at the cut.
   * The summary comes along when the item it covers through was copied; the router session does
   * not. `throughOrdinal` 0 makes an empty fork. `store_not_found` when the thread does not exist
   * or has no item at `throughOrdinal`.
   */
  forkThread(input: ForkThreadInput): Promise<ThreadRecord>;

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
   * optionally patches the turn (and, with `turnPatch.thread`, its thread) in the same transaction.
   * On any failure nothing is written.
   */
  appendItems(turnId: string, items: readonly NewItem[], turnPatch?: StepPatch, fence?: WriteFence): Promise<readonly ItemRecord[]>;
  /**
   * Like `appendItems`, but may return before the write is durable: the records come back once
   * the write is applied, and `committed` settles when it is committed. A store that groups
   * commits (SQLite) commits a staged write with the next write or at the end of the event-loop
   * turn, whichever is first; if that commit fails, `committed` rejects and the items are lost,
   * and the caller must not go on as if they were kept. Other stores commit at once. For steps
   * that are safe to run again (read tools), whose events wait for `committed`.
   */
  stageItems(turnId: string, items: readonly NewItem[], turnPatch?: StepPatch, fence?: WriteFence): Promise<StagedItems>;
  listItems(threadId: string, options?: ListItemsOptions): Promise<readonly ItemRecord[]>;
  /** A bounded page of the thread's items (`ItemPageOptions`); an unknown thread has none. */
  pageItems(threadId: string, options: ItemPageOptions): Promise<ItemPage>;
  /** The ordinal of the thread's last item: 0 when it has none (or does not exist). */
  lastOrdinal(threadId: string): Promise<number>;

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
  /**
   * Resolves, in one transaction, every `claimed` confirmation of a turn as `resolution` (recovery:
   * `{ "outcome": "outcome_unknown" }` for a turn whose write was cut between claim and result);
   * returns them. Resolved, they show as resolved and retention applies to them.
   */
  resolveClaimedConfirmations(turnId: string, resolution: JsonValue, now: number): Promise<readonly ConfirmationRecord[]>;
  /** Every confirmation of a thread, whatever its status, oldest first (inspection). */
  threadConfirmations(threadId: string): Promise<readonly ConfirmationRecord[]>;
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

  /**
   * Leases (docs/store.md, "Leases"): an engine holds one while it runs turns, renewing it before
   * `expiresAt`. `acquireLease` creates it (an id already taken is `store_invalid_record`);
   * `renewLease` moves `expiresAt` to `now + ttlMs` only while the lease has not lapsed and was not
   * taken away, else answers undefined (the lease is lost for good: acquire another);
   * `releaseLease` drops it, so that its active turns are orphaned at once. Times are the store's clock.
   */
  acquireLease(input: { readonly id: string; readonly holder: string; readonly ttlMs: number }): Promise<LeaseRecord>;
  renewLease(id: string, ttlMs: number): Promise<LeaseRecord | undefined>;
  releaseLease(id: string): Promise<boolean>;
  getLease(id: string): Promise<LeaseRecord | undefined>;
  /** `accepted` and `running` turns whose lease is missing, released or lapsed: nobody runs them. Oldest first. */
  orphanedTurns(): Promise<readonly TurnRecord[]>;
  /**
   * Ends an orphaned turn, atomically: in one transaction, checks that the turn is still `accepted`
   * or `running` and its lease still missing or lapsed, removes that lease (so that its holder can
   * never renew it), reads the turn's items, and appends what `end(turn, items)` returns with its
   * patch. Undefined, with nothing written and `end` not called, when the turn is not orphaned
   * (any more): a live engine's turn is never ended. `end` must be synchronous and pure.
   */
  endOrphanedTurn(turnId: string, end: (turn: TurnRecord, turnItems: readonly ItemRecord[]) => OrphanEnding): Promise<TurnRecord | undefined>;

  /**
   * The thread queue (docs/store.md, "Queue"): messages sent while a thread was busy, in order.
   * `enqueueMessage` adds one at the tail, atomically bounded by `limit`; the same owner and
   * request key give back the message already queued (`existing`). `editQueued` replaces the text
   * (only while it is `expectedText`, when given); `steerQueued` marks it sent now and moves it to
   * the head; each answers undefined once the message is gone (run, joined or removed).
   */
  enqueueMessage(input: EnqueueInput): Promise<EnqueueResult>;
  getQueued(id: string): Promise<QueuedMessage | undefined>;
  /** The thread's queue, head first. */
  listQueued(threadId: string): Promise<readonly QueuedMessage[]>;
  editQueued(id: string, text: string, expectedText?: string): Promise<QueuedMessage | undefined>;
  steerQueued(id: string): Promise<QueuedMessage | undefined>;
  /** Removes a queued message; false when it was gone already. */
  removeQueued(id: string): Promise<boolean>;
  /**
   * A queued message becomes its thread's next turn, atomically: in one transaction `beginTurn` in
   * its thread with its owner, request key and text; on `created` (or `existing`: a turn with its
   * key was begun already) it leaves the queue, on `busy` it stays. Undefined when it is gone.
   */
  beginQueuedTurn(id: string, options?: { readonly lease?: string }): Promise<{ readonly message: QueuedMessage; readonly begun: BeginTurnResult } | undefined>;
  /** Threads whose queue holds a message (a starting engine runs what nobody runs). */
  queuedThreads(): Promise<readonly string[]>;

  /** Counts of what the journal holds, for people reading it (`plumb store inspect`); one read. */
  census(): Promise<JournalCensus>;
  /**
   * The journal's migrations, applied and pending (a memory store has none); `store_schema_mismatch`
   * when the database applied one this build does not know.
   */
  migrations(): Promise<MigrationState>;
  /** Resolves once the database answers a trivial query (`/readyz`); rejects with why it did not. */
  ping(): Promise<void>;

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
