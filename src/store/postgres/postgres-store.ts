import type { JsonValue, MigrationState } from '../../core/index.js';
import { confirmationValues, tablePrefix } from '../journal-tables.js';
import { orderedIds } from '../ordered-ids.js';
import { checkLeaseTtl, closedError, jsonText, retentionLimit } from '../records.js';
import type * as contract from '../types.js';
import { beginTurn } from './begin.js';
import * as census from './census.js';
import * as confirmations from './confirmations.js';
import * as threadItems from './items.js';
import { postgresJournal } from './journal.js';
import type { PostgresJournal } from './journal.js';
import * as leases from './leases.js';
import { PostgresPages } from './pages.js';
import * as queue from './queue.js';
import type { JournalSql } from './sql.js';
import * as threads from './threads.js';
import * as turns from './turns.js';
import * as upkeep from './upkeep.js';

export interface PostgresStoreOptions extends contract.StoreOptions {
  /** Prefix of every table (default `plumb_`); the schema is the connection's (`search_path`). */
  readonly tablePrefix?: string;
  /** Reads the journal's applied and pending migrations (`openPostgresStore` gives the Migrator's). */
  readonly migrationState: () => Promise<MigrationState>;
}

/**
 * The journal on PostgreSQL. Every write is one statement where it can be (an append, a claim, a
 * turn's acceptance: data-modifying CTEs, atomic by themselves), so a step costs one round trip;
 * what must read before it writes runs in a transaction that locks the rows it depends on, thread
 * before turn, the order every append takes them too. Atomicity across processes comes from the
 * database: the unique `turns_active` index (one active turn per thread), row locks (appends to a
 * thread, claims), conditional UPDATEs (compare-and-set, lease renewal). Each concern's statements
 * run in its own file of this folder; this class opens, checks the store is open, and closes.
 */
export class PostgresStore implements contract.Store, contract.JournalUpkeep {
  readonly kind = 'postgres';
  readonly #sql: JournalSql;
  readonly #j: PostgresJournal;
  readonly #pages: PostgresPages;
  readonly #prefix: string;
  readonly #migrationState: () => Promise<MigrationState>;
  #closed = false;
  #closing: Promise<void> | undefined;

  /** Use `openPostgresStore` (plumb/postgres), which connects and migrates first. */
  constructor(sql: JournalSql, options: PostgresStoreOptions) {
    // Lower case only: PostgreSQL folds unquoted names, and the statements do not quote them.
    const prefix = tablePrefix(options.tablePrefix, /^[a-z_][a-z0-9_]*$/, 'lower-case letters, digits and underscores');
    this.#sql = sql;
    this.#prefix = prefix;
    this.#migrationState = options.migrationState;
    const clock = options.clock ?? Date.now;
    const ids = options.ids ?? orderedIds(clock);
    this.#j = postgresJournal(sql, prefix, ids, clock, () => this.#open());
    this.#pages = new PostgresPages(sql, prefix, ids, clock);
  }

  #open(): void {
    if (this.#closed) throw closedError();
  }

