import type Database from 'better-sqlite3';
import { PlumbError, sqliteDriver } from '../../core/index.js';
import type { JsonValue, MigrationState } from '../../core/index.js';
import { GroupCommit } from '../group-commit.js';
import { confirmationValues, tablePrefix } from '../journal-tables.js';
import { orderedIds } from '../ordered-ids.js';
import { checkLeaseTtl, closedError, jsonText, retentionLimit } from '../records.js';
import type * as contract from '../types.js';
import { beginTurn } from './begin.js';
import * as census from './census.js';
import * as confirmations from './confirmations.js';
import * as threadItems from './items.js';
import { sqliteJournal } from './journal.js';
import type { SqliteJournal } from './journal.js';
import * as leases from './leases.js';
import { journalMigrationState, migrateJournal } from './migrations.js';
import { SqlitePages } from './pages.js';
import * as queue from './queue.js';
import * as threads from './threads.js';
import * as turns from './turns.js';
import * as upkeep from './upkeep.js';

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

export interface SqliteStoreOptions extends contract.StoreOptions {
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
  /**
   * Opens `path` read-only (inspection): the file must exist, nothing is written to it, and a
   * write fails with SQLite's read-only error. A journal older than this build cannot be brought
   * up to date so: `migration_failed`.
   */
  readonly readonly?: boolean;
}

type AppendItems = (turnId: string, items: readonly contract.NewItem[], turnPatch: contract.StepPatch | undefined, fence: contract.WriteFence | undefined) => contract.ItemRecord[];

/**
 * The durable store on SQLite (`better-sqlite3`). Each write is one `BEGIN IMMEDIATE`
 * transaction (it takes the write lock before reading, so that two processes sharing the file
 * never deadlock on an upgrade); better-sqlite3 is synchronous, so a method's work is never
 * interleaved with another's in this process, and conditional UPDATEs keep claims atomic across
 * processes sharing the file. Each concern's statements run in its own file of this folder; this
 * class opens, orders the writes (alone or in a group commit) and closes.
 */
export class SqliteStore implements contract.Store, contract.JournalUpkeep {
  readonly kind = 'sqlite';
  readonly #db: Database.Database;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #j: SqliteJournal;
  /** The hot write paths as transaction functions, built once (better-sqlite3 builds four wrappers per `transaction()` call). */
  readonly #tx: { readonly beginTurn: (input: contract.BeginTurnInput) => contract.BeginTurnResult; readonly appendItems: AppendItems };
  #closed = false;
  readonly #group: GroupCommit | undefined;
  readonly #pages: SqlitePages;

