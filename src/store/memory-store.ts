import { PlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { counterIds } from './ordered-ids.js';
import { checkFence, checkKind, checkLeaseTtl, checkStatus, closedError, jsonCopy, notFound, retentionLimit } from './records.js';
import { activeTurnStatuses } from './types.js';
import { afterCursor, checkItemPage, checkThreadPage, checkTitleSource, cursorOf, foldText, forkRequestKey, forkedTurnStatus, pageCut } from './pages.js';
import type {
  BeginTurnInput,
  BeginTurnResult,
  ClaimResult,
  EnqueueInput,
  EnqueueResult,
  QueuedMessage,
  ConfirmationRecord,
  ItemRecord,
  LeaseRecord,
  ListItemsOptions,
  OrphanEnding,
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
  ForkThreadInput,
  ItemPage,
  ItemPageOptions,
  ThreadPage,
  ThreadPageOptions,
  TitleSource,
  WriteFence,
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
  readonly #leases = new Map<string, LeaseRecord>();
  /** Queued messages by id, each with its place in its thread's queue (lower first). */
  readonly #queue = new Map<string, { message: QueuedMessage; seq: number }>();
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
      titleSource: null,
      forkedFrom: null,
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
    for (const [key, queued] of this.#queue) if (queued.message.threadId === id) this.#queue.delete(key);
    this.#threads.delete(id);
    const owned = this.#byOwner.get(state.record.owner);
    owned?.delete(id);
    if (owned?.size === 0) this.#byOwner.delete(state.record.owner);
  }

  async pageThreads(owner: string, options: ThreadPageOptions): Promise<ThreadPage> {
    this.#open();
    checkThreadPage(options);
    const search = options.search === undefined || options.search === '' ? undefined : foldText(options.search);
    const found: ThreadRecord[] = [];
    for (const record of this.#owned(owner)) {
      if (options.after !== undefined && !afterCursor(record, options.after)) continue;
      if (search !== undefined && !this.#matches(record, search)) continue;
      found.push(record);
      if (found.length > options.limit) break;
    }
    const threads = found.slice(0, options.limit);
    return Promise.resolve({ threads, next: found.length > options.limit ? cursorOf(threads[threads.length - 1]!) : null });
  }

  #matches(record: ThreadRecord, search: string): boolean {
    if (foldText(record.title).includes(search)) return true;
    const state = this.#threads.get(record.id);
    return state?.items.some((item) => (item.kind === 'user_text' || item.kind === 'assistant_text') && foldText((item.data as { text?: unknown } | null)?.text).includes(search)) === true;
  }

  async setThreadTitle(id: string, title: string | null, source: TitleSource | null, options: { readonly onlyIf?: readonly (TitleSource | null)[] } = {}): Promise<ThreadRecord | undefined> {
    this.#open();
    checkTitleSource(source);
    const state = this.#threads.get(id);
    if (state === undefined || (options.onlyIf !== undefined && !options.onlyIf.includes(state.record.titleSource))) return Promise.resolve(undefined);
    state.record = Object.freeze({ ...state.record, title, titleSource: source });
    return Promise.resolve(state.record);
  }

  async forkThread(input: ForkThreadInput): Promise<ThreadRecord> {
    this.#open();
    const source = this.#thread(input.threadId);
    const through = input.throughOrdinal;
    if (!Number.isInteger(through) || through < 0 || through > source.items.length) throw notFound('item', `${input.threadId} #${String(through)}`);
    const now = this.#clock();
    const owner = source.record.owner;
    const fork = this.#createThread(owner, input.title === undefined ? source.record.title : input.title, now);
    const lastOrdinalOf = new Map<string, number>();
    for (const item of source.items) lastOrdinalOf.set(item.turnId, item.ordinal);
    const copies = new Map<string, string>();
    for (const item of source.items.slice(0, through)) {
      let turnId = copies.get(item.turnId);
      if (turnId === undefined) {
        const original = this.#turns.get(item.turnId);
        turnId = this.#ids();
        copies.set(item.turnId, turnId);
        if (original !== undefined) {
          const turn: TurnRecord = Object.freeze({
            ...original,
            id: turnId,
            threadId: fork.record.id,
            requestKey: forkRequestKey(fork.record.id, original.id),
            ...forkedTurnStatus(original, (lastOrdinalOf.get(original.id) ?? 0) <= through),
            usage: Object.freeze({ inputTokens: 0, outputTokens: 0 }),
            lease: null,
            updatedAt: now,
          });
          this.#turns.set(turnId, turn);
          this.#requestKeys.set(requestKeyOf(owner, turn.requestKey), turnId);
          fork.turnIds.push(turnId);
        }
      }
      fork.items.push(Object.freeze({ ...item, threadId: fork.record.id, turnId }));
    }
    const marker = source.record.summaryThroughItemId;
    const summaryKept = marker !== null && fork.items.some((item) => item.id === marker);
    fork.record = Object.freeze({
      ...fork.record,
      titleSource: source.record.titleSource,
      forkedFrom: Object.freeze({ threadId: source.record.id, itemId: input.fromItemId }),
      ...(summaryKept ? { summary: source.record.summary, summaryThroughItemId: marker } : {}),
    });
    return Promise.resolve(fork.record);
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
    if (input.threadId === undefined && input.newThread === true) {
      const replayed = this.#turns.get(this.#requestKeys.get(requestKeyOf(input.owner, input.requestKey)) ?? '');
      const its = replayed === undefined ? undefined : this.#thread(replayed.threadId);
      if (replayed !== undefined && its !== undefined) return Promise.resolve({ outcome: 'existing', thread: its.record, turn: replayed });
    }
    const found = input.threadId !== undefined ? this.#thread(input.threadId) : input.newThread === true ? undefined : this.#latest(input.owner);
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
      lease: input.lease ?? null,
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
      lease: patch.lease === undefined ? turn.lease : patch.lease,
      updatedAt: this.#clock(),
    });
    this.#turns.set(turn.id, next);
    return next;
  }

  async stageItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch, fence?: WriteFence): Promise<StagedItems> {
    return { records: await this.appendItems(turnId, items, turnPatch, fence), committed: Promise.resolve() };
  }

  async appendItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch, fence?: WriteFence): Promise<readonly ItemRecord[]> {
    this.#open();
    const turn = this.#turns.get(turnId);
    if (turn === undefined) throw notFound('turn', turnId);
    checkFence(turnId, fence?.lease, turn.lease, turn.status);
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

  async pageItems(threadId: string, options: ItemPageOptions): Promise<ItemPage> {
    this.#open();
    checkItemPage(options);
    const items = this.#threads.get(threadId)?.items ?? [];
    // Ordinals are 1, 2, 3…: the item with ordinal n sits at index n - 1.
    const low = Math.min(items.length, options.after ?? 0);
    const high = Math.min(items.length, options.before === undefined ? items.length : Math.max(0, options.before - 1));
    const range = items.slice(low, Math.max(low, high));
    const sizeOf = (item: ItemRecord): number => Buffer.byteLength(JSON.stringify(item.data));
    if (options.after !== undefined) {
      const kept = pageCut(range.slice(0, options.limit + 1).map(sizeOf), options.limit, options.maxBytes);
      return Promise.resolve({ items: range.slice(0, kept), more: kept < range.length });
    }
    const newest = range.slice(-options.limit - 1).reverse();
    const kept = pageCut(newest.map(sizeOf), options.limit, options.maxBytes);
    return Promise.resolve({ items: range.slice(range.length - kept), more: kept < range.length });
  }

  async lastOrdinal(threadId: string): Promise<number> {
    this.#open();
    return Promise.resolve(this.#threads.get(threadId)?.items.length ?? 0);
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

  async resolveClaimedConfirmations(turnId: string, resolution: JsonValue, now: number): Promise<readonly ConfirmationRecord[]> {
    this.#open();
    const resolved: ConfirmationRecord[] = [];
    for (const record of this.#confirmations.values()) {
      if (record.turnId !== turnId || record.status !== 'claimed') continue;
      const next = Object.freeze({ ...record, status: 'resolved' as const, resolution: copyJson(resolution), resolvedAt: now });
      this.#confirmations.set(record.id, next);
      resolved.push(next);
    }
    return Promise.resolve(resolved.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
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

  async acquireLease(input: { readonly id: string; readonly holder: string; readonly ttlMs: number }): Promise<LeaseRecord> {
    this.#open();
    checkLeaseTtl(input.ttlMs);
    if (this.#leases.has(input.id)) throw new PlumbError('store_invalid_record', `A lease with id '${input.id}' already exists.`);
    const now = this.#clock();
    const lease: LeaseRecord = Object.freeze({ id: input.id, holder: input.holder, acquiredAt: now, heartbeatAt: now, expiresAt: now + input.ttlMs });
    this.#leases.set(lease.id, lease);
    return Promise.resolve(lease);
  }

  async renewLease(id: string, ttlMs: number): Promise<LeaseRecord | undefined> {
    this.#open();
    checkLeaseTtl(ttlMs);
    const lease = this.#leases.get(id);
    const now = this.#clock();
    if (lease === undefined || lease.expiresAt <= now) return Promise.resolve(undefined);
    const renewed: LeaseRecord = Object.freeze({ ...lease, heartbeatAt: now, expiresAt: now + ttlMs });
    this.#leases.set(id, renewed);
    return Promise.resolve(renewed);
  }

  async releaseLease(id: string): Promise<boolean> {
    this.#open();
    return Promise.resolve(this.#leases.delete(id));
  }

  async getLease(id: string): Promise<LeaseRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#leases.get(id));
  }

  #orphaned(turn: TurnRecord, now: number): boolean {
    if (turn.status !== 'accepted' && turn.status !== 'running') return false;
    const lease = turn.lease === null ? undefined : this.#leases.get(turn.lease);
    return lease === undefined || lease.expiresAt <= now;
  }

  async orphanedTurns(): Promise<readonly TurnRecord[]> {
    this.#open();
    const now = this.#clock();
    return Promise.resolve([...this.#turns.values()].filter((turn) => this.#orphaned(turn, now)));
  }

  async endOrphanedTurn(turnId: string, end: (turn: TurnRecord, turnItems: readonly ItemRecord[]) => OrphanEnding): Promise<TurnRecord | undefined> {
    this.#open();
    const turn = this.#turns.get(turnId);
    if (turn === undefined || !this.#orphaned(turn, this.#clock())) return undefined;
    if (turn.lease !== null) this.#leases.delete(turn.lease);
    const state = this.#thread(turn.threadId);
    const ending = end(turn, state.items.filter((item) => item.turnId === turnId));
    if (ending.claimed !== undefined) await this.resolveClaimedConfirmations(turnId, ending.claimed, this.#clock());
    await this.appendItems(turnId, ending.items, ending.patch);
    return this.#turns.get(turnId);
  }

  /** The thread's queue, head first. */
  #queued(threadId: string): { message: QueuedMessage; seq: number }[] {
    return [...this.#queue.values()].filter((entry) => entry.message.threadId === threadId).sort((a, b) => a.seq - b.seq || compareIds(a.message.id, b.message.id));
  }

  async enqueueMessage(input: EnqueueInput): Promise<EnqueueResult> {
    this.#open();
    const state = this.#thread(input.threadId);
    if (state.record.owner !== input.owner) throw notFound('thread', input.threadId);
    const queue = this.#queued(input.threadId);
    const same = queue.findIndex((entry) => entry.message.owner === input.owner && entry.message.requestKey === input.requestKey);
    if (same >= 0) return Promise.resolve({ outcome: 'existing', message: queue[same]!.message, position: same + 1 });
    if (queue.length >= input.limit) return Promise.resolve({ outcome: 'full', size: queue.length });
    const id = input.id ?? this.#ids();
    if (this.#queue.has(id)) throw new PlumbError('store_invalid_record', `A queued message with id '${id}' already exists.`);
    const now = this.#clock();
    const message: QueuedMessage = Object.freeze({
      id,
      threadId: input.threadId,
      owner: input.owner,
      actor: copyJson(input.actor),
      requestKey: input.requestKey,
      text: input.text,
      language: input.language ?? null,
      steer: false,
      createdAt: now,
      updatedAt: now,
    });
    this.#queue.set(id, { message, seq: (queue.at(-1)?.seq ?? 0) + 1 });
    return Promise.resolve({ outcome: 'queued', message, position: queue.length + 1 });
  }

  async getQueued(id: string): Promise<QueuedMessage | undefined> {
    this.#open();
    return Promise.resolve(this.#queue.get(id)?.message);
  }

  async listQueued(threadId: string): Promise<readonly QueuedMessage[]> {
    this.#open();
    return Promise.resolve(this.#queued(threadId).map((entry) => entry.message));
  }

  async editQueued(id: string, text: string, expectedText?: string): Promise<QueuedMessage | undefined> {
    this.#open();
    const entry = this.#queue.get(id);
    if (entry === undefined || (expectedText !== undefined && entry.message.text !== expectedText)) return Promise.resolve(undefined);
    entry.message = Object.freeze({ ...entry.message, text, updatedAt: this.#clock() });
    return Promise.resolve(entry.message);
  }

  async steerQueued(id: string): Promise<QueuedMessage | undefined> {
    this.#open();
    const entry = this.#queue.get(id);
    if (entry === undefined) return Promise.resolve(undefined);
    const head = this.#queued(entry.message.threadId)[0];
    if (head !== undefined && head !== entry) entry.seq = head.seq - 1;
    entry.message = Object.freeze({ ...entry.message, steer: true, updatedAt: this.#clock() });
    return Promise.resolve(entry.message);
  }

  async removeQueued(id: string): Promise<boolean> {
    this.#open();
    return Promise.resolve(this.#queue.delete(id));
  }

  async takeQueued(id: string, turnId: string): Promise<ItemRecord | undefined> {
    this.#open();
    const entry = this.#queue.get(id);
    if (entry === undefined) return undefined;
    // Out of the queue before anything awaits, so that a concurrent take finds it gone.
    this.#queue.delete(id);
    try {
      const [record] = await this.appendItems(turnId, [{ kind: 'user_text', data: { text: entry.message.text, queueId: id, steered: true } }]);
      return record;
    } catch (error) {
      this.#queue.set(id, entry);
      throw error;
    }
  }

  async beginQueuedTurn(id: string, options: { readonly lease?: string } = {}): Promise<{ readonly message: QueuedMessage; readonly begun: BeginTurnResult } | undefined> {
    this.#open();
    const entry = this.#queue.get(id);
    if (entry === undefined) return undefined;
    const { message } = entry;
    this.#queue.delete(id);
    let begun: BeginTurnResult;
    try {
      begun = await this.beginTurn({ threadId: message.threadId, owner: message.owner, requestKey: message.requestKey, input: message.text, ...(options.lease === undefined ? {} : { lease: options.lease }) });
    } catch (error) {
      this.#queue.set(id, entry);
      throw error;
    }
    if (begun.outcome === 'busy') this.#queue.set(id, entry);
    return { message, begun };
  }

  async queuedThreads(): Promise<readonly string[]> {
    this.#open();
    return Promise.resolve([...new Set([...this.#queue.values()].map((entry) => entry.message.threadId))]);
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
