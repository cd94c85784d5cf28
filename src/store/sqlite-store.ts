import type Database from 'better-sqlite3';
import { PlumbError, sqliteDriver } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { checkFence, checkItem, checkLeaseTtl, checkStatus, closedError, jsonText, notFound, retentionLimit } from './records.js';
import { definedOnly, toConfirmation, toItem, toLease, toQueued, toThread, toTurn } from './rows.js';
import type { ConfirmationRow, ItemRow, LeaseRow, QueuedRow, ThreadRow, TurnRow } from './rows.js';
import { GroupCommit } from './group-commit.js';
import { orderedIds } from './ordered-ids.js';
import { activeCondition } from './sqlite-schema.js';
import { migrateJournal } from './sqlite-migrations.js';
import { SqlitePages } from './sqlite-pages.js';
import { activeTurnStatuses } from './types.js';
import type {
  BeginTurnInput,
  BeginTurnResult,
  ClaimResult,
  ConfirmationRecord,
  EnqueueInput,
  EnqueueResult,
  QueuedMessage,
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

/**
 * How far a commit goes before the store returns (docs/store.md, "Durability"):
 * - `normal` (the default): WAL with `synchronous = NORMAL`. A commit is in the WAL file, in the
 *   operating system's cache, when the call returns; the WAL is flushed to the disk at each
 *   checkpoint. A crash of the process (SIGKILL, an exception, OOM) loses nothing committed; a
 *   power loss or kernel panic may lose the last commits since the last flush, never the file's
 *   consistency.
 * - `full`: WAL with `synchronous = FULL`: every commit waits for the disk (fsync), so a
 *   committed step survives a power loss too, at the price of one fsync per commit.
 */
export type SqliteDurability = 'normal' | 'full';

export interface SqliteStoreOptions extends StoreOptions {
  /** A database file of the store's own (opened in WAL mode). */
  readonly path?: string;
  /** Or a handle the application already owns; the store never closes it. */
  readonly database?: Database.Database;
  /** Prefix of every table, so that the store can live in the app's database. Default `plumb_`. */
  readonly tablePrefix?: string;
  /**
   * Default `normal` on the store's own file. On a shared `database` handle the application's
   * own setting stays unless this is given (it sets `synchronous` on that connection).
   */
  readonly durability?: SqliteDurability;
  /**
   * On the store's own file, default true: while writes from several turns arrive together, those
   * made in the same turn of the event loop share one commit (docs/store.md, "Group commit").
   * Always off on a shared `database` handle, whose transactions are the application's.
   */
  readonly groupCommit?: boolean;
}

/** What an append needs to know about its turn, read in one statement. */
interface AppendTarget {
  thread_id: string;
  status: string;
  lease_id: string | null;
  last: number | null;
}

/**
 * The durable store on SQLite (`better-sqlite3`). Each write is one `BEGIN IMMEDIATE`
 * transaction (it takes the write lock before reading, so that two processes sharing the file
 * never deadlock on an upgrade); better-sqlite3 is synchronous, so a method's work is never
 * interleaved with another's in this process, and conditional UPDATEs keep claims atomic across
 * processes sharing the file.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  readonly #db: Database.Database;
  readonly #owned: boolean;
  readonly #ids: () => string;
  readonly #clock: () => number;
  readonly #sql: ReturnType<typeof prepare>;
  /** The hot write paths as transaction functions, built once (better-sqlite3 builds four wrappers per `transaction()` call). */
  readonly #tx: {
    readonly beginTurn: (input: BeginTurnInput) => BeginTurnResult;
    readonly appendItems: (turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined, fence: WriteFence | undefined) => ItemRecord[];
  };
  #closed = false;
  readonly #group: GroupCommit | undefined;
  readonly #pages: SqlitePages;

  /** Use `openSqliteStore`, which checks the options and migrates the tables first. */
  constructor(db: Database.Database, owned: boolean, prefix: string, options: SqliteStoreOptions) {
    this.#db = db;
    this.#owned = owned;
    this.#clock = options.clock ?? Date.now;
    this.#ids = options.ids ?? orderedIds(this.#clock);
    this.#sql = prepare(this.#db, prefix);
    this.#pages = new SqlitePages(this.#db, prefix, this.#ids, this.#clock);
    this.#group = this.#owned && options.groupCommit !== false ? new GroupCommit(this.#db) : undefined;
    const beginTurn = this.#db.transaction((input: BeginTurnInput) => this.#beginTurn(input));
    const appendItems = this.#db.transaction((turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined, fence: WriteFence | undefined) => this.#appendItems(turnId, items, turnPatch, fence));
    this.#tx = {
      beginTurn: (input) => beginTurn.immediate(input),
      appendItems: (turnId, items, turnPatch, fence) => appendItems.immediate(turnId, items, turnPatch, fence),
    };
  }

  #open(): void {
    if (this.#closed) throw closedError();
  }

  /** Every write goes through here: alone, or in the open group commit, settling once committed. */
  #write<T>(work: () => T): Promise<T> {
    this.#open();
    return this.#group === undefined ? Promise.resolve(work()) : this.#group.run(work);
  }

  async createThread(input: { readonly owner: string; readonly title?: string | null }): Promise<ThreadRecord> {
    return this.#write(() => {
      const now = this.#clock();
      const id = this.#ids();
      this.#sql.insertThread.run(id, input.owner, input.title ?? null, now, now);
      return this.#threadOrThrow(id);
    });
  }

  #threadOrThrow(id: string): ThreadRecord {
    const row = this.#sql.getThread.get(id) as ThreadRow | undefined;
    if (row === undefined) throw notFound('thread', id);
    return toThread(row);
  }

  async getThread(id: string): Promise<ThreadRecord | undefined> {
    this.#open();
    const row = this.#sql.getThread.get(id) as ThreadRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toThread(row));
  }

  async latestThread(owner: string): Promise<ThreadRecord | undefined> {
    this.#open();
    const row = this.#sql.ownedThreads.get(owner, 1) as ThreadRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toThread(row));
  }

  async listThreads(owner: string, options: { readonly limit?: number } = {}): Promise<readonly ThreadRecord[]> {
    this.#open();
    const rows = this.#sql.ownedThreads.all(owner, options.limit ?? -1) as ThreadRow[];
    return Promise.resolve(rows.map(toThread));
  }

  async updateThread(id: string, patch: ThreadPatch): Promise<ThreadRecord> {
    return this.#write(() => {
      const current = this.#threadOrThrow(id);
      const next = { ...current, ...definedOnly(patch) };
      this.#sql.updateThread.run(next.title, next.summary, next.summaryThroughItemId, next.routerSession, this.#clock(), id);
      return this.#threadOrThrow(id);
    });
  }

  async deleteThread(id: string): Promise<boolean> {
    return this.#write(() => this.#db.transaction(() => this.#deleteThreadRows(id)).immediate());
  }

  async pageThreads(owner: string, options: ThreadPageOptions): Promise<ThreadPage> {
    this.#open();
    return Promise.resolve(this.#pages.threads(owner, options));
  }

  async setThreadTitle(id: string, title: string | null, source: TitleSource | null, options: { readonly onlyIf?: readonly (TitleSource | null)[] } = {}): Promise<ThreadRecord | undefined> {
    return this.#write(() => this.#pages.setTitle(id, title, source, options.onlyIf));
  }

  async forkThread(input: ForkThreadInput): Promise<ThreadRecord> {
    return this.#write(() => this.#pages.fork(input));
  }

  async pageItems(threadId: string, options: ItemPageOptions): Promise<ItemPage> {
    this.#open();
    return Promise.resolve(this.#pages.items(threadId, options));
  }

  async lastOrdinal(threadId: string): Promise<number> {
    this.#open();
    return Promise.resolve(this.#pages.lastOrdinal(threadId));
  }

  /** Inside a transaction: the thread and everything under it. */
  #deleteThreadRows(id: string): boolean {
    this.#sql.deleteConfirmations.run(id);
    this.#sql.deleteThreadQueue.run(id);
    this.#sql.deleteTurns.run(id);
    this.#sql.deleteItems.run(id);
    return this.#sql.deleteThread.run(id).changes > 0;
  }

  async deleteThreadsUpdatedBefore(cutoff: number, options?: RetentionOptions): Promise<readonly string[]> {
    const limit = retentionLimit(options);
    return this.#write(() =>
      this.#db
        .transaction(() => {
          const ids = this.#sql.staleThreads.all(cutoff, limit) as string[];
          for (const id of ids) this.#deleteThreadRows(id);
          return ids;
        })
        .immediate(),
    );
  }

  async deleteConfirmationsResolvedBefore(cutoff: number, options?: RetentionOptions): Promise<number> {
    const limit = retentionLimit(options);
    return this.#write(() => this.#sql.deleteResolvedConfirmations.run(cutoff, limit).changes);
  }

  async beginTurn(input: BeginTurnInput): Promise<BeginTurnResult> {
    return this.#write(() => this.#tx.beginTurn(input));
  }

  #beginTurn(input: BeginTurnInput): BeginTurnResult {
    let row: ThreadRow | undefined;
    if (input.threadId !== undefined) {
      row = this.#sql.getThread.get(input.threadId) as ThreadRow | undefined;
      if (row === undefined || (input.owner !== undefined && row.owner !== input.owner)) throw notFound('thread', input.threadId);
    } else if (input.newThread === true) {
      const replayed = this.#sql.turnByRequestKey.get(input.owner, input.requestKey) as TurnRow | undefined;
      const its = replayed === undefined ? undefined : (this.#sql.getThread.get(replayed.thread_id) as ThreadRow | undefined);
      if (replayed !== undefined && its !== undefined) return { outcome: 'existing', thread: toThread(its), turn: toTurn(replayed) };
    } else row = this.#sql.ownedThreads.get(input.owner, 1) as ThreadRow | undefined;
    const now = this.#clock();
    let thread: ThreadRecord;
    let ordinal = 1;
    if (row !== undefined) {
      thread = toThread(row);
      const existing = this.#sql.turnByRequestKey.get(row.owner, input.requestKey) as TurnRow | undefined;
      if (existing !== undefined) return { outcome: 'existing', thread, turn: toTurn(existing) };
      const active = this.#sql.activeTurn.get(row.id) as TurnRow | undefined;
      if (active !== undefined) return { outcome: 'busy', thread, turn: toTurn(active) };
      this.#sql.touchThread.run(now, row.id);
      thread = Object.freeze({ ...thread, updatedAt: now });
      ordinal = ((this.#sql.lastOrdinal.get(row.id) as number | null) ?? 0) + 1;
    } else {
      // A first message (an owner without threads has no turns either), or one that asks for a thread of its own.
      const id = this.#ids();
      const owner = input.owner!;
      const title = input.newThreadTitle ?? null;
      this.#sql.insertThread.run(id, owner, title, now, now);
      thread = Object.freeze({ id, owner, title, summary: null, summaryThroughItemId: null, routerSession: null, titleSource: null, forkedFrom: null, createdAt: now, updatedAt: now });
    }
    const turnId = input.turnId ?? this.#ids();
    try {
      this.#sql.insertTurn.run(turnId, thread.id, thread.owner, input.requestKey, input.input, 'accepted', input.lease ?? null, now, now);
    } catch (cause) {
      throw new PlumbError('store_invalid_record', `A turn with id '${turnId}' already exists.`, { cause });
    }
    const userItem: NewItem = { kind: 'user_text', data: { text: input.input } };
    const [record] = this.#insertItems(thread.id, turnId, [userItem], [checkItem(userItem)], ordinal, now);
    const turn: TurnRecord = Object.freeze({
      id: turnId,
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
    return { outcome: 'created', thread, turn, userItem: record! };
  }

  #turnOrThrow(id: string): TurnRecord {
    const row = this.#sql.getTurn.get(id) as TurnRow | undefined;
    if (row === undefined) throw notFound('turn', id);
    return toTurn(row);
  }

  async getTurn(id: string): Promise<TurnRecord | undefined> {
    this.#open();
    const row = this.#sql.getTurn.get(id) as TurnRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toTurn(row));
  }

  async listTurns(threadId: string): Promise<readonly TurnRecord[]> {
    this.#open();
    return Promise.resolve((this.#sql.threadTurns.all(threadId) as TurnRow[]).map(toTurn));
  }

  async turnsWithStatus(status: TurnStatus): Promise<readonly TurnRecord[]> {
    this.#open();
    // Active statuses are read from the small partial index; ended ones need a scan (rare: tools and audits).
    const statement = activeTurnStatuses.includes(status) ? this.#sql.turnsWithActiveStatus : this.#sql.turnsWithStatus;
    return Promise.resolve((statement.all(status) as TurnRow[]).map(toTurn));
  }

  async updateTurn(id: string, patch: TurnPatch, from?: readonly TurnStatus[]): Promise<TurnRecord | undefined> {
    return this.#write(() =>
      this.#db
        .transaction(() => {
          const turn = this.#turnOrThrow(id);
          if (from !== undefined && !from.includes(turn.status)) return undefined;
          this.#patchTurn(id, turn.status, patch, this.#clock());
          return this.#turnOrThrow(id);
        })
        .immediate(),
    );
  }

  /**
   * A turn patch as one UPDATE: usage is added in SQL, absent fields stay as they are. Only a
   * change that ends a turn (or, on a retry, makes an ended one active again) writes `ended_at`
   * and so the `turns_active` index; other status changes and usage touch the row alone.
   */
  #patchTurn(turnId: string, currentStatus: string, patch: TurnPatch, now: number): void {
    if (patch.status !== undefined) checkStatus(patch.status);
    const rest = [
      patch.failureCode === undefined ? 0 : 1,
      patch.failureCode ?? null,
      patch.failureMessage === undefined ? 0 : 1,
      patch.failureMessage ?? null,
      patch.lease === undefined ? 0 : 1,
      patch.lease ?? null,
      patch.addUsage?.inputTokens ?? 0,
      patch.addUsage?.outputTokens ?? 0,
      now,
      turnId,
    ];
    const status = patch.status;
    if (status === undefined || status === currentStatus) this.#sql.patchTurn.run(...rest);
    else if (activeTurnStatuses.includes(status) === activeTurnStatuses.includes(currentStatus as TurnStatus)) this.#sql.patchTurnStatus.run(status, ...rest);
    else this.#sql.patchTurnEnded.run(status, activeTurnStatuses.includes(status) ? null : now, ...rest);
  }

  async appendItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch, fence?: WriteFence): Promise<readonly ItemRecord[]> {
    return this.#write(() => this.#tx.appendItems(turnId, items, turnPatch, fence));
  }

  async stageItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch, fence?: WriteFence): Promise<StagedItems> {
    this.#open();
    if (this.#group === undefined) return { records: await this.appendItems(turnId, items, turnPatch, fence), committed: Promise.resolve() };
    const staged = this.#group.stage(() => this.#tx.appendItems(turnId, items, turnPatch, fence));
    return { records: staged.result, committed: staged.committed };
  }

  #appendItems(turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined, fence?: WriteFence): ItemRecord[] {
    // One statement finds the turn's thread, its status and lease, and the thread's last ordinal.
    const target = this.#sql.appendTarget.get(turnId) as AppendTarget | undefined;
    if (target === undefined) throw notFound('turn', turnId);
    checkFence(turnId, fence?.lease, target.lease_id, target.status);
    const texts = items.map(checkItem);
    const now = this.#clock();
    const appended = this.#insertItems(target.thread_id, turnId, items, texts, (target.last ?? 0) + 1, now);
    if (turnPatch !== undefined) this.#patchTurn(turnId, target.status, turnPatch, now);
    return appended;
  }

  #insertItems(threadId: string, turnId: string, items: readonly NewItem[], texts: readonly string[], first: number, now: number): ItemRecord[] {
    const records: ItemRecord[] = new Array<ItemRecord>(items.length);
    let chosen: Set<string> | undefined;
    for (let index = 0; index < items.length; index++) {
      const item = items[index]!;
      const text = texts[index]!;
      let id = item.id;
      if (id === undefined) id = this.#ids();
      else {
        // A caller-chosen id must be new in the thread (generated ids are unique outright).
        if (chosen?.has(id) === true || this.#sql.itemIdTaken.get(threadId, id) !== undefined) {
          throw new PlumbError('store_invalid_record', `An item with id '${id}' already exists in thread '${threadId}'.`);
        }
        (chosen ??= new Set()).add(id);
      }
      const ordinal = first + index;
      try {
        this.#sql.insertItem.run(threadId, ordinal, id, turnId, item.kind, text, now);
      } catch (cause) {
        throw new PlumbError('store_invalid_record', `Could not append item '${id}' (${item.kind}): ${(cause as Error).message}.`, { cause });
      }
      records[index] = Object.freeze({ id, threadId, turnId, ordinal, kind: item.kind, data: JSON.parse(text) as JsonValue, createdAt: now });
    }
    return records;
  }

  async listItems(threadId: string, options: ListItemsOptions = {}): Promise<readonly ItemRecord[]> {
    this.#open();
    const after = options.afterOrdinal ?? 0;
    const rows = (
      options.turnId === undefined
        ? this.#sql.threadItems.all(threadId, after)
        : this.#sql.turnItems.all(threadId, after, options.turnId)
    ) as ItemRow[];
    return Promise.resolve(rows.map(toItem));
  }

  async createConfirmation(input: NewConfirmation): Promise<ConfirmationRecord> {
    const argumentsText = jsonText(input.arguments, `confirmation '${input.id}'`);
    const actorText = jsonText(input.actor, `confirmation '${input.id}'`);
    return this.#write(() => {
      this.#db.transaction(() => {
        this.#turnOrThrow(input.turnId);
        try {
          this.#sql.insertConfirmation.run(
            input.id,
            input.threadId,
            input.turnId,
            input.owner,
            actorText,
            input.callId,
            input.tool,
            argumentsText,
            input.digest,
            'pending',
            input.createdAt ?? this.#clock(),
            input.expiresAt,
          );
        } catch (cause) {
          throw new PlumbError('store_invalid_record', `A confirmation with id '${input.id}' already exists.`, { cause });
        }
      }).immediate();
      return this.#confirmationOrThrow(input.id);
    });
  }

  #confirmationOrThrow(id: string): ConfirmationRecord {
    const row = this.#sql.getConfirmation.get(id) as ConfirmationRow | undefined;
    if (row === undefined) throw notFound('confirmation', id);
    return toConfirmation(row);
  }

  async getConfirmation(id: string): Promise<ConfirmationRecord | undefined> {
    this.#open();
    const row = this.#sql.getConfirmation.get(id) as ConfirmationRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toConfirmation(row));
  }

  async pendingConfirmations(turnId: string): Promise<readonly ConfirmationRecord[]> {
    this.#open();
    return Promise.resolve((this.#sql.pendingConfirmations.all(turnId) as ConfirmationRow[]).map(toConfirmation));
  }

  async claimConfirmation(id: string, owner: string, now: number, expiredResolution: JsonValue = 'expired'): Promise<ClaimResult> {
    return this.#write(() =>
      this.#db
        .transaction((): ClaimResult => {
          const row = this.#sql.getConfirmation.get(id) as ConfirmationRow | undefined;
          if (row === undefined) return { outcome: 'missing' };
          if (row.owner !== owner) return { outcome: 'forbidden' };
          if (row.expires_at <= now) {
            if (this.#sql.expireConfirmation.run(jsonText(expiredResolution, 'a resolution'), now, id).changes > 0) return { outcome: 'expired', confirmation: this.#confirmationOrThrow(id) };
            return { outcome: 'unavailable', confirmation: toConfirmation(row) };
          }
          // The conditional UPDATE is the claim: only one caller ever changes a pending row.
          if (this.#sql.claimConfirmation.run(id).changes === 0) return { outcome: 'unavailable', confirmation: this.#confirmationOrThrow(id) };
          return { outcome: 'claimed', confirmation: this.#confirmationOrThrow(id) };
        })
        .immediate(),
    );
  }

  async resolveConfirmation(id: string, resolution: JsonValue, now: number): Promise<boolean> {
    const text = jsonText(resolution, 'a resolution');
    return this.#write(() => this.#sql.resolveConfirmation.run(text, now, id).changes > 0);
  }

  async resolveClaimedConfirmations(turnId: string, resolution: JsonValue, now: number): Promise<readonly ConfirmationRecord[]> {
    const text = jsonText(resolution, 'a resolution');
    return this.#write(() =>
      this.#db
        .transaction(() => {
          const ids = this.#sql.claimedConfirmations.all(turnId) as string[];
          for (const id of ids) this.#sql.resolveConfirmation.run(text, now, id);
          return ids.map((id) => this.#confirmationOrThrow(id));
        })
        .immediate(),
    );
  }

  async expireConfirmations(now: number, resolution: JsonValue): Promise<readonly ConfirmationRecord[]> {
    const text = jsonText(resolution, 'a resolution');
    return this.#write(() =>
      this.#db
        .transaction(() => {
          const ids = this.#sql.lapsedConfirmations.all(now) as string[];
          const out: ConfirmationRecord[] = [];
          for (const id of ids) if (this.#sql.expireConfirmation.run(text, now, id).changes > 0) out.push(this.#confirmationOrThrow(id));
          return out;
        })
        .immediate(),
    );
  }

  async acquireLease(input: { readonly id: string; readonly holder: string; readonly ttlMs: number }): Promise<LeaseRecord> {
    checkLeaseTtl(input.ttlMs);
    return this.#write(() => {
      const now = this.#clock();
      try {
        this.#sql.insertLease.run(input.id, input.holder, now, now, now + input.ttlMs);
      } catch (cause) {
        throw new PlumbError('store_invalid_record', `A lease with id '${input.id}' already exists.`, { cause });
      }
      return Object.freeze({ id: input.id, holder: input.holder, acquiredAt: now, heartbeatAt: now, expiresAt: now + input.ttlMs });
    });
  }

  async renewLease(id: string, ttlMs: number): Promise<LeaseRecord | undefined> {
    checkLeaseTtl(ttlMs);
    return this.#write(() => {
      const now = this.#clock();
      const row = this.#sql.renewLease.get(now, now + ttlMs, id, now) as LeaseRow | undefined;
      return row === undefined ? undefined : toLease(row);
    });
  }

  async releaseLease(id: string): Promise<boolean> {
    return this.#write(() => this.#sql.deleteLease.run(id).changes > 0);
  }

  async getLease(id: string): Promise<LeaseRecord | undefined> {
    this.#open();
    const row = this.#sql.getLease.get(id) as LeaseRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toLease(row));
  }

  async orphanedTurns(): Promise<readonly TurnRecord[]> {
    this.#open();
    return Promise.resolve((this.#sql.orphanedTurns.all(this.#clock()) as TurnRow[]).map(toTurn));
  }

  async endOrphanedTurn(turnId: string, end: (turn: TurnRecord, turnItems: readonly ItemRecord[]) => OrphanEnding): Promise<TurnRecord | undefined> {
    return this.#write(() =>
      this.#db
        .transaction((): TurnRecord | undefined => {
          const row = this.#sql.getTurn.get(turnId) as TurnRow | undefined;
          if (row === undefined || (row.status !== 'accepted' && row.status !== 'running')) return undefined;
          if (row.lease_id !== null) {
            const lease = this.#sql.getLease.get(row.lease_id) as LeaseRow | undefined;
            if (lease !== undefined && Number(lease.expires_at) > this.#clock()) return undefined;
            // Removed with the ending, so that a holder whose clock runs late can never renew it.
            this.#sql.deleteLease.run(row.lease_id);
          }
          const turn = toTurn(row);
          const items = (this.#sql.turnItems.all(turn.threadId, 0, turnId) as ItemRow[]).map(toItem);
          const ending = end(turn, items);
          if (ending.claimed !== undefined) {
            const text = jsonText(ending.claimed, 'a resolution');
            for (const id of this.#sql.claimedConfirmations.all(turnId) as string[]) this.#sql.resolveConfirmation.run(text, this.#clock(), id);
          }
          this.#appendItems(turnId, ending.items, ending.patch);
          return this.#turnOrThrow(turnId);
        })
        .immediate(),
    );
  }

  async enqueueMessage(input: EnqueueInput): Promise<EnqueueResult> {
    const actorText = jsonText(input.actor, 'a queued message');
    return this.#write(() =>
      this.#db
        .transaction((): EnqueueResult => {
          const thread = this.#sql.getThread.get(input.threadId) as ThreadRow | undefined;
          if (thread === undefined || thread.owner !== input.owner) throw notFound('thread', input.threadId);
          const same = this.#sql.queuedByRequestKey.get(input.owner, input.requestKey) as QueuedRow | undefined;
          if (same !== undefined) return { outcome: 'existing', message: toQueued(same), position: this.#position(same.id) };
          const size = this.#sql.queueSize.get(input.threadId) as number;
          if (size >= input.limit) return { outcome: 'full', size };
          const now = this.#clock();
          const id = input.id ?? this.#ids();
          try {
            this.#sql.insertQueued.run(id, input.threadId, input.owner, actorText, input.requestKey, input.text, input.language ?? null, input.threadId, now, now);
          } catch (cause) {
            throw new PlumbError('store_invalid_record', `A queued message with id '${id}' already exists.`, { cause });
          }
          return { outcome: 'queued', message: this.#queuedOrThrow(id), position: size + 1 };
        })
        .immediate(),
    );
  }

  /** A queued message's place in its thread's queue, from 1. */
  #position(id: string): number {
    return this.#sql.queuePosition.get(id) as number;
  }

  #queuedOrThrow(id: string): QueuedMessage {
    const row = this.#sql.getQueued.get(id) as QueuedRow | undefined;
    if (row === undefined) throw notFound('queued message', id);
    return toQueued(row);
  }

  async getQueued(id: string): Promise<QueuedMessage | undefined> {
    this.#open();
    const row = this.#sql.getQueued.get(id) as QueuedRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toQueued(row));
  }

  async listQueued(threadId: string): Promise<readonly QueuedMessage[]> {
    this.#open();
    return Promise.resolve((this.#sql.threadQueue.all(threadId) as QueuedRow[]).map(toQueued));
  }

  async editQueued(id: string, text: string, expectedText?: string): Promise<QueuedMessage | undefined> {
    return this.#write(() => {
      const changed = this.#sql.editQueued.run(text, this.#clock(), id, expectedText === undefined ? 1 : 0, expectedText ?? null).changes > 0;
      return changed ? this.#queuedOrThrow(id) : undefined;
    });
  }

  async steerQueued(id: string): Promise<QueuedMessage | undefined> {
    return this.#write(() => (this.#sql.steerQueued.run(this.#clock(), id).changes > 0 ? this.#queuedOrThrow(id) : undefined));
  }

  async removeQueued(id: string): Promise<boolean> {
    return this.#write(() => this.#sql.deleteQueued.run(id).changes > 0);
  }

  async takeQueued(id: string, turnId: string): Promise<ItemRecord | undefined> {
    return this.#write(() =>
      this.#db
        .transaction((): ItemRecord | undefined => {
          const row = this.#sql.getQueued.get(id) as QueuedRow | undefined;
          if (row === undefined) return undefined;
          this.#sql.deleteQueued.run(id);
          return this.#appendItems(turnId, [{ kind: 'user_text', data: { text: row.text, queueId: id, steered: true } }], undefined)[0];
        })
        .immediate(),
    );
  }

  async beginQueuedTurn(id: string, options: { readonly lease?: string } = {}): Promise<{ readonly message: QueuedMessage; readonly begun: BeginTurnResult } | undefined> {
    return this.#write(() =>
      this.#db
        .transaction(() => {
          const row = this.#sql.getQueued.get(id) as QueuedRow | undefined;
          if (row === undefined) return undefined;
          const message = toQueued(row);
          const begun = this.#beginTurn({ threadId: message.threadId, owner: message.owner, requestKey: message.requestKey, input: message.text, ...(options.lease === undefined ? {} : { lease: options.lease }) });
          if (begun.outcome !== 'busy') this.#sql.deleteQueued.run(id);
          return { message, begun };
        })
        .immediate(),
    );
  }

  async queuedThreads(): Promise<readonly string[]> {
    this.#open();
    return Promise.resolve(this.#sql.queuedThreads.all() as string[]);
  }

  async close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#group?.flush();
    if (this.#owned) this.#db.close();
    return Promise.resolve();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Opens the SQLite journal: its own file (WAL mode) or a handle the application shares, with the
 * tables brought up to this build's schema by the journal's migrations.
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  if ((options.path === undefined) === (options.database === undefined)) {
    throw new PlumbError('store_invalid_record', 'openSqliteStore needs exactly one of `path` (its own file) or `database` (a shared handle).');
  }
  const durability = options.durability;
  if (durability !== undefined && durability !== 'normal' && durability !== 'full') {
    throw new PlumbError('store_invalid_record', `Unknown durability '${String(durability)}'. Durabilities: normal, full.`);
  }
  if (options.groupCommit !== undefined && typeof options.groupCommit !== 'boolean') {
    throw new PlumbError('store_invalid_record', `groupCommit must be true or false, not ${JSON.stringify(options.groupCommit)}.`);
  }
  const prefix = options.tablePrefix ?? 'plumb_';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
    throw new PlumbError('store_invalid_record', `Table prefix '${prefix}' must be letters, digits and underscores.`);
  }
  const owned = options.database === undefined;
  const db = options.database ?? new (sqliteDriver())(options.path);
  try {
    if (owned) {
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
    }
    if (owned || durability !== undefined) db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    await migrateJournal(db, prefix);
    return new SqliteStore(db, owned, prefix, options);
  } catch (error) {
    if (owned) db.close();
    throw error;
  }
}

function prepare(db: Database.Database, prefix: string) {
  const threads = `${prefix}threads`;
  const turns = `${prefix}turns`;
  const items = `${prefix}items`;
  const confirmations = `${prefix}confirmations`;
  const leases = `${prefix}leases`;
  const queue = `${prefix}queue`;
  const leasePatch = 'lease_id = CASE WHEN ? = 1 THEN ? ELSE lease_id END';
  return {
    insertThread: db.prepare(
      `INSERT INTO ${threads} (id, owner, title, summary, summary_through_item_id, router_session, created_at, updated_at) VALUES (?, ?, ?, NULL, NULL, NULL, ?, ?)`,
    ),
    getThread: db.prepare(`SELECT * FROM ${threads} WHERE id = ?`),
    ownedThreads: db.prepare(`SELECT * FROM ${threads} WHERE owner = ? ORDER BY updated_at DESC, created_at DESC, id DESC LIMIT ?`),
    updateThread: db.prepare(
      `UPDATE ${threads} SET title = ?, summary = ?, summary_through_item_id = ?, router_session = ?, updated_at = ? WHERE id = ?`,
    ),
    touchThread: db.prepare(`UPDATE ${threads} SET updated_at = ? WHERE id = ?`),
    staleThreads: db
      .prepare(
        `SELECT id FROM ${threads} AS th WHERE updated_at < ?
          AND NOT EXISTS (SELECT 1 FROM ${turns} WHERE thread_id = th.id AND ${activeCondition})
          ORDER BY updated_at, id LIMIT ?`,
      )
      .pluck(),
    deleteThread: db.prepare(`DELETE FROM ${threads} WHERE id = ?`),
    deleteItems: db.prepare(`DELETE FROM ${items} WHERE thread_id = ?`),
    // A thread's turns are the turns of its items (every turn has its user item).
    deleteTurns: db.prepare(`DELETE FROM ${turns} WHERE id IN (SELECT turn_id FROM ${items} WHERE thread_id = ?)`),
    deleteConfirmations: db.prepare(`DELETE FROM ${confirmations} WHERE turn_id IN (SELECT turn_id FROM ${items} WHERE thread_id = ?)`),
    insertTurn: db.prepare(
      `INSERT INTO ${turns} (id, thread_id, owner, request_key, input, status, failure_code, failure_message, input_tokens, output_tokens, lease_id, created_at, updated_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, 0, 0, ?, ?, ?, NULL)`,
    ),
    getTurn: db.prepare(`SELECT * FROM ${turns} WHERE id = ?`),
    appendTarget: db.prepare(`SELECT thread_id, status, lease_id, (SELECT MAX(ordinal) FROM ${items} WHERE thread_id = t.thread_id) AS last FROM ${turns} AS t WHERE id = ?`),
    lastOrdinal: db.prepare(`SELECT MAX(ordinal) FROM ${items} WHERE thread_id = ?`).pluck(),
    patchTurnEnded: db.prepare(
      `UPDATE ${turns} SET status = ?, ended_at = ?,
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END, ${leasePatch},
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    ),
    patchTurnStatus: db.prepare(
      `UPDATE ${turns} SET status = ?,
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END, ${leasePatch},
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    ),
    patchTurn: db.prepare(
      `UPDATE ${turns} SET
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END, ${leasePatch},
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    ),
    turnByRequestKey: db.prepare(`SELECT * FROM ${turns} WHERE owner = ? AND request_key = ?`),
    activeTurn: db.prepare(`SELECT * FROM ${turns} WHERE thread_id = ? AND ${activeCondition} ORDER BY created_at DESC LIMIT 1`),
    threadTurns: db.prepare(`SELECT * FROM ${turns} WHERE id IN (SELECT turn_id FROM ${items} WHERE thread_id = ?) ORDER BY created_at, id`),
    itemIdTaken: db.prepare(`SELECT 1 FROM ${items} WHERE thread_id = ? AND id = ?`).pluck(),
    turnsWithActiveStatus: db.prepare(`SELECT * FROM ${turns} WHERE status = ? AND ${activeCondition} ORDER BY created_at, id`),
    turnsWithStatus: db.prepare(`SELECT * FROM ${turns} WHERE status = ? ORDER BY created_at, id`),
    insertItem: db.prepare(`INSERT INTO ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    threadItems: db.prepare(`SELECT * FROM ${items} WHERE thread_id = ? AND ordinal > ? ORDER BY ordinal`),
    turnItems: db.prepare(`SELECT * FROM ${items} WHERE thread_id = ? AND ordinal > ? AND turn_id = ? ORDER BY ordinal`),
    insertConfirmation: db.prepare(
      `INSERT INTO ${confirmations} (id, thread_id, turn_id, owner, actor, call_id, tool, arguments, digest, status, created_at, expires_at, resolved_at, resolution) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
    ),
    getConfirmation: db.prepare(`SELECT * FROM ${confirmations} WHERE id = ?`),
    pendingConfirmations: db.prepare(`SELECT * FROM ${confirmations} WHERE turn_id = ? AND status = 'pending' ORDER BY created_at, id`),
    claimConfirmation: db.prepare(`UPDATE ${confirmations} SET status = 'claimed' WHERE id = ? AND status = 'pending'`),
    expireConfirmation: db.prepare(
      `UPDATE ${confirmations} SET status = 'resolved', resolution = ?, resolved_at = ? WHERE id = ? AND status = 'pending'`,
    ),
    claimedConfirmations: db.prepare(`SELECT id FROM ${confirmations} WHERE turn_id = ? AND status = 'claimed' ORDER BY created_at, id`).pluck(),
    lapsedConfirmations: db.prepare(`SELECT id FROM ${confirmations} WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at, id`).pluck(),
    resolveConfirmation: db.prepare(
      `UPDATE ${confirmations} SET status = 'resolved', resolution = ?, resolved_at = ? WHERE id = ? AND status <> 'resolved'`,
    ),
    insertLease: db.prepare(`INSERT INTO ${leases} (id, holder, acquired_at, heartbeat_at, expires_at) VALUES (?, ?, ?, ?, ?)`),
    getLease: db.prepare(`SELECT * FROM ${leases} WHERE id = ?`),
    renewLease: db.prepare(`UPDATE ${leases} SET heartbeat_at = ?, expires_at = ? WHERE id = ? AND expires_at > ? RETURNING *`),
    deleteLease: db.prepare(`DELETE FROM ${leases} WHERE id = ?`),
    // Active turns come from the small partial index (its condition repeated verbatim).
    orphanedTurns: db.prepare(
      `SELECT ${turns}.* FROM ${turns} LEFT JOIN ${leases} ON ${leases}.id = ${turns}.lease_id
        WHERE ${activeCondition} AND ${turns}.status IN ('accepted', 'running') AND (${leases}.id IS NULL OR ${leases}.expires_at <= ?)
        ORDER BY ${turns}.created_at, ${turns}.id`,
    ),
    insertQueued: db.prepare(
      `INSERT INTO ${queue} (id, thread_id, owner, actor, request_key, text, language, steer, seq, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, 0, (SELECT COALESCE(MAX(seq), 0) + 1 FROM ${queue} WHERE thread_id = ?), ?, ?)`,
    ),
    getQueued: db.prepare(`SELECT * FROM ${queue} WHERE id = ?`),
    queuedByRequestKey: db.prepare(`SELECT * FROM ${queue} WHERE owner = ? AND request_key = ?`),
    queueSize: db.prepare(`SELECT COUNT(*) FROM ${queue} WHERE thread_id = ?`).pluck(),
    queuePosition: db
      .prepare(`SELECT COUNT(*) FROM ${queue} AS q, ${queue} AS me WHERE me.id = ? AND q.thread_id = me.thread_id AND (q.seq < me.seq OR (q.seq = me.seq AND q.id <= me.id))`)
      .pluck(),
    threadQueue: db.prepare(`SELECT * FROM ${queue} WHERE thread_id = ? ORDER BY seq, id`),
    editQueued: db.prepare(`UPDATE ${queue} SET text = ?, updated_at = ? WHERE id = ? AND (? = 1 OR text = ?)`),
    // Sent now: to the head (one before the thread's first), marked to join the running turn.
    steerQueued: db.prepare(
      `UPDATE ${queue} SET steer = 1, updated_at = ?,
        seq = CASE WHEN seq = (SELECT MIN(seq) FROM ${queue} AS q WHERE q.thread_id = ${queue}.thread_id) THEN seq
          ELSE (SELECT MIN(seq) FROM ${queue} AS q WHERE q.thread_id = ${queue}.thread_id) - 1 END
        WHERE id = ?`,
    ),
    deleteQueued: db.prepare(`DELETE FROM ${queue} WHERE id = ?`),
    deleteThreadQueue: db.prepare(`DELETE FROM ${queue} WHERE thread_id = ?`),
    queuedThreads: db.prepare(`SELECT DISTINCT thread_id FROM ${queue} ORDER BY thread_id`).pluck(),
    deleteResolvedConfirmations: db.prepare(
      `DELETE FROM ${confirmations} WHERE id IN (SELECT id FROM ${confirmations} WHERE status = 'resolved' AND resolved_at < ? ORDER BY resolved_at, id LIMIT ?)`,
    ),
  };
}