  /** Use `openSqliteStore`, which checks the options and migrates the tables first. */
  constructor(db: Database.Database, owned: boolean, prefix: string, options: SqliteStoreOptions) {
    this.#db = db;
    this.#owned = owned;
    this.#prefix = prefix;
    const clock = options.clock ?? Date.now;
    const ids = options.ids ?? orderedIds(clock);
    this.#j = sqliteJournal(db, prefix, ids, clock);
    this.#pages = new SqlitePages(db, prefix, ids, clock);
    this.#group = owned && options.groupCommit !== false && options.readonly !== true ? new GroupCommit(db) : undefined;
    const begin = db.transaction((input: contract.BeginTurnInput) => beginTurn(this.#j, input));
    const append = db.transaction((...args: Parameters<AppendItems>) => threadItems.appendItems(this.#j, ...args));
    this.#tx = { beginTurn: (input) => begin.immediate(input), appendItems: (...args) => append.immediate(...args) };
  }

  #open(): void {
    if (this.#closed) throw closedError();
  }

  /** Every write goes through here: alone, or in the open group commit, settling once committed. */
  #write<T>(work: () => T): Promise<T> {
    this.#open();
    return this.#group === undefined ? Promise.resolve(work()) : this.#group.run(work);
  }

  /** Every read: at once, on an open store. */
  #read<T>(work: () => T): Promise<T> {
    this.#open();
    return Promise.resolve(work());
  }

  async createThread(input: { readonly owner: string; readonly title?: string | null }): Promise<contract.ThreadRecord> {
    return this.#write(() => threads.createThread(this.#j, input.owner, input.title ?? null));
  }

  async getThread(id: string): Promise<contract.ThreadRecord | undefined> {
    return this.#read(() => threads.getThread(this.#j, id));
  }

  async latestThread(owner: string): Promise<contract.ThreadRecord | undefined> {
    return this.#read(() => threads.ownedThreads(this.#j, owner, 1)[0]);
  }

  async listThreads(owner: string, options: { readonly limit?: number } = {}): Promise<readonly contract.ThreadRecord[]> {
    return this.#read(() => threads.ownedThreads(this.#j, owner, options.limit ?? -1));
  }

  async updateThread(id: string, patch: contract.ThreadPatch): Promise<contract.ThreadRecord> {
    return this.#write(() => threads.updateThread(this.#j, id, patch));
  }

  async deleteThread(id: string): Promise<boolean> {
    return this.#write(() => threads.deleteThread(this.#j, id));
  }

  async pageThreads(owner: string, options: contract.ThreadPageOptions): Promise<contract.ThreadPage> {
    return this.#read(() => this.#pages.threads(owner, options));
  }

  async setThreadTitle(id: string, title: string | null, source: contract.TitleSource | null, options: { readonly onlyIf?: readonly (contract.TitleSource | null)[] } = {}): Promise<contract.ThreadRecord | undefined> {
    return this.#write(() => this.#pages.setTitle(id, title, source, options.onlyIf));
  }

  async forkThread(input: contract.ForkThreadInput): Promise<contract.ThreadRecord> {
    return this.#write(() => this.#pages.fork(input));
  }

  async pageItems(threadId: string, options: contract.ItemPageOptions): Promise<contract.ItemPage> {
    return this.#read(() => this.#pages.items(threadId, options));
  }

  async lastOrdinal(threadId: string): Promise<number> {
    return this.#read(() => this.#pages.lastOrdinal(threadId));
  }

  async deleteThreadsUpdatedBefore(cutoff: number, options?: contract.RetentionOptions): Promise<readonly string[]> {
    const limit = retentionLimit(options);
    return this.#write(() => threads.deleteThreadsUpdatedBefore(this.#j, cutoff, limit));
  }

  async deleteConfirmationsResolvedBefore(cutoff: number, options?: contract.RetentionOptions): Promise<number> {
    const limit = retentionLimit(options);
    return this.#write(() => threads.deleteConfirmationsResolvedBefore(this.#j, cutoff, limit));
  }

  async beginTurn(input: contract.BeginTurnInput): Promise<contract.BeginTurnResult> {
    return this.#write(() => this.#tx.beginTurn(input));
  }

  async getTurn(id: string): Promise<contract.TurnRecord | undefined> {
    return this.#read(() => turns.getTurn(this.#j, id));
  }

  async listTurns(threadId: string): Promise<readonly contract.TurnRecord[]> {
    return this.#read(() => turns.listTurns(this.#j, threadId));
  }

  async turnsWithStatus(status: contract.TurnStatus): Promise<readonly contract.TurnRecord[]> {
    return this.#read(() => turns.turnsWithStatus(this.#j, status));
  }

  async updateTurn(id: string, patch: contract.TurnPatch, from?: readonly contract.TurnStatus[]): Promise<contract.TurnRecord | undefined> {
    return this.#write(() => turns.updateTurn(this.#j, id, patch, from));
  }

  async appendItems(turnId: string, items: readonly contract.NewItem[], turnPatch?: contract.StepPatch, fence?: contract.WriteFence): Promise<readonly contract.ItemRecord[]> {
    return this.#write(() => this.#tx.appendItems(turnId, items, turnPatch, fence));
  }

  async stageItems(turnId: string, items: readonly contract.NewItem[], turnPatch?: contract.StepPatch, fence?: contract.WriteFence): Promise<contract.StagedItems> {
    this.#open();
    if (this.#group === undefined) return { records: await this.appendItems(turnId, items, turnPatch, fence), committed: Promise.resolve() };
    const staged = this.#group.stage(() => this.#tx.appendItems(turnId, items, turnPatch, fence));
    return { records: staged.result, committed: staged.committed };
  }

  async listItems(threadId: string, options: contract.ListItemsOptions = {}): Promise<readonly contract.ItemRecord[]> {
    return this.#read(() => threadItems.listItems(this.#j, threadId, options));
  }

  async createConfirmation(input: contract.NewConfirmation): Promise<contract.ConfirmationRecord> {
    const values = confirmationValues(input);
    return this.#write(() => confirmations.createConfirmation(this.#j, input.id, input.turnId, values));
  }

  async getConfirmation(id: string): Promise<contract.ConfirmationRecord | undefined> {
    return this.#read(() => confirmations.getConfirmation(this.#j, id));
  }

  async pendingConfirmations(turnId: string): Promise<readonly contract.ConfirmationRecord[]> {
    return this.#read(() => confirmations.pendingConfirmations(this.#j, turnId));
  }

  async threadConfirmations(threadId: string): Promise<readonly contract.ConfirmationRecord[]> {
    return this.#read(() => census.threadConfirmations(this.#j, threadId));
  }

  async claimConfirmation(id: string, owner: string, now: number, expiredResolution: JsonValue = 'expired'): Promise<contract.ClaimResult> {
    return this.#write(() => confirmations.claimConfirmation(this.#j, id, owner, now, jsonText(expiredResolution, 'a resolution')));
  }

  async resolveConfirmation(id: string, resolution: JsonValue, now: number): Promise<boolean> {
    const text = jsonText(resolution, 'a resolution');
    return this.#write(() => confirmations.resolveConfirmation(this.#j, id, text, now));
  }

  async resolveClaimedConfirmations(turnId: string, resolution: JsonValue, now: number): Promise<readonly contract.ConfirmationRecord[]> {
    const text = jsonText(resolution, 'a resolution');
    return this.#write(() => confirmations.resolveClaimedConfirmations(this.#j, turnId, text, now));
  }

  async expireConfirmations(now: number, resolution: JsonValue): Promise<readonly contract.ConfirmationRecord[]> {
    const text = jsonText(resolution, 'a resolution');
    return this.#write(() => confirmations.expireConfirmations(this.#j, now, text));
  }

  async acquireLease(input: { readonly id: string; readonly holder: string; readonly ttlMs: number }): Promise<contract.LeaseRecord> {
    checkLeaseTtl(input.ttlMs);
    return this.#write(() => leases.acquireLease(this.#j, input.id, input.holder, input.ttlMs));
  }

  async renewLease(id: string, ttlMs: number): Promise<contract.LeaseRecord | undefined> {
    checkLeaseTtl(ttlMs);
    return this.#write(() => leases.renewLease(this.#j, id, ttlMs));
  }

  async releaseLease(id: string): Promise<boolean> {
    return this.#write(() => leases.releaseLease(this.#j, id));
  }

  async getLease(id: string): Promise<contract.LeaseRecord | undefined> {
    return this.#read(() => leases.getLease(this.#j, id));
  }

  async orphanedTurns(): Promise<readonly contract.TurnRecord[]> {
    return this.#read(() => leases.orphanedTurns(this.#j));
  }

  async endOrphanedTurn(turnId: string, end: (turn: contract.TurnRecord, turnItems: readonly contract.ItemRecord[]) => contract.OrphanEnding): Promise<contract.TurnRecord | undefined> {
    return this.#write(() => leases.endOrphanedTurn(this.#j, turnId, end));
  }

  async enqueueMessage(input: contract.EnqueueInput): Promise<contract.EnqueueResult> {
    const actorText = jsonText(input.actor, 'a queued message');
    return this.#write(() => queue.enqueueMessage(this.#j, input, actorText));
  }

  async getQueued(id: string): Promise<contract.QueuedMessage | undefined> {
    return this.#read(() => queue.getQueued(this.#j, id));
  }

  async listQueued(threadId: string): Promise<readonly contract.QueuedMessage[]> {
    return this.#read(() => queue.listQueued(this.#j, threadId));
  }

  async editQueued(id: string, text: string, expectedText?: string): Promise<contract.QueuedMessage | undefined> {
    return this.#write(() => queue.editQueued(this.#j, id, text, expectedText));
  }

  async steerQueued(id: string): Promise<contract.QueuedMessage | undefined> {
    return this.#write(() => queue.steerQueued(this.#j, id));
  }

  async removeQueued(id: string): Promise<boolean> {
    return this.#write(() => queue.removeQueued(this.#j, id));
  }

  async beginQueuedTurn(id: string, options: { readonly lease?: string } = {}): Promise<{ readonly message: contract.QueuedMessage; readonly begun: contract.BeginTurnResult } | undefined> {
    return this.#write(() => queue.beginQueuedTurn(this.#j, id, options.lease));
  }

  async queuedThreads(): Promise<readonly string[]> {
    return this.#read(() => queue.queuedThreads(this.#j));
  }

  async census(): Promise<contract.JournalCensus> {
    return this.#read(() => census.census(this.#j));
  }

  async migrations(): Promise<MigrationState> {
    this.#open();
    return journalMigrationState(this.#db, this.#prefix);
  }

  async ping(): Promise<void> {
    await this.#read(() => this.#j.sql.ping.get());
  }

  async sizes(): Promise<Readonly<Record<string, number>>> {
    return this.#read(() => upkeep.sizes(this.#db));
  }

  /** Runs alone: the writes staged in a group commit are committed first (VACUUM runs outside any transaction). */
  async vacuum(): Promise<void> {
    this.#open();
    this.#group?.flush();
    upkeep.vacuum(this.#db);
    return Promise.resolve();
  }

  /**
   * Copies the whole database (the journal, and the app's tables when they share it) into
   * `target`, a file that must not exist yet, with SQLite's online backup API in one snapshot
   * (docs/store.md, "Upkeep"). Writes staged in a group commit are committed first.
   */
  async backup(target: string): Promise<{ readonly pages: number }> {
    this.#open();
    this.#group?.flush();
    return upkeep.backup(this.#db, target);
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
  const prefix = tablePrefix(options.tablePrefix, /^[A-Za-z_][A-Za-z0-9_]*$/, 'letters, digits and underscores');
  const owned = options.database === undefined;
  if (options.readonly === true && !owned) throw new PlumbError('store_invalid_record', 'openSqliteStore opens read-only only its own file (`path`), not a shared handle.');
  const readonly = options.readonly === true;
  const db = options.database ?? new (sqliteDriver())(options.path, readonly ? { readonly, fileMustExist: true } : undefined);
  try {
    if (owned && !readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
    }
    if ((owned && !readonly) || durability !== undefined) db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    await migrateJournal(db, prefix);
    return new SqliteStore(db, owned, prefix, options);
  } catch (error) {
    if (owned) db.close();
    throw error;
  }
}