  async createThread(input: { readonly owner: string; readonly title?: string | null }): Promise<contract.ThreadRecord> {
    return threads.createThread(this.#j, input.owner, input.title ?? null);
  }

  async getThread(id: string): Promise<contract.ThreadRecord | undefined> {
    return threads.getThread(this.#j, id);
  }

  async latestThread(owner: string): Promise<contract.ThreadRecord | undefined> {
    return (await threads.listThreads(this.#j, owner, 1))[0];
  }

  async listThreads(owner: string, options: { readonly limit?: number } = {}): Promise<readonly contract.ThreadRecord[]> {
    return threads.listThreads(this.#j, owner, options.limit);
  }

  async updateThread(id: string, patch: contract.ThreadPatch): Promise<contract.ThreadRecord> {
    return threads.updateThread(this.#j, id, patch);
  }

  async deleteThread(id: string): Promise<boolean> {
    return threads.deleteThread(this.#j, id);
  }

  async pageThreads(owner: string, options: contract.ThreadPageOptions): Promise<contract.ThreadPage> {
    this.#open();
    return this.#pages.threads(owner, options);
  }

  async setThreadTitle(id: string, title: string | null, source: contract.TitleSource | null, options: { readonly onlyIf?: readonly (contract.TitleSource | null)[] } = {}): Promise<contract.ThreadRecord | undefined> {
    this.#open();
    return this.#pages.setTitle(id, title, source, options.onlyIf);
  }

  async forkThread(input: contract.ForkThreadInput): Promise<contract.ThreadRecord> {
    this.#open();
    return this.#pages.fork(input);
  }

  async pageItems(threadId: string, options: contract.ItemPageOptions): Promise<contract.ItemPage> {
    this.#open();
    return this.#pages.items(threadId, options);
  }

  async lastOrdinal(threadId: string): Promise<number> {
    this.#open();
    return this.#pages.lastOrdinal(threadId);
  }

  async deleteThreadsUpdatedBefore(cutoff: number, options?: contract.RetentionOptions): Promise<readonly string[]> {
    return threads.deleteThreadsUpdatedBefore(this.#j, cutoff, retentionLimit(options));
  }

  async deleteConfirmationsResolvedBefore(cutoff: number, options?: contract.RetentionOptions): Promise<number> {
    return threads.deleteConfirmationsResolvedBefore(this.#j, cutoff, retentionLimit(options));
  }

  async beginTurn(input: contract.BeginTurnInput): Promise<contract.BeginTurnResult> {
    this.#open();
    return beginTurn(this.#j, input);
  }

  async getTurn(id: string): Promise<contract.TurnRecord | undefined> {
    return turns.getTurn(this.#j, id);
  }

  async listTurns(threadId: string): Promise<readonly contract.TurnRecord[]> {
    return turns.listTurns(this.#j, threadId);
  }

  async turnsWithStatus(status: contract.TurnStatus): Promise<readonly contract.TurnRecord[]> {
    return turns.turnsWithStatus(this.#j, status);
  }

  async updateTurn(id: string, patch: contract.TurnPatch, from?: readonly contract.TurnStatus[]): Promise<contract.TurnRecord | undefined> {
    return turns.updateTurn(this.#j, id, patch, from);
  }

  async appendItems(turnId: string, items: readonly contract.NewItem[], turnPatch?: contract.StepPatch, fence?: contract.WriteFence): Promise<readonly contract.ItemRecord[]> {
    this.#open();
    return threadItems.appendItems(this.#j, turnId, items, turnPatch, fence);
  }

  async stageItems(turnId: string, items: readonly contract.NewItem[], turnPatch?: contract.StepPatch, fence?: contract.WriteFence): Promise<contract.StagedItems> {
    return { records: await this.appendItems(turnId, items, turnPatch, fence), committed: Promise.resolve() };
  }

  async listItems(threadId: string, options: contract.ListItemsOptions = {}): Promise<readonly contract.ItemRecord[]> {
    return threadItems.listItems(this.#j, threadId, options);
  }

  async createConfirmation(input: contract.NewConfirmation): Promise<contract.ConfirmationRecord> {
    return confirmations.createConfirmation(this.#j, input.id, input.turnId, confirmationValues(input));
  }

  async getConfirmation(id: string): Promise<contract.ConfirmationRecord | undefined> {
    return confirmations.getConfirmation(this.#j, id);
  }

  async pendingConfirmations(turnId: string): Promise<readonly contract.ConfirmationRecord[]> {
    return confirmations.pendingConfirmations(this.#j, turnId);
  }

  async threadConfirmations(threadId: string): Promise<readonly contract.ConfirmationRecord[]> {
    return census.threadConfirmations(this.#j, threadId);
  }

  async claimConfirmation(id: string, owner: string, now: number, expiredResolution: JsonValue = 'expired'): Promise<contract.ClaimResult> {
    const expired = jsonText(expiredResolution, 'a resolution');
    this.#open();
    return confirmations.claimConfirmation(this.#j, id, owner, now, expired);
  }

  async resolveConfirmation(id: string, resolution: JsonValue, now: number): Promise<boolean> {
    return confirmations.resolveConfirmation(this.#j, id, jsonText(resolution, 'a resolution'), now);
  }

  async resolveClaimedConfirmations(turnId: string, resolution: JsonValue, now: number): Promise<readonly contract.ConfirmationRecord[]> {
    return confirmations.resolveClaimedConfirmations(this.#j, turnId, jsonText(resolution, 'a resolution'), now);
  }

  async expireConfirmations(now: number, resolution: JsonValue): Promise<readonly contract.ConfirmationRecord[]> {
    return confirmations.expireConfirmations(this.#j, now, jsonText(resolution, 'a resolution'));
  }

  async acquireLease(input: { readonly id: string; readonly holder: string; readonly ttlMs: number }): Promise<contract.LeaseRecord> {
    checkLeaseTtl(input.ttlMs);
    return leases.acquireLease(this.#j, input.id, input.holder, input.ttlMs);
  }

  async renewLease(id: string, ttlMs: number): Promise<contract.LeaseRecord | undefined> {
    checkLeaseTtl(ttlMs);
    return leases.renewLease(this.#j, id, ttlMs);
  }

  async releaseLease(id: string): Promise<boolean> {
    return leases.releaseLease(this.#j, id);
  }

  async getLease(id: string): Promise<contract.LeaseRecord | undefined> {
    return leases.getLease(this.#j, id);
  }

  async orphanedTurns(): Promise<readonly contract.TurnRecord[]> {
    return leases.orphanedTurns(this.#j);
  }

  async endOrphanedTurn(turnId: string, end: (turn: contract.TurnRecord, turnItems: readonly contract.ItemRecord[]) => contract.OrphanEnding): Promise<contract.TurnRecord | undefined> {
    return leases.endOrphanedTurn(this.#j, turnId, end);
  }

  async enqueueMessage(input: contract.EnqueueInput): Promise<contract.EnqueueResult> {
    this.#open();
    return queue.enqueueMessage(this.#j, input, jsonText(input.actor, 'a queued message'));
  }

  async getQueued(id: string): Promise<contract.QueuedMessage | undefined> {
    return queue.getQueued(this.#j, id);
  }

  async listQueued(threadId: string): Promise<readonly contract.QueuedMessage[]> {
    return queue.listQueued(this.#j, threadId);
  }

  async editQueued(id: string, text: string, expectedText?: string): Promise<contract.QueuedMessage | undefined> {
    return queue.editQueued(this.#j, id, text, expectedText);
  }

  async steerQueued(id: string): Promise<contract.QueuedMessage | undefined> {
    return queue.steerQueued(this.#j, id);
  }

  async removeQueued(id: string): Promise<boolean> {
    return queue.removeQueued(this.#j, id);
  }

  async beginQueuedTurn(id: string, options: { readonly lease?: string } = {}): Promise<{ readonly message: contract.QueuedMessage; readonly begun: contract.BeginTurnResult } | undefined> {
    this.#open();
    return queue.beginQueuedTurn(this.#j, id, options.lease);
  }

  async queuedThreads(): Promise<readonly string[]> {
    return queue.queuedThreads(this.#j);
  }

  async census(): Promise<contract.JournalCensus> {
    return census.census(this.#j);
  }

  async migrations(): Promise<MigrationState> {
    this.#open();
    return this.#migrationState();
  }

  async ping(): Promise<void> {
    await this.#j.query('select 1');
  }

  async sizes(): Promise<Readonly<Record<string, number>>> {
    return upkeep.sizes(this.#j, this.#prefix);
  }

  async vacuum(): Promise<void> {
    return upkeep.vacuum(this.#j, this.#prefix);
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
