import { PlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { orderedIds } from './ordered-ids.js';
import { checkFence, checkItem, definedOnly, checkLeaseTtl, checkStatus, closedError, jsonText, notFound, retentionLimit } from './records.js';
import { toConfirmation, toItem, toLease, toQueued, toThread, toTurn } from './rows.js';
import type { ConfirmationRow, ItemRow, LeaseRow, QueuedRow, ThreadRow, TurnRow } from './rows.js';
import { sqlState, violatedConstraint } from './postgres-sql.js';
import { PostgresPages } from './postgres/pages.js';
import type { JournalSql, SqlQuery } from './postgres-sql.js';
import { activeTurnStatuses } from './types.js';
import type {
  BeginTurnInput,
  BeginTurnResult,
  ClaimResult,
  ConfirmationRecord,
  EnqueueInput,
  EnqueueResult,
  ItemRecord,
  LeaseRecord,
  QueuedMessage,
  ListItemsOptions,
  NewConfirmation,
  NewItem,
  OrphanEnding,
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

export interface PostgresStoreOptions extends StoreOptions {
  /** Prefix of every table (default `plumb_`); the schema is the connection's (`search_path`). */
  readonly tablePrefix?: string;
}

const activeList = activeTurnStatuses.map((status) => `'${status}'`).join(', ');
const uniqueViolation = '23505';

/**
 * The journal on PostgreSQL. Every write is one statement where it can be (an append, a claim, a
 * turn's acceptance: data-modifying CTEs, atomic by themselves), so a step costs one round trip;
 * what must read before it writes runs in a transaction that locks the rows it depends on, thread
 * before turn, the order every append takes them too. Atomicity across processes comes from the
 * database: the unique `turns_active` index (one active turn per thread), row locks (appends to a
 * thread, claims), conditional UPDATEs (compare-and-set, lease renewal).
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres';
  readonly #sql: JournalSql;
  readonly #ids: () => string;
  readonly #clock: () => number;
  readonly #t: ReturnType<typeof statements>;
  readonly #pages: PostgresPages;
  #closed = false;
  #closing: Promise<void> | undefined;

  /** Use `openPostgresStore` (plumb/postgres), which connects and migrates first. */
  constructor(sql: JournalSql, options: PostgresStoreOptions = {}) {
    const prefix = options.tablePrefix ?? 'plumb_';
    checkPrefix(prefix);
    this.#sql = sql;
    this.#clock = options.clock ?? Date.now;
    this.#ids = options.ids ?? orderedIds(this.#clock);
    this.#t = statements(prefix);
    this.#pages = new PostgresPages(sql, prefix, this.#ids, this.#clock);
  }

  #open(): void {
    if (this.#closed) throw closedError();
  }

  async #query(text: string, values: readonly unknown[] = []) {
    this.#open();
    return this.#sql.query(text, values);
  }

  async createThread(input: { readonly owner: string; readonly title?: string | null }): Promise<ThreadRecord> {
    const now = this.#clock();
    const { rows } = await this.#query(this.#t.insertThread, [this.#ids(), input.owner, input.title ?? null, now]);
    return toThread(rows[0] as unknown as ThreadRow);
  }

  async getThread(id: string): Promise<ThreadRecord | undefined> {
    const { rows } = await this.#query(this.#t.getThread, [id]);
    return rows[0] === undefined ? undefined : toThread(rows[0] as unknown as ThreadRow);
  }

  async latestThread(owner: string): Promise<ThreadRecord | undefined> {
    return (await this.listThreads(owner, { limit: 1 }))[0];
  }

  async listThreads(owner: string, options: { readonly limit?: number } = {}): Promise<readonly ThreadRecord[]> {
    const { rows } = await this.#query(this.#t.ownedThreads, [owner, options.limit ?? null]);
    return rows.map((row) => toThread(row as unknown as ThreadRow));
  }

  async updateThread(id: string, patch: ThreadPatch): Promise<ThreadRecord> {
    const fields = definedOnly(patch);
    const flag = (key: keyof ThreadPatch): [boolean, string | null] => [key in fields, fields[key] ?? null];
    const { rows } = await this.#query(this.#t.updateThread, [
      id,
      ...flag('title'),
      ...flag('summary'),
      ...flag('summaryThroughItemId'),
      ...flag('routerSession'),
      this.#clock(),
    ]);
    if (rows[0] === undefined) throw notFound('thread', id);
    return toThread(rows[0] as unknown as ThreadRow);
  }

  async deleteThread(id: string): Promise<boolean> {
    const { rows } = await this.#query(this.#t.deleteThread, [[id]]);
    return rows.length > 0;
  }

  async pageThreads(owner: string, options: ThreadPageOptions): Promise<ThreadPage> {
    this.#open();
    return this.#pages.threads(owner, options);
  }

  async setThreadTitle(id: string, title: string | null, source: TitleSource | null, options: { readonly onlyIf?: readonly (TitleSource | null)[] } = {}): Promise<ThreadRecord | undefined> {
    this.#open();
    return this.#pages.setTitle(id, title, source, options.onlyIf);
  }

  async forkThread(input: ForkThreadInput): Promise<ThreadRecord> {
    this.#open();
    return this.#pages.fork(input);
  }

  async pageItems(threadId: string, options: ItemPageOptions): Promise<ItemPage> {
    this.#open();
    return this.#pages.items(threadId, options);
  }

  async lastOrdinal(threadId: string): Promise<number> {
    this.#open();
    return this.#pages.lastOrdinal(threadId);
  }

  async deleteThreadsUpdatedBefore(cutoff: number, options?: RetentionOptions): Promise<readonly string[]> {
    const limit = retentionLimit(options);
    const { rows } = await this.#query(this.#t.deleteStaleThreads, [cutoff, limit]);
    return rows
      .map((row) => ({ id: String(row.id), updatedAt: Number(row.updated_at) }))
      .sort((a, b) => a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => row.id);
  }

  async deleteConfirmationsResolvedBefore(cutoff: number, options?: RetentionOptions): Promise<number> {
    const limit = retentionLimit(options);
    return (await this.#query(this.#t.deleteResolvedConfirmations, [cutoff, limit])).rowCount;
  }

  async beginTurn(input: BeginTurnInput): Promise<BeginTurnResult> {
    this.#open();
    // A race can end the turn that made the thread busy between two statements: try again then.
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = input.threadId !== undefined ? await this.#beginInThread(this.#sql.query, input, input.threadId) : await this.#beginForOwner(input, input.owner);
      if (result !== undefined) return result;
    }
    throw new PlumbError('store_invalid_record', `Could not begin a turn for request key '${input.requestKey}': the thread kept changing under it.`);
  }

  /** The turn in a given thread: one statement when it is created; undefined when a race needs another try. */
  async #beginInThread(query: SqlQuery, input: BeginTurnInput, threadId: string): Promise<BeginTurnResult | undefined> {
    const now = this.#clock();
    const turnId = input.turnId ?? this.#ids();
    const userText = checkItem({ kind: 'user_text', data: { text: input.input } });
    const itemId = this.#ids();
    const { rows } = await query(this.#t.beginInThread, [threadId, input.owner ?? null, turnId, input.requestKey, input.input, input.lease ?? null, now, itemId, userText]);
    const created = rows[0];
    if (created !== undefined) {
      const thread = toThread(created as unknown as ThreadRow);
      return { outcome: 'created', thread, turn: newTurn(turnId, thread, input, now), userItem: userItem(itemId, thread.id, turnId, Number(created.next_ordinal), input.input, now) };
    }
    const found = await query(this.#t.getThread, [threadId]);
    const row = found.rows[0] as unknown as ThreadRow | undefined;
    if (row === undefined || (input.owner !== undefined && row.owner !== input.owner)) throw notFound('thread', threadId);
    return this.#notCreated(query, toThread(row), input, turnId);
  }

  /** Why a turn was not inserted: its request key was used, or the thread is busy, or its id is taken. */
  async #notCreated(query: SqlQuery, thread: ThreadRecord, input: BeginTurnInput, turnId: string): Promise<BeginTurnResult | undefined> {
    const { rows } = await query(this.#t.blockingTurns, [thread.owner, input.requestKey, thread.id, turnId]);
    const byKey = rows.find((row) => row.owner === thread.owner && row.request_key === input.requestKey);
    if (byKey !== undefined) return { outcome: 'existing', thread, turn: toTurn(byKey as unknown as TurnRow) };
    const active = rows.find((row) => row.thread_id === thread.id && row.ended_at === null);
    if (active !== undefined) return { outcome: 'busy', thread, turn: toTurn(active as unknown as TurnRow) };
    if (rows.some((row) => row.id === turnId)) throw new PlumbError('store_invalid_record', `A turn with id '${turnId}' already exists.`);
    return undefined;
  }

  /**
   * The owner's latest thread, or a new one. A thread that exists takes the one-statement path;
   * an owner's first thread is created under a transaction-scoped advisory lock on the owner, so
   * that two first messages at once make one thread.
   */
  async #beginForOwner(input: BeginTurnInput, owner: string): Promise<BeginTurnResult | undefined> {
    if (input.newThread === true) return this.#beginInOwnThread(input, owner);
    // The owner's latest thread found and the turn begun there in one statement (the common case).
    const now = this.#clock();
    const turnId = input.turnId ?? this.#ids();
    const itemId = this.#ids();
    const userText = checkItem({ kind: 'user_text', data: { text: input.input } });
    const { rows } = await this.#sql.query(this.#t.beginForOwner, [owner, turnId, input.requestKey, input.input, input.lease ?? null, now, itemId, userText]);
    const created = rows[0];
    if (created !== undefined) {
      const thread = toThread(created as unknown as ThreadRow);
      return { outcome: 'created', thread, turn: newTurn(turnId, thread, input, now), userItem: userItem(itemId, thread.id, turnId, Number(created.next_ordinal), input.input, now) };
    }
    const latest = await this.latestThread(owner);
    if (latest !== undefined) return this.#notCreated(this.#sql.query, latest, input, turnId);
    return this.#sql.transaction(async (query) => {
      await query(this.#t.lockOwner, [owner]);
      const again = await query(this.#t.ownedThreads, [owner, 1]);
      const row = again.rows[0] as unknown as ThreadRow | undefined;
      if (row !== undefined) return this.#beginInThread(query, inThread(input, row.id, owner), row.id);
      return this.#beginInNewThread(query, input, owner);
    });
  }

  /**
   * A thread of its own (`newThread`) made with its first turn in one statement; a request key the
   * owner used replays its turn, in the thread it began.
   */
  async #beginInOwnThread(input: BeginTurnInput, owner: string): Promise<BeginTurnResult> {
    return this.#sql.transaction(async (query) => {
      await query(this.#t.lockOwner, [owner]);
      const used = await query(this.#t.blockingTurns, [owner, input.requestKey, '', '']);
      const replayed = used.rows[0] as unknown as TurnRow | undefined;
      const its = replayed === undefined ? undefined : ((await query(this.#t.getThread, [replayed.thread_id])).rows[0] as unknown as ThreadRow | undefined);
      if (replayed !== undefined && its !== undefined) return { outcome: 'existing' as const, thread: toThread(its), turn: toTurn(replayed) };
      return this.#beginInNewThread(query, input, owner);
    });
  }

  /** A new thread of the owner's and its first turn, in one statement. */
  async #beginInNewThread(query: SqlQuery, input: BeginTurnInput, owner: string): Promise<BeginTurnResult> {
    const now = this.#clock();
    const threadId = this.#ids();
    const turnId = input.turnId ?? this.#ids();
    const itemId = this.#ids();
    const title = input.newThreadTitle ?? null;
    const userText = checkItem({ kind: 'user_text', data: { text: input.input } });
    try {
      await query(this.#t.beginInNewThread, [threadId, owner, title, now, turnId, input.requestKey, input.input, input.lease ?? null, itemId, userText]);
    } catch (error) {
      if (sqlState(error) === uniqueViolation) throw new PlumbError('store_invalid_record', `A turn with id '${turnId}' already exists.`, { cause: error });
      throw error;
    }
    const thread: ThreadRecord = Object.freeze({ id: threadId, owner, title, summary: null, summaryThroughItemId: null, routerSession: null, titleSource: null, forkedFrom: null, createdAt: now, updatedAt: now });
    return { outcome: 'created' as const, thread, turn: newTurn(turnId, thread, input, now), userItem: userItem(itemId, threadId, turnId, 1, input.input, now) };
  }

  async getTurn(id: string): Promise<TurnRecord | undefined> {
    const { rows } = await this.#query(this.#t.getTurn, [id]);
    return rows[0] === undefined ? undefined : toTurn(rows[0] as unknown as TurnRow);
  }

  async listTurns(threadId: string): Promise<readonly TurnRecord[]> {
    const { rows } = await this.#query(this.#t.threadTurns, [threadId]);
    return rows.map((row) => toTurn(row as unknown as TurnRow));
  }

  async turnsWithStatus(status: TurnStatus): Promise<readonly TurnRecord[]> {
    const statement = activeTurnStatuses.includes(status) ? this.#t.turnsWithActiveStatus : this.#t.turnsWithStatus;
    const { rows } = await this.#query(statement, [status]);
    return rows.map((row) => toTurn(row as unknown as TurnRow));
  }

  async updateTurn(id: string, patch: TurnPatch, from?: readonly TurnStatus[]): Promise<TurnRecord | undefined> {
    if (patch.status !== undefined) checkStatus(patch.status);
    let rows;
    try {
      ({ rows } = await this.#query(this.#t.updateTurn, [id, ...patchValues(patch), this.#clock(), from === undefined ? null : [...from]]));
    } catch (error) {
      // A retry that would make a second turn of the thread active: the thread is busy.
      if (sqlState(error) === uniqueViolation && violatedConstraint(error)?.endsWith('turns_active') === true) return undefined;
      throw error;
    }
    if (rows[0] !== undefined) return toTurn(rows[0] as unknown as TurnRow);
    if ((await this.getTurn(id)) === undefined) throw notFound('turn', id);
    return undefined;
  }

  async appendItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch, fence?: WriteFence): Promise<readonly ItemRecord[]> {
    this.#open();
    if (fence === undefined) return this.#append(this.#sql.query, turnId, items, turnPatch);
    // The thread's lock first (the order recovery takes it in), then the turn as it is now: a
    // recovery either committed before (the fence sees it) or waits for this write.
    return this.#sql.transaction(async (query) => {
      await query(this.#t.lockTurnThread, [turnId]);
      const turn = (await query(this.#t.getTurn, [turnId])).rows[0] as unknown as TurnRow | undefined;
      if (turn === undefined) throw notFound('turn', turnId);
      checkFence(turnId, fence.lease, turn.lease_id, turn.status);
      return this.#append(query, turnId, items, turnPatch);
    });
  }

  async #append(query: SqlQuery, turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined): Promise<ItemRecord[]> {
    const texts = items.map(checkItem);
    if (turnPatch?.status !== undefined) checkStatus(turnPatch.status);
    const ids = new Array<string>(items.length);
    const chosen = new Set<string>();
    for (let index = 0; index < items.length; index++) {
      const id = items[index]!.id;
      if (id !== undefined && chosen.has(id)) throw new PlumbError('store_invalid_record', `Item id '${id}' appears twice in one append.`);
      if (id !== undefined) chosen.add(id);
      ids[index] = id ?? this.#ids();
    }
    const now = this.#clock();
    const kinds = items.map((item) => item.kind);
    let rows;
    try {
      ({ rows } =
        turnPatch === undefined
          ? await query(this.#t.append, [turnId, items.length, now, ids, kinds, texts])
          : await query(this.#t.appendAndPatch, [turnId, items.length, now, ids, kinds, texts, ...patchValues(turnPatch)]));
    } catch (error) {
      if (sqlState(error) === uniqueViolation) throw new PlumbError('store_invalid_record', `Could not append to turn '${turnId}': an item id is already used in its thread.`, { cause: error });
      throw error;
    }
    const target = rows[0];
    if (target === undefined) throw notFound('turn', turnId);
    const threadId = String(target.thread_id);
    const first = Number(target.first);
    return items.map((item, index) =>
      Object.freeze({ id: ids[index]!, threadId, turnId, ordinal: first + index + 1, kind: item.kind, data: JSON.parse(texts[index]!) as JsonValue, createdAt: now }),
    );
  }

  async stageItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch, fence?: WriteFence): Promise<StagedItems> {
    return { records: await this.appendItems(turnId, items, turnPatch, fence), committed: Promise.resolve() };
  }

  async listItems(threadId: string, options: ListItemsOptions = {}): Promise<readonly ItemRecord[]> {
    const after = options.afterOrdinal ?? 0;
    const { rows } = options.turnId === undefined ? await this.#query(this.#t.threadItems, [threadId, after]) : await this.#query(this.#t.turnItems, [threadId, after, options.turnId]);
    return rows.map((row) => toItem(row as unknown as ItemRow));
  }

  async createConfirmation(input: NewConfirmation): Promise<ConfirmationRecord> {
    const argumentsText = jsonText(input.arguments, `confirmation '${input.id}'`);
    const actorText = jsonText(input.actor, `confirmation '${input.id}'`);
    let rows;
    try {
      ({ rows } = await this.#query(this.#t.insertConfirmation, [
        input.id,
        input.threadId,
        input.turnId,
        input.owner,
        actorText,
        input.callId,
        input.tool,
        argumentsText,
        input.digest,
        input.createdAt ?? this.#clock(),
        input.expiresAt,
      ]));
    } catch (error) {
      if (sqlState(error) === uniqueViolation) throw new PlumbError('store_invalid_record', `A confirmation with id '${input.id}' already exists.`, { cause: error });
      throw error;
    }
    if (rows[0] === undefined) throw notFound('turn', input.turnId);
    return toConfirmation(rows[0] as unknown as ConfirmationRow);
  }

  async getConfirmation(id: string): Promise<ConfirmationRecord | undefined> {
    const { rows } = await this.#query(this.#t.getConfirmation, [id]);
    return rows[0] === undefined ? undefined : toConfirmation(rows[0] as unknown as ConfirmationRow);
  }

  async pendingConfirmations(turnId: string): Promise<readonly ConfirmationRecord[]> {
    const { rows } = await this.#query(this.#t.pendingConfirmations, [turnId]);
    return rows.map((row) => toConfirmation(row as unknown as ConfirmationRow));
  }

  async claimConfirmation(id: string, owner: string, now: number, expiredResolution: JsonValue = 'expired'): Promise<ClaimResult> {
    const expired = jsonText(expiredResolution, 'a resolution');
    this.#open();
    // The conditional UPDATE is the claim (its row lock makes concurrent claims, from any process,
    // wait and then find it taken); it commits synchronously even when the journal's other commits
    // do not, so that an approval survives a crash of the database server too.
    const { rows } = await this.#sql.transaction(async (query) => {
      await query('set local synchronous_commit to on');
      return query(this.#t.claimConfirmation, [id, owner, now, expired]);
    });
    const claimed = rows[0];
    if (claimed !== undefined) {
      const record = toConfirmation(claimed as unknown as ConfirmationRow);
      return record.status === 'claimed' ? { outcome: 'claimed', confirmation: record } : { outcome: 'expired', confirmation: record };
    }
    const current = await this.getConfirmation(id);
    if (current === undefined) return { outcome: 'missing' };
    if (current.owner !== owner) return { outcome: 'forbidden' };
    return { outcome: 'unavailable', confirmation: current };
  }

  async resolveConfirmation(id: string, resolution: JsonValue, now: number): Promise<boolean> {
    const text = jsonText(resolution, 'a resolution');
    return (await this.#query(this.#t.resolveConfirmation, [id, text, now])).rowCount > 0;
  }

  async resolveClaimedConfirmations(turnId: string, resolution: JsonValue, now: number): Promise<readonly ConfirmationRecord[]> {
    const text = jsonText(resolution, 'a resolution');
    const { rows } = await this.#query(this.#t.resolveClaimedConfirmations, [turnId, text, now]);
    return rows.map((row) => toConfirmation(row as unknown as ConfirmationRow)).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async expireConfirmations(now: number, resolution: JsonValue): Promise<readonly ConfirmationRecord[]> {
    const text = jsonText(resolution, 'a resolution');
    const { rows } = await this.#query(this.#t.expireConfirmations, [now, text]);
    return rows.map((row) => toConfirmation(row as unknown as ConfirmationRow)).sort((a, b) => a.expiresAt - b.expiresAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async acquireLease(input: { readonly id: string; readonly holder: string; readonly ttlMs: number }): Promise<LeaseRecord> {
    checkLeaseTtl(input.ttlMs);
    const now = this.#clock();
    try {
      const { rows } = await this.#query(this.#t.insertLease, [input.id, input.holder, now, now + input.ttlMs]);
      return toLease(rows[0] as unknown as LeaseRow);
    } catch (error) {
      if (sqlState(error) === uniqueViolation) throw new PlumbError('store_invalid_record', `A lease with id '${input.id}' already exists.`, { cause: error });
      throw error;
    }
  }

  async renewLease(id: string, ttlMs: number): Promise<LeaseRecord | undefined> {
    checkLeaseTtl(ttlMs);
    const now = this.#clock();
    const { rows } = await this.#query(this.#t.renewLease, [id, now, now + ttlMs]);
    return rows[0] === undefined ? undefined : toLease(rows[0] as unknown as LeaseRow);
  }

  async releaseLease(id: string): Promise<boolean> {
    return (await this.#query(this.#t.deleteLease, [id])).rowCount > 0;
  }

  async getLease(id: string): Promise<LeaseRecord | undefined> {
    const { rows } = await this.#query(this.#t.getLease, [id]);
    return rows[0] === undefined ? undefined : toLease(rows[0] as unknown as LeaseRow);
  }

  async orphanedTurns(): Promise<readonly TurnRecord[]> {
    const { rows } = await this.#query(this.#t.orphanedTurns, [this.#clock()]);
    return rows.map((row) => toTurn(row as unknown as TurnRow));
  }

  async endOrphanedTurn(turnId: string, end: (turn: TurnRecord, turnItems: readonly ItemRecord[]) => OrphanEnding): Promise<TurnRecord | undefined> {
    const located = await this.#query(this.#t.getTurn, [turnId]);
    const threadId = located.rows[0]?.thread_id;
    if (typeof threadId !== 'string') return undefined;
    return this.#sql.transaction(async (query) => {
      // Thread, then turn, then lease: the order in which an append and a renewal take them, so
      // that a late append of the lease's holder waits here instead of deadlocking.
      await query(this.#t.lockThread, [threadId]);
      const locked = (await query(this.#t.lockTurn, [turnId])).rows[0] as unknown as TurnRow | undefined;
      if (locked === undefined || (locked.status !== 'accepted' && locked.status !== 'running')) return undefined;
      if (locked.lease_id !== null) {
        const lease = (await query(this.#t.lockLease, [locked.lease_id])).rows[0];
        if (lease !== undefined && Number(lease.expires_at) > this.#clock()) return undefined;
        await query(this.#t.deleteLease, [locked.lease_id]);
      }
      const turn = toTurn(locked);
      const items = (await query(this.#t.turnItems, [threadId, 0, turnId])).rows.map((row) => toItem(row as unknown as ItemRow));
      const ending = end(turn, items);
      if (ending.claimed !== undefined) await query(this.#t.resolveClaimedConfirmations, [turnId, jsonText(ending.claimed, 'a resolution'), this.#clock()]);
      await this.#append(query, turnId, ending.items, ending.patch);
      return toTurn((await query(this.#t.getTurn, [turnId])).rows[0] as unknown as TurnRow);
    });
  }

  async enqueueMessage(input: EnqueueInput): Promise<EnqueueResult> {
    this.#open();
    const actorText = jsonText(input.actor, 'a queued message');
    const id = input.id ?? this.#ids();
    // The thread's row lock orders enqueues (and appends) to one thread, so the count and the position hold.
    return this.#sql.transaction(async (query): Promise<EnqueueResult> => {
      const thread = (await query(this.#t.lockThreadOwner, [input.threadId])).rows[0];
      if (thread === undefined || thread.owner !== input.owner) throw notFound('thread', input.threadId);
      const same = (await query(this.#t.queuedByRequestKey, [input.owner, input.requestKey])).rows[0] as unknown as QueuedRow | undefined;
      if (same !== undefined) return { outcome: 'existing', message: toQueued(same), position: Number((await query(this.#t.queuePosition, [same.id])).rows[0]?.position) };
      const size = Number((await query(this.#t.queueSize, [input.threadId])).rows[0]?.size ?? 0);
      if (size >= input.limit) return { outcome: 'full', size };
      const now = this.#clock();
      let rows;
      try {
        ({ rows } = await query(this.#t.insertQueued, [id, input.threadId, input.owner, input.requestKey, input.text, input.language ?? null, now, actorText]));
      } catch (error) {
        if (sqlState(error) === uniqueViolation) throw new PlumbError('store_invalid_record', `A queued message with id '${id}' (or request key '${input.requestKey}') already exists.`, { cause: error });
        throw error;
      }
      return { outcome: 'queued', message: toQueued(rows[0] as unknown as QueuedRow), position: size + 1 };
    });
  }

  async getQueued(id: string): Promise<QueuedMessage | undefined> {
    const { rows } = await this.#query(this.#t.getQueued, [id]);
    return rows[0] === undefined ? undefined : toQueued(rows[0] as unknown as QueuedRow);
  }

  async listQueued(threadId: string): Promise<readonly QueuedMessage[]> {
    const { rows } = await this.#query(this.#t.threadQueue, [threadId]);
    return rows.map((row) => toQueued(row as unknown as QueuedRow));
  }

  async editQueued(id: string, text: string, expectedText?: string): Promise<QueuedMessage | undefined> {
    const { rows } = await this.#query(this.#t.editQueued, [id, text, this.#clock(), expectedText ?? null]);
    return rows[0] === undefined ? undefined : toQueued(rows[0] as unknown as QueuedRow);
  }

  async steerQueued(id: string): Promise<QueuedMessage | undefined> {
    const { rows } = await this.#query(this.#t.steerQueued, [id, this.#clock()]);
    return rows[0] === undefined ? undefined : toQueued(rows[0] as unknown as QueuedRow);
  }

  async removeQueued(id: string): Promise<boolean> {
    return (await this.#query(this.#t.deleteQueued, [id])).rowCount > 0;
  }

  async takeQueued(id: string, turnId: string): Promise<ItemRecord | undefined> {
    this.#open();
    return this.#sql.transaction(async (query) => {
      const row = (await query(this.#t.deleteQueued, [id])).rows[0] as unknown as QueuedRow | undefined;
      if (row === undefined) return undefined;
      const [record] = await this.#append(query, turnId, [{ kind: 'user_text', data: { text: row.text, queueId: id, steered: true } }], undefined);
      return record;
    });
  }

  async beginQueuedTurn(id: string, options: { readonly lease?: string } = {}): Promise<{ readonly message: QueuedMessage; readonly begun: BeginTurnResult } | undefined> {
    this.#open();
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await this.#sql.transaction(async (query) => {
        // Locked, so that an edit or a removal waits for the turn's acceptance and then finds it gone.
        const row = (await query(this.#t.lockQueued, [id])).rows[0] as unknown as QueuedRow | undefined;
        if (row === undefined) return null;
        const message = toQueued(row);
        const begun = await this.#beginInThread(query, { threadId: message.threadId, owner: message.owner, requestKey: message.requestKey, input: message.text, ...(options.lease === undefined ? {} : { lease: options.lease }) }, message.threadId);
        if (begun === undefined) return undefined;
        if (begun.outcome !== 'busy') await query(this.#t.deleteQueued, [id]);
        return { message, begun };
      });
      if (outcome === null) return undefined;
      if (outcome !== undefined) return outcome;
    }
    throw new PlumbError('store_invalid_record', `Could not begin the queued message '${id}': its thread kept changing under it.`);
  }

  async queuedThreads(): Promise<readonly string[]> {
    const { rows } = await this.#query(this.#t.queuedThreads);
    return rows.map((row) => String(row.thread_id));
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= this.#sql.close();
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function checkPrefix(prefix: string): void {
  // Lower case only: PostgreSQL folds unquoted names, and the statements do not quote them.
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new PlumbError('store_invalid_record', `Table prefix '${prefix}' must be lower-case letters, digits and underscores.`);
}

/** An owner's turn, aimed at the thread found for it. */
function inThread(input: BeginTurnInput, threadId: string, owner: string): BeginTurnInput {
  return { threadId, owner, requestKey: input.requestKey, input: input.input, ...(input.turnId === undefined ? {} : { turnId: input.turnId }), ...(input.lease === undefined ? {} : { lease: input.lease }) };
}

function newTurn(id: string, thread: ThreadRecord, input: BeginTurnInput, now: number): TurnRecord {
  return Object.freeze({
    id,
    threadId: thread.id,
    owner: thread.owner,
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
}

function userItem(id: string, threadId: string, turnId: string, ordinal: number, text: string, now: number): ItemRecord {
  return Object.freeze({ id, threadId, turnId, ordinal, kind: 'user_text', data: { text }, createdAt: now });
}

/** A turn patch as the nine values the patch statements take after the turn id. */
function patchValues(patch: TurnPatch): unknown[] {
  return [
    patch.status ?? null,
    patch.failureCode !== undefined,
    patch.failureCode ?? null,
    patch.failureMessage !== undefined,
    patch.failureMessage ?? null,
    patch.addUsage?.inputTokens ?? 0,
    patch.addUsage?.outputTokens ?? 0,
    patch.lease !== undefined,
    patch.lease ?? null,
  ];
}

/** The store's statements over its tables; `$1` is the turn id wherever a patch applies. */
function statements(prefix: string) {
  const threads = `${prefix}threads`;
  const turns = `${prefix}turns`;
  const items = `${prefix}items`;
  const confirmations = `${prefix}confirmations`;
  const leases = `${prefix}leases`;
  const queue = `${prefix}queue`;
  /** The SET list of a turn patch whose nine values start at `$n`, with the statement's clock at `$now`. */
  const patch = (n: number, now: number): string => `status = coalesce($${n}::text, status),
      ended_at = case when $${n}::text is null then ended_at when $${n}::text in (${activeList}) then null when ended_at is null then $${now}::bigint else ended_at end,
      failure_code = case when $${n + 1}::boolean then $${n + 2}::text else failure_code end,
      failure_message = case when $${n + 3}::boolean then $${n + 4}::text else failure_message end,
      input_tokens = input_tokens + $${n + 5}::bigint, output_tokens = output_tokens + $${n + 6}::bigint,
      lease_id = case when $${n + 7}::boolean then $${n + 8}::text else lease_id end,
      updated_at = $${now}::bigint`;
  // $1 turn, $2 item count, $3 now, $4–$6 ids, kinds, data. The thread's row lock orders appends.
  const appendWith = (patchCte: string): string => `with t as (select thread_id from ${turns} where id = $1),
    o as (update ${threads} set next_ordinal = next_ordinal + $2::bigint from t where ${threads}.id = t.thread_id
      returning ${threads}.id as thread_id, ${threads}.next_ordinal - $2::bigint as first),
    ins as (insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at)
      select o.thread_id, o.first + x.n, x.id, $1, x.kind, x.data, $3::bigint
      from o, unnest($4::text[], $5::text[], $6::text[]) with ordinality as x(id, kind, data, n))${patchCte}
    select thread_id, first from o`;
  const deleteThreads = (ids: string): string => `ids as (${ids}),
    c as (delete from ${confirmations} where turn_id in (select turn_id from ${items} where thread_id in (select id from ids))),
    q as (delete from ${queue} where thread_id in (select id from ids)),
    tu as (delete from ${turns} where id in (select turn_id from ${items} where thread_id in (select id from ids))),
    i as (delete from ${items} where thread_id in (select id from ids))
    delete from ${threads} where id in (select id from ids) returning id, updated_at`;
  return {
    insertThread: `insert into ${threads} (id, owner, title, created_at, updated_at) values ($1, $2, $3, $4, $4) returning *`,
    getThread: `select * from ${threads} where id = $1`,
    ownedThreads: `select * from ${threads} where owner = $1 order by updated_at desc, created_at desc, id desc limit $2`,
    updateThread: `update ${threads} set
      title = case when $2 then $3 else title end,
      summary = case when $4 then $5 else summary end,
      summary_through_item_id = case when $6 then $7 else summary_through_item_id end,
      router_session = case when $8 then $9 else router_session end,
      updated_at = $10 where id = $1 returning *`,
    lockThread: `select 1 from ${threads} where id = $1 for update`,
    lockOwner: `select pg_advisory_xact_lock(hashtextextended('plumb.journal.owner:' || $1, 0))`,
    deleteThread: `with ${deleteThreads('select unnest($1::text[]) as id')}`,
    // Skips threads another transaction holds (a turn beginning there touches the row, and the
    // recheck of `updated_at` after the lock drops a thread that just became recent).
    deleteStaleThreads: `with ${deleteThreads(`select id from ${threads} as th where updated_at < $1
        and not exists (select 1 from ${turns} where thread_id = th.id and ended_at is null)
        order by updated_at, id limit $2 for update skip locked`)}`,
    // $1 thread, $2 owner or null, $3 turn, $4 request key, $5 input, $6 lease, $7 now, $8 item id, $9 item data.
    beginInThread: `with th as (select id, owner from ${threads} where id = $1 and ($2::text is null or owner = $2)),
      ins as (insert into ${turns} (id, thread_id, owner, request_key, input, status, input_tokens, output_tokens, lease_id, created_at, updated_at)
        select $3, th.id, th.owner, $4, $5, 'accepted', 0, 0, $6, $7, $7 from th on conflict do nothing returning thread_id),
      upd as (update ${threads} set updated_at = $7, next_ordinal = next_ordinal + 1 from ins where ${threads}.id = ins.thread_id returning ${threads}.*),
      item as (insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at) select upd.id, upd.next_ordinal, $8, $3, 'user_text', $9, $7 from upd)
      select * from upd`,
    // $1 owner, $2 turn, $3 request key, $4 input, $5 lease, $6 now, $7 item id, $8 item data.
    beginForOwner: `with th as (select id, owner from ${threads} where owner = $1 order by updated_at desc, created_at desc, id desc limit 1),
      ins as (insert into ${turns} (id, thread_id, owner, request_key, input, status, input_tokens, output_tokens, lease_id, created_at, updated_at)
        select $2, th.id, th.owner, $3, $4, 'accepted', 0, 0, $5, $6, $6 from th on conflict do nothing returning thread_id),
      upd as (update ${threads} set updated_at = $6, next_ordinal = next_ordinal + 1 from ins where ${threads}.id = ins.thread_id returning ${threads}.*),
      item as (insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at) select upd.id, upd.next_ordinal, $7, $2, 'user_text', $8, $6 from upd)
      select * from upd`,
    // $1 thread, $2 owner, $3 title, $4 now, $5 turn, $6 request key, $7 input, $8 lease, $9 item id, $10 item data.
    beginInNewThread: `with th as (insert into ${threads} (id, owner, title, next_ordinal, created_at, updated_at) values ($1, $2, $3, 1, $4, $4) returning id),
      ins as (insert into ${turns} (id, thread_id, owner, request_key, input, status, input_tokens, output_tokens, lease_id, created_at, updated_at)
        select $5, th.id, $2, $6, $7, 'accepted', 0, 0, $8, $4, $4 from th)
      insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at) select th.id, 1, $9, $5, 'user_text', $10, $4 from th`,
    blockingTurns: `select * from ${turns} where (owner = $1 and request_key = $2) or (thread_id = $3 and ended_at is null) or id = $4`,
    getTurn: `select * from ${turns} where id = $1`,
    lockTurn: `select * from ${turns} where id = $1 for update`,
    lockTurnThread: `select 1 from ${threads} where id = (select thread_id from ${turns} where id = $1) for update`,
    threadTurns: `select * from ${turns} where id in (select turn_id from ${items} where thread_id = $1) order by created_at, id`,
    turnsWithActiveStatus: `select * from ${turns} where status = $1 and ended_at is null order by created_at, id`,
    turnsWithStatus: `select * from ${turns} where status = $1 order by created_at, id`,
    updateTurn: `update ${turns} set ${patch(2, 11)} where id = $1 and ($12::text[] is null or status = any($12::text[])) returning *`,
    append: appendWith(''),
    appendAndPatch: appendWith(`,
    p as (update ${turns} set ${patch(7, 3)} where id = $1 and exists (select 1 from o))`),
    threadItems: `select * from ${items} where thread_id = $1 and ordinal > $2 order by ordinal`,
    turnItems: `select * from ${items} where thread_id = $1 and ordinal > $2 and turn_id = $3 order by ordinal`,
    insertConfirmation: `insert into ${confirmations} (id, thread_id, turn_id, owner, actor, call_id, tool, arguments, digest, status, created_at, expires_at)
      select $1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11 where exists (select 1 from ${turns} where id = $3) returning *`,
    getConfirmation: `select * from ${confirmations} where id = $1`,
    pendingConfirmations: `select * from ${confirmations} where turn_id = $1 and status = 'pending' order by created_at, id`,
    // $1 id, $2 owner, $3 now, $4 the expired resolution: claimed, or resolved as expired when it lapsed.
    claimConfirmation: `update ${confirmations} set
      status = case when expires_at <= $3 then 'resolved' else 'claimed' end,
      resolution = case when expires_at <= $3 then $4 else resolution end,
      resolved_at = case when expires_at <= $3 then $3::bigint else resolved_at end
      where id = $1 and owner = $2 and status = 'pending' returning *`,
    resolveConfirmation: `update ${confirmations} set status = 'resolved', resolution = $2, resolved_at = $3 where id = $1 and status <> 'resolved'`,
    resolveClaimedConfirmations: `update ${confirmations} set status = 'resolved', resolution = $2, resolved_at = $3 where turn_id = $1 and status = 'claimed' returning *`,
    expireConfirmations: `update ${confirmations} set status = 'resolved', resolution = $2, resolved_at = $1 where status = 'pending' and expires_at <= $1 returning *`,
    deleteResolvedConfirmations: `delete from ${confirmations} where id in (select id from ${confirmations} where status = 'resolved' and resolved_at < $1 order by resolved_at, id limit $2)`,
    insertLease: `insert into ${leases} (id, holder, acquired_at, heartbeat_at, expires_at) values ($1, $2, $3, $3, $4) returning *`,
    getLease: `select * from ${leases} where id = $1`,
    lockLease: `select * from ${leases} where id = $1 for update`,
    renewLease: `update ${leases} set heartbeat_at = $2, expires_at = $3 where id = $1 and expires_at > $2 returning *`,
    deleteLease: `delete from ${leases} where id = $1`,
    lockThreadOwner: `select owner from ${threads} where id = $1 for update`,
    insertQueued: `insert into ${queue} (id, thread_id, owner, actor, request_key, text, language, steer, seq, created_at, updated_at)
      select $1, $2, $3, $8, $4, $5, $6, false, coalesce(max(seq), 0) + 1, $7, $7 from ${queue} where thread_id = $2 returning *`,
    getQueued: `select * from ${queue} where id = $1`,
    lockQueued: `select * from ${queue} where id = $1 for update`,
    queuedByRequestKey: `select * from ${queue} where owner = $1 and request_key = $2`,
    queueSize: `select count(*) as size from ${queue} where thread_id = $1`,
    queuePosition: `select count(*) as position from ${queue} as q, ${queue} as me where me.id = $1 and q.thread_id = me.thread_id and (q.seq < me.seq or (q.seq = me.seq and q.id <= me.id))`,
    threadQueue: `select * from ${queue} where thread_id = $1 order by seq, id`,
    editQueued: `update ${queue} set text = $2, updated_at = $3 where id = $1 and ($4::text is null or text = $4) returning *`,
    steerQueued: `update ${queue} as me set steer = true, updated_at = $2,
      seq = case when me.seq = h.first then me.seq else h.first - 1 end
      from (select min(seq) as first from ${queue} where thread_id = (select thread_id from ${queue} where id = $1)) as h
      where me.id = $1 returning me.*`,
    deleteQueued: `delete from ${queue} where id = $1 returning *`,
    queuedThreads: `select distinct thread_id from ${queue} order by thread_id`,
    orphanedTurns: `select t.* from ${turns} as t left join ${leases} as l on l.id = t.lease_id
      where t.ended_at is null and t.status in ('accepted', 'running') and (l.id is null or l.expires_at <= $1)
      order by t.created_at, t.id`,
  };
}
