import { PlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { counterIds } from './ordered-ids.js';
import { checkKind, checkStatus, closedError, jsonCopy, notFound, retentionLimit } from './records.js';
import { activeTurnStatuses } from './types.js';
import type {
  BeginTurnInput,
  BeginTurnResult,
  ClaimResult,
  ConfirmationRecord,
  ItemRecord,
  ListItemsOptions,
  NewConfirmation,
  NewItem,
  RetentionOptions,
  StagedItems,
  Store,
  StoreOptions,
  ThreadPatch,
  ThreadRecord,
  TurnPatch,
  TurnRecord,
  TurnStatus,
} from './types.js';

interface ThreadState {
  record: ThreadRecord;
  readonly items: ItemRecord[];
  readonly turnIds: string[];
}

/**
 * A store in process memory: fast, for tests, benchmarks and single-process hosts that accept
 * losing the journal on exit. Every method does its work synchronously, so each is atomic.
 */
export class MemoryStore implements Store {
  readonly kind = 'memory';
  readonly #ids: () => string;
  readonly #clock: () => number;
  readonly #threads = new Map<string, ThreadState>();
  /** owner → their thread ids, so that an owner's lookups never scan everyone's threads. */
  readonly #byOwner = new Map<string, Set<string>>();
  readonly #turns = new Map<string, TurnRecord>();
  readonly #requestKeys = new Map<string, string>();
  readonly #confirmations = new Map<string, ConfirmationRecord>();
  #closed = false;

  constructor(options: StoreOptions = {}) {
    this.#ids = options.ids ?? counterIds();
    this.#clock = options.clock ?? Date.now;
  }

  #open(): void {
    if (this.#closed) throw closedError();
  }

  #thread(id: string): ThreadState {
    const state = this.#threads.get(id);
    if (state === undefined) throw notFound('thread', id);
    return state;
  }

  async createThread(input: { readonly owner: string; readonly title?: string | null }): Promise<ThreadRecord> {
    this.#open();
    return Promise.resolve(this.#createThread(input.owner, input.title ?? null, this.#clock()).record);
  }

  #createThread(owner: string, title: string | null, now: number, id = this.#ids()): ThreadState {
    const record: ThreadRecord = Object.freeze({
      id,
      owner,
      title,
      summary: null,
      summaryThroughItemId: null,
      routerSession: null,
      createdAt: now,
      updatedAt: now,
    });
    const state: ThreadState = { record, items: [], turnIds: [] };
    this.#threads.set(record.id, state);
    let owned = this.#byOwner.get(record.owner);
    if (owned === undefined) this.#byOwner.set(record.owner, (owned = new Set()));
    owned.add(record.id);
    return state;
  }

  async getThread(id: string): Promise<ThreadRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#threads.get(id)?.record);
  }

  async latestThread(owner: string): Promise<ThreadRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#owned(owner)[0]);
  }

  async listThreads(owner: string, options: { readonly limit?: number } = {}): Promise<readonly ThreadRecord[]> {
    this.#open();
    const all = this.#owned(owner);
    return Promise.resolve(options.limit === undefined ? all : all.slice(0, options.limit));
  }

  /** The owner's most recently updated thread, without sorting them all. */
  #latest(owner: string): ThreadState | undefined {
    let best: ThreadState | undefined;
    for (const id of this.#byOwner.get(owner) ?? []) {
      const state = this.#threads.get(id);
      if (state !== undefined && (best === undefined || newestFirst(state.record, best.record) < 0)) best = state;
    }
    return best;
  }

  #owned(owner: string): ThreadRecord[] {
    const out: ThreadRecord[] = [];
    for (const id of this.#byOwner.get(owner) ?? []) {
      const state = this.#threads.get(id);
      if (state !== undefined) out.push(state.record);
    }
    return out.sort(newestFirst);
  }

  async updateThread(id: string, patch: ThreadPatch): Promise<ThreadRecord> {
    this.#open();
    const state = this.#thread(id);
    state.record = Object.freeze({ ...state.record, ...definedOnly(patch), updatedAt: this.#clock() });
    return Promise.resolve(state.record);
  }

  async deleteThread(id: string): Promise<boolean> {
    this.#open();
    const state = this.#threads.get(id);
    if (state === undefined) return Promise.resolve(false);
    this.#deleteThread(state);
    return Promise.resolve(true);
  }

  #deleteThread(state: ThreadState): void {
    const id = state.record.id;
    for (const turnId of state.turnIds) {
      const turn = this.#turns.get(turnId);
      if (turn !== undefined) this.#requestKeys.delete(requestKeyOf(turn.owner, turn.requestKey));
      this.#turns.delete(turnId);
    }
    for (const [key, confirmation] of this.#confirmations) if (confirmation.threadId === id) this.#confirmations.delete(key);
    this.#threads.delete(id);
    const owned = this.#byOwner.get(state.record.owner);
    owned?.delete(id);
    if (owned?.size === 0) this.#byOwner.delete(state.record.owner);
  }

  async deleteThreadsUpdatedBefore(cutoff: number, options?: RetentionOptions): Promise<readonly string[]> {
    this.#open();
    const limit = retentionLimit(options);
    const stale: ThreadState[] = [];
    for (const state of this.#threads.values()) if (state.record.updatedAt < cutoff && this.#activeTurn(state) === undefined) stale.push(state);
    stale.sort((a, b) => a.record.updatedAt - b.record.updatedAt || compareIds(a.record.id, b.record.id));
    const deleted = stale.slice(0, limit);
    for (const state of deleted) this.#deleteThread(state);
    return Promise.resolve(deleted.map((state) => state.record.id));
  }

  async deleteConfirmationsResolvedBefore(cutoff: number, options?: RetentionOptions): Promise<number> {
    this.#open();
    const limit = retentionLimit(options);
    const old = [...this.#confirmations.values()].filter((c) => c.status === 'resolved' && c.resolvedAt !== null && c.resolvedAt < cutoff);
    old.sort((a, b) => (a.resolvedAt ?? 0) - (b.resolvedAt ?? 0) || compareIds(a.id, b.id));
    const deleted = old.slice(0, limit);
    for (const record of deleted) this.#confirmations.delete(record.id);
    return Promise.resolve(deleted.length);
  }

  /** The thread's active turn, if any: only the latest turns can be active, so look from the end. */
  #activeTurn(state: ThreadState): TurnRecord | undefined {
    for (let i = state.turnIds.length - 1; i >= 0; i--) {
      const turn = this.#turns.get(state.turnIds[i]!);
      if (turn !== undefined && activeTurnStatuses.includes(turn.status)) return turn;
    }
    return undefined;
  }

  async beginTurn(input: BeginTurnInput): Promise<BeginTurnResult> {
    this.#open();
    const found = input.threadId !== undefined ? this.#thread(input.threadId) : this.#latest(input.owner);
    if (input.threadId !== undefined && input.owner !== undefined && found?.record.owner !== input.owner) throw notFound('thread', input.threadId);
    const owner = found?.record.owner ?? input.owner!;
    if (found !== undefined) {
      const existingId = this.#requestKeys.get(requestKeyOf(owner, input.requestKey));
      const existing = existingId === undefined ? undefined : this.#turns.get(existingId);
      if (existing !== undefined) return Promise.resolve({ outcome: 'existing', thread: found.record, turn: existing });
      const active = this.#activeTurn(found);
      if (active !== undefined) return Promise.resolve({ outcome: 'busy', thread: found.record, turn: active });
    }
    const now = this.#clock();
    const newThreadId = found === undefined ? this.#ids() : undefined;
    const turnId = input.turnId ?? this.#ids();
    if (this.#turns.has(turnId)) throw new PlumbError('store_invalid_record', `A turn with id '${turnId}' already exists.`);
    const state = found ?? this.#createThread(owner, input.newThreadTitle ?? null, now, newThreadId);
    const turn: TurnRecord = Object.freeze({
      id: turnId,
      threadId: state.record.id,
      owner,
      requestKey: input.requestKey,
      input: input.input,
      status: 'accepted',
      failureCode: null,
      failureMessage: null,
      usage: Object.freeze({ inputTokens: 0, outputTokens: 0 }),
      createdAt: now,
      updatedAt: now,
    });
    this.#turns.set(turn.id, turn);
    this.#requestKeys.set(requestKeyOf(owner, input.requestKey), turn.id);
    state.turnIds.push(turn.id);
    const [userItem] = this.#append(state, turn.id, [{ kind: 'user_text', data: null }], now, [{ text: input.input }]);
    state.record = Object.freeze({ ...state.record, updatedAt: now });
    return Promise.resolve({ outcome: 'created', thread: state.record, turn, userItem: userItem! });
  }

  async getTurn(id: string): Promise<TurnRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#turns.get(id));
  }

  async listTurns(threadId: string): Promise<readonly TurnRecord[]> {
    this.#open();
    const state = this.#threads.get(threadId);
    if (state === undefined) return Promise.resolve([]);
    return Promise.resolve(state.turnIds.map((id) => this.#turns.get(id)).filter((turn) => turn !== undefined));
  }

  async turnsWithStatus(status: TurnStatus): Promise<readonly TurnRecord[]> {
    this.#open();
    return Promise.resolve([...this.#turns.values()].filter((turn) => turn.status === status));
  }

  async updateTurn(id: string, patch: TurnPatch, from?: readonly TurnStatus[]): Promise<TurnRecord | undefined> {
    this.#open();
    const turn = this.#turns.get(id);
    if (turn === undefined) throw notFound('turn', id);
    if (from !== undefined && !from.includes(turn.status)) return Promise.resolve(undefined);
    return Promise.resolve(this.#patchTurn(turn, patch));
  }

  #patchTurn(turn: TurnRecord, patch: TurnPatch): TurnRecord {
    if (patch.status !== undefined) checkStatus(patch.status);
    const next: TurnRecord = Object.freeze({
      ...turn,
      status: patch.status ?? turn.status,
      failureCode: patch.failureCode === undefined ? turn.failureCode : patch.failureCode,
      failureMessage: patch.failureMessage === undefined ? turn.failureMessage : patch.failureMessage,
      usage:
        patch.addUsage === undefined
          ? turn.usage
          : Object.freeze({
              inputTokens: turn.usage.inputTokens + patch.addUsage.inputTokens,
              outputTokens: turn.usage.outputTokens + patch.addUsage.outputTokens,
            }),
      updatedAt: this.#clock(),
    });
    this.#turns.set(turn.id, next);
    return next;
  }

  async stageItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch): Promise<StagedItems> {
    return { records: await this.appendItems(turnId, items, turnPatch), committed: Promise.resolve() };
  }

  async appendItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch): Promise<readonly ItemRecord[]> {
    this.#open();
    const turn = this.#turns.get(turnId);
    if (turn === undefined) throw notFound('turn', turnId);
    const state = this.#thread(turn.threadId);
    // Validate and copy everything before touching state: a failure leaves nothing behind.
    const copies = new Array<JsonValue>(items.length);
    let seen: Set<string> | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      checkKind(item);
      copies[i] = jsonCopy(item.data, `item of kind '${item.kind}'`);
      if (item.id === undefined) continue;
      // A caller-chosen id must be new in the thread (generated ids are unique outright).
      if (seen?.has(item.id) === true || state.items.some((stored) => stored.id === item.id)) {
        throw new PlumbError('store_invalid_record', `An item with id '${item.id}' already exists in thread '${state.record.id}'.`);
      }
      (seen ??= new Set()).add(item.id);
    }
    if (turnPatch?.status !== undefined) checkStatus(turnPatch.status);
    const records = this.#append(state, turnId, items, this.#clock(), copies);
    if (turnPatch !== undefined) this.#patchTurn(turn, turnPatch);
    return Promise.resolve(records);
  }

  /** Stores items whose data is already the store's own copy (`copies[i]` for `items[i]`). */
  #append(state: ThreadState, turnId: string, items: readonly NewItem[], now: number, copies: readonly JsonValue[]): ItemRecord[] {
    const records = new Array<ItemRecord>(items.length);
    const threadId = state.record.id;
    for (let i = 0; i < items.length; i++) {
      const record: ItemRecord = Object.freeze({
        id: items[i]!.id ?? this.#ids(),
        threadId,
        turnId,
        ordinal: state.items.length + 1,
        kind: items[i]!.kind,
        data: copies[i]!,
        createdAt: now,
      });
      state.items.push(record);
      records[i] = record;
    }
    return records;
  }

  async listItems(threadId: string, options: ListItemsOptions = {}): Promise<readonly ItemRecord[]> {
    this.#open();
    const state = this.#threads.get(threadId);
    if (state === undefined) return Promise.resolve([]);
    let items: readonly ItemRecord[] = state.items;
    if (options.afterOrdinal !== undefined) items = items.slice(Math.max(0, options.afterOrdinal));
    if (options.turnId !== undefined) items = items.filter((item) => item.turnId === options.turnId);
    return Promise.resolve(items === state.items ? [...items] : items);
  }

  async createConfirmation(input: NewConfirmation): Promise<ConfirmationRecord> {
    this.#open();
    if (this.#confirmations.has(input.id)) {
      throw new PlumbError('store_invalid_record', `A confirmation with id '${input.id}' already exists.`);
    }
    if (!this.#turns.has(input.turnId)) throw notFound('turn', input.turnId);
    const record: ConfirmationRecord = Object.freeze({
      ...input,
      arguments: copyJson(input.arguments),
      actor: copyJson(input.actor),
      createdAt: input.createdAt ?? this.#clock(),
      status: 'pending',
      resolvedAt: null,
      resolution: null,
    });
    this.#confirmations.set(record.id, record);
    return Promise.resolve(record);
  }

  async getConfirmation(id: string): Promise<ConfirmationRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#confirmations.get(id));
  }

  async pendingConfirmations(turnId: string): Promise<readonly ConfirmationRecord[]> {
    this.#open();
    return Promise.resolve([...this.#confirmations.values()].filter((c) => c.turnId === turnId && c.status === 'pending'));
  }

  async claimConfirmation(id: string, owner: string, now: number, expiredResolution: JsonValue = 'expired'): Promise<ClaimResult> {
    this.#open();
    const record = this.#confirmations.get(id);
    if (record === undefined) return Promise.resolve({ outcome: 'missing' });
    if (record.owner !== owner) return Promise.resolve({ outcome: 'forbidden' });
    if (record.status !== 'pending') return Promise.resolve({ outcome: 'unavailable', confirmation: record });
    if (record.expiresAt <= now) {
      const expired = Object.freeze({ ...record, status: 'resolved' as const, resolution: copyJson(expiredResolution), resolvedAt: now });
      this.#confirmations.set(id, expired);
      return Promise.resolve({ outcome: 'expired', confirmation: expired });
    }
    const claimed = Object.freeze({ ...record, status: 'claimed' as const });
    this.#confirmations.set(id, claimed);
    return Promise.resolve({ outcome: 'claimed', confirmation: claimed });
  }

  async resolveConfirmation(id: string, resolution: JsonValue, now: number): Promise<boolean> {
    this.#open();
    const record = this.#confirmations.get(id);
    if (record === undefined || record.status === 'resolved') return Promise.resolve(false);
    this.#confirmations.set(id, Object.freeze({ ...record, status: 'resolved', resolution: copyJson(resolution), resolvedAt: now }));
    return Promise.resolve(true);
  }

  async expireConfirmations(now: number, resolution: JsonValue): Promise<readonly ConfirmationRecord[]> {
    this.#open();
    const expired: ConfirmationRecord[] = [];
    for (const record of this.#confirmations.values()) {
      if (record.status !== 'pending' || record.expiresAt > now) continue;
      const next = Object.freeze({ ...record, status: 'resolved' as const, resolution: copyJson(resolution), resolvedAt: now });
      this.#confirmations.set(record.id, next);
      expired.push(next);
    }
    return Promise.resolve(expired);
  }

  async close(): Promise<void> {
    this.#closed = true;
    return Promise.resolve();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

export function createMemoryStore(options: StoreOptions = {}): MemoryStore {
  return new MemoryStore(options);
}

function requestKeyOf(owner: string, requestKey: string): string {
  return `${owner}\u0000${requestKey}`;
}

function newestFirst(a: ThreadRecord, b: ThreadRecord): number {
  return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(patch) as (keyof T)[]) if (patch[key] !== undefined) out[key] = patch[key];
  return out;
}

/** Records are kept apart from the caller's objects, so a later mutation by the caller changes nothing. */
function copyJson(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  return jsonCopy(value, 'a record');
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
