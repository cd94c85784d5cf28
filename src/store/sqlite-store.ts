import Database from 'better-sqlite3';
import { PlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { checkItem, checkStatus, closedError, isItemKind, jsonText, notFound, retentionLimit } from './records.js';
import { GroupCommit } from './group-commit.js';
import { orderedIds } from './ordered-ids.js';
import { activeCondition } from './sqlite-schema.js';
import { migrateJournal } from './sqlite-migrations.js';
import { activeTurnStatuses } from './types.js';
import type {
  BeginTurnInput,
  BeginTurnResult,
  ClaimResult,
  ConfirmationRecord,
  ConfirmationStatus,
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

interface ThreadRow {
  id: string;
  owner: string;
  title: string | null;
  summary: string | null;
  summary_through_item_id: string | null;
  router_session: string | null;
  created_at: number;
  updated_at: number;
}
interface TurnRow {
  id: string;
  thread_id: string;
  owner: string;
  request_key: string;
  input: string;
  status: string;
  failure_code: string | null;
  failure_message: string | null;
  input_tokens: number;
  output_tokens: number;
  created_at: number;
  updated_at: number;
}
interface ItemRow {
  thread_id: string;
  ordinal: number;
  id: string;
  turn_id: string;
  kind: string;
  data: string;
  created_at: number;
}
interface ConfirmationRow {
  id: string;
  thread_id: string;
  turn_id: string;
  owner: string;
  actor: string;
  call_id: string;
  tool: string;
  arguments: string;
  digest: string;
  status: string;
  created_at: number;
  expires_at: number;
  resolved_at: number | null;
  resolution: string | null;
}
/** What an append needs to know about its turn, read in one statement. */
interface AppendTarget {
  thread_id: string;
  status: string;
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
    readonly appendItems: (turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined) => ItemRecord[];
  };
  #closed = false;
  readonly #group: GroupCommit | undefined;

  /** Use `openSqliteStore`, which checks the options and migrates the tables first. */
  constructor(db: Database.Database, owned: boolean, prefix: string, options: SqliteStoreOptions) {
    this.#db = db;
    this.#owned = owned;
    this.#clock = options.clock ?? Date.now;
    this.#ids = options.ids ?? orderedIds(this.#clock);
    this.#sql = prepare(this.#db, prefix);
    this.#group = this.#owned && options.groupCommit !== false ? new GroupCommit(this.#db) : undefined;
    const beginTurn = this.#db.transaction((input: BeginTurnInput) => this.#beginTurn(input));
    const appendItems = this.#db.transaction((turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined) => this.#appendItems(turnId, items, turnPatch));
    this.#tx = {
      beginTurn: (input) => beginTurn.immediate(input),
      appendItems: (turnId, items, turnPatch) => appendItems.immediate(turnId, items, turnPatch),
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

  /** Inside a transaction: the thread and everything under it. */
  #deleteThreadRows(id: string): boolean {
    this.#sql.deleteConfirmations.run(id);
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
      // An owner without threads has no turns either: a first message creates its thread here.
      const id = this.#ids();
      const owner = input.owner!;
      const title = input.newThreadTitle ?? null;
      this.#sql.insertThread.run(id, owner, title, now, now);
      thread = Object.freeze({ id, owner, title, summary: null, summaryThroughItemId: null, routerSession: null, createdAt: now, updatedAt: now });
    }
    const turnId = input.turnId ?? this.#ids();
    try {
      this.#sql.insertTurn.run(turnId, thread.id, thread.owner, input.requestKey, input.input, 'accepted', now, now);
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

  async appendItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch): Promise<readonly ItemRecord[]> {
    return this.#write(() => this.#tx.appendItems(turnId, items, turnPatch));
  }

  async stageItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch): Promise<StagedItems> {
    this.#open();
    if (this.#group === undefined) return { records: await this.appendItems(turnId, items, turnPatch), committed: Promise.resolve() };
    const staged = this.#group.stage(() => this.#tx.appendItems(turnId, items, turnPatch));
    return { records: staged.result, committed: staged.committed };
  }

  #appendItems(turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined): ItemRecord[] {
    // One statement finds the turn's thread, its status and the thread's last ordinal.
    const target = this.#sql.appendTarget.get(turnId) as AppendTarget | undefined;
    if (target === undefined) throw notFound('turn', turnId);
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
  const db = options.database ?? new Database(options.path);
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
      `INSERT INTO ${turns} (id, thread_id, owner, request_key, input, status, failure_code, failure_message, input_tokens, output_tokens, created_at, updated_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, 0, 0, ?, ?, NULL)`,
    ),
    getTurn: db.prepare(`SELECT * FROM ${turns} WHERE id = ?`),
    appendTarget: db.prepare(`SELECT thread_id, status, (SELECT MAX(ordinal) FROM ${items} WHERE thread_id = t.thread_id) AS last FROM ${turns} AS t WHERE id = ?`),
    lastOrdinal: db.prepare(`SELECT MAX(ordinal) FROM ${items} WHERE thread_id = ?`).pluck(),
    patchTurnEnded: db.prepare(
      `UPDATE ${turns} SET status = ?, ended_at = ?,
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END,
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    ),
    patchTurnStatus: db.prepare(
      `UPDATE ${turns} SET status = ?,
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END,
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    ),
    patchTurn: db.prepare(
      `UPDATE ${turns} SET
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END,
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
    lapsedConfirmations: db.prepare(`SELECT id FROM ${confirmations} WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at, id`).pluck(),
    resolveConfirmation: db.prepare(
      `UPDATE ${confirmations} SET status = 'resolved', resolution = ?, resolved_at = ? WHERE id = ? AND status <> 'resolved'`,
    ),
    deleteResolvedConfirmations: db.prepare(
      `DELETE FROM ${confirmations} WHERE id IN (SELECT id FROM ${confirmations} WHERE status = 'resolved' AND resolved_at < ? ORDER BY resolved_at, id LIMIT ?)`,
    ),
  };
}

function toThread(row: ThreadRow): ThreadRecord {
  return Object.freeze({
    id: row.id,
    owner: row.owner,
    title: row.title,
    summary: row.summary,
    summaryThroughItemId: row.summary_through_item_id,
    routerSession: row.router_session,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}

function toTurn(row: TurnRow): TurnRecord {
  return Object.freeze({
    id: row.id,
    threadId: row.thread_id,
    owner: row.owner,
    requestKey: row.request_key,
    input: row.input,
    status: row.status as TurnStatus,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    usage: Object.freeze({ inputTokens: Number(row.input_tokens), outputTokens: Number(row.output_tokens) }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}

function toItem(row: ItemRow): ItemRecord {
  if (!isItemKind(row.kind)) throw new PlumbError('store_invalid_record', `Stored item '${row.id}' has unknown kind '${row.kind}'.`);
  return Object.freeze({
    id: row.id,
    threadId: row.thread_id,
    turnId: row.turn_id,
    ordinal: Number(row.ordinal),
    kind: row.kind,
    data: JSON.parse(row.data) as JsonValue,
    createdAt: Number(row.created_at),
  });
}

function toConfirmation(row: ConfirmationRow): ConfirmationRecord {
  return Object.freeze({
    id: row.id,
    threadId: row.thread_id,
    turnId: row.turn_id,
    owner: row.owner,
    actor: JSON.parse(row.actor) as JsonValue,
    callId: row.call_id,
    tool: row.tool,
    arguments: JSON.parse(row.arguments) as JsonValue,
    digest: row.digest,
    status: row.status as ConfirmationStatus,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    resolvedAt: row.resolved_at === null ? null : Number(row.resolved_at),
    resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as JsonValue),
  });
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(patch) as (keyof T)[]) if (patch[key] !== undefined) out[key] = patch[key];
  return out;
}
