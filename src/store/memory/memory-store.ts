import type { JsonValue, MigrationState } from '../../core/index.js';
import { counterIds } from '../ordered-ids.js';
import { checkLeaseTtl, closedError, retentionLimit } from '../records.js';
import type * as contract from '../types.js';
import { beginTurn } from './begin.js';
import * as census from './census.js';
import * as confirmations from './confirmations.js';
import * as threadItems from './items.js';
import { addThread, memoryJournal } from './journal.js';
import type { MemoryJournal } from './journal.js';
import * as leases from './leases.js';
import * as pages from './pages.js';
import * as queue from './queue.js';
import * as threads from './threads.js';
import * as turns from './turns.js';

/**
 * A store in process memory: fast, for tests, benchmarks and single-process hosts that accept
 * losing the journal on exit. Every method does its work synchronously, so each is atomic. Each
 * concern's work is in its own file of this folder; this class checks the store is open first.
 */
export class MemoryStore implements contract.Store {
  readonly kind = 'memory';
  readonly #j: MemoryJournal;
  #closed = false;

  constructor(options: contract.StoreOptions = {}) {
    this.#j = memoryJournal(options.ids ?? counterIds(), options.clock ?? Date.now);
  }

  #open(): void {
    if (this.#closed) throw closedError();
  }

  async createThread(input: { readonly owner: string; readonly title?: string | null }): Promise<contract.ThreadRecord> {
    this.#open();
    const j = this.#j;
    return Promise.resolve(addThread(j, input.owner, input.title ?? null, j.clock()).record);
  }

  async getThread(id: string): Promise<contract.ThreadRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#j.threads.get(id)?.record);
  }

  async latestThread(owner: string): Promise<contract.ThreadRecord | undefined> {
    this.#open();
    return Promise.resolve(threads.ownedThreads(this.#j, owner)[0]);
  }

  async listThreads(owner: string, options: { readonly limit?: number } = {}): Promise<readonly contract.ThreadRecord[]> {
    this.#open();
    const all = threads.ownedThreads(this.#j, owner);
    return Promise.resolve(options.limit === undefined ? all : all.slice(0, options.limit));
  }

  async updateThread(id: string, patch: contract.ThreadPatch): Promise<contract.ThreadRecord> {
    this.#open();
    return Promise.resolve(threads.updateThread(this.#j, id, patch));
  }

  async deleteThread(id: string): Promise<boolean> {
    this.#open();
    return Promise.resolve(threads.deleteThread(this.#j, id));
  }

  async pageThreads(owner: string, options: contract.ThreadPageOptions): Promise<contract.ThreadPage> {
    this.#open();
    return Promise.resolve(pages.pageThreads(this.#j, owner, options));
  }

  async setThreadTitle(id: string, title: string | null, source: contract.TitleSource | null, options: { readonly onlyIf?: readonly (contract.TitleSource | null)[] } = {}): Promise<contract.ThreadRecord | undefined> {
    this.#open();
    return Promise.resolve(pages.setThreadTitle(this.#j, id, title, source, options.onlyIf));
  }

  async forkThread(input: contract.ForkThreadInput): Promise<contract.ThreadRecord> {
    this.#open();
    return Promise.resolve(pages.forkThread(this.#j, input));
  }

  async pageItems(threadId: string, options: contract.ItemPageOptions): Promise<contract.ItemPage> {
    this.#open();
    return Promise.resolve(pages.pageItems(this.#j, threadId, options));
  }

  async lastOrdinal(threadId: string): Promise<number> {
    this.#open();
    return Promise.resolve(this.#j.threads.get(threadId)?.items.length ?? 0);
  }

  async deleteThreadsUpdatedBefore(cutoff: number, options?: contract.RetentionOptions): Promise<readonly string[]> {
    this.#open();
    return Promise.resolve(threads.deleteThreadsUpdatedBefore(this.#j, cutoff, retentionLimit(options)));
  }

  async deleteConfirmationsResolvedBefore(cutoff: number, options?: contract.RetentionOptions): Promise<number> {
    this.#open();
    return Promise.resolve(threads.deleteConfirmationsResolvedBefore(this.#j, cutoff, retentionLimit(options)));
  }

  async beginTurn(input: contract.BeginTurnInput): Promise<contract.BeginTurnResult> {
    this.#open();
    return Promise.resolve(beginTurn(this.#j, input));
  }

  async getTurn(id: string): Promise<contract.TurnRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#j.turns.get(id));
  }

  async listTurns(threadId: string): Promise<readonly contract.TurnRecord[]> {
    this.#open();
    return Promise.resolve(turns.listTurns(this.#j, threadId));
  }

  async turnsWithStatus(status: contract.TurnStatus): Promise<readonly contract.TurnRecord[]> {
    this.#open();
    return Promise.resolve(turns.turnsWithStatus(this.#j, status));
  }

  async updateTurn(id: string, patch: contract.TurnPatch, from?: readonly contract.TurnStatus[]): Promise<contract.TurnRecord | undefined> {
    this.#open();
    return Promise.resolve(turns.updateTurn(this.#j, id, patch, from));
  }

  async stageItems(turnId: string, items: readonly contract.NewItem[], turnPatch?: contract.StepPatch, fence?: contract.WriteFence): Promise<contract.StagedItems> {
    return { records: await this.appendItems(turnId, items, turnPatch, fence), committed: Promise.resolve() };
  }

  async appendItems(turnId: string, items: readonly contract.NewItem[], turnPatch?: contract.StepPatch, fence?: contract.WriteFence): Promise<readonly contract.ItemRecord[]> {
    this.#open();
    return Promise.resolve(threadItems.appendItems(this.#j, turnId, items, turnPatch, fence));
  }

  async listItems(threadId: string, options: contract.ListItemsOptions = {}): Promise<readonly contract.ItemRecord[]> {
    this.#open();
    return Promise.resolve(threadItems.listItems(this.#j, threadId, options));
  }

  async createConfirmation(input: contract.NewConfirmation): Promise<contract.ConfirmationRecord> {
    this.#open();
    return Promise.resolve(confirmations.createConfirmation(this.#j, input));
  }

  async getConfirmation(id: string): Promise<contract.ConfirmationRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#j.confirmations.get(id));
  }

  async pendingConfirmations(turnId: string): Promise<readonly contract.ConfirmationRecord[]> {
    this.#open();
    return Promise.resolve(confirmations.pendingConfirmations(this.#j, turnId));
  }

  async threadConfirmations(threadId: string): Promise<readonly contract.ConfirmationRecord[]> {
    this.#open();
    return Promise.resolve(census.threadConfirmations(this.#j, threadId));
  }

  async claimConfirmation(id: string, owner: string, now: number, expiredResolution: JsonValue = 'expired'): Promise<contract.ClaimResult> {
    this.#open();
    return Promise.resolve(confirmations.claimConfirmation(this.#j, id, owner, now, expiredResolution));
  }

  async resolveConfirmation(id: string, resolution: JsonValue, now: number): Promise<boolean> {
    this.#open();
    return Promise.resolve(confirmations.resolveConfirmation(this.#j, id, resolution, now));
  }

  async resolveClaimedConfirmations(turnId: string, resolution: JsonValue, now: number): Promise<readonly contract.ConfirmationRecord[]> {
    this.#open();
    return Promise.resolve(confirmations.resolveClaimedConfirmations(this.#j, turnId, resolution, now));
  }

  async expireConfirmations(now: number, resolution: JsonValue): Promise<readonly contract.ConfirmationRecord[]> {
    this.#open();
    return Promise.resolve(confirmations.expireConfirmations(this.#j, now, resolution));
  }

  async acquireLease(input: { readonly id: string; readonly holder: string; readonly ttlMs: number }): Promise<contract.LeaseRecord> {
    this.#open();
    checkLeaseTtl(input.ttlMs);
    return Promise.resolve(leases.acquireLease(this.#j, input.id, input.holder, input.ttlMs));
  }

  async renewLease(id: string, ttlMs: number): Promise<contract.LeaseRecord | undefined> {
    this.#open();
    checkLeaseTtl(ttlMs);
    return Promise.resolve(leases.renewLease(this.#j, id, ttlMs));
  }

  async releaseLease(id: string): Promise<boolean> {
    this.#open();
    return Promise.resolve(this.#j.leases.delete(id));
  }

  async getLease(id: string): Promise<contract.LeaseRecord | undefined> {
    this.#open();
    return Promise.resolve(this.#j.leases.get(id));
  }

  async orphanedTurns(): Promise<readonly contract.TurnRecord[]> {
    this.#open();
    return Promise.resolve(leases.orphanedTurns(this.#j));
  }

  async endOrphanedTurn(turnId: string, end: (turn: contract.TurnRecord, turnItems: readonly contract.ItemRecord[]) => contract.OrphanEnding): Promise<contract.TurnRecord | undefined> {
    this.#open();
    return Promise.resolve(leases.endOrphanedTurn(this.#j, turnId, end));
  }

  async enqueueMessage(input: contract.EnqueueInput): Promise<contract.EnqueueResult> {
    this.#open();
    return Promise.resolve(queue.enqueueMessage(this.#j, input));
  }

  async getQueued(id: string): Promise<contract.QueuedMessage | undefined> {
    this.#open();
    return Promise.resolve(this.#j.queue.get(id)?.message);
  }

  async listQueued(threadId: string): Promise<readonly contract.QueuedMessage[]> {
    this.#open();
    return Promise.resolve(queue.listQueued(this.#j, threadId));
  }

  async editQueued(id: string, text: string, expectedText?: string): Promise<contract.QueuedMessage | undefined> {
    this.#open();
    return Promise.resolve(queue.editQueued(this.#j, id, text, expectedText));
  }

  async steerQueued(id: string): Promise<contract.QueuedMessage | undefined> {
    this.#open();
    return Promise.resolve(queue.steerQueued(this.#j, id));
  }

  async removeQueued(id: string): Promise<boolean> {
    this.#open();
    return Promise.resolve(this.#j.queue.delete(id));
  }

  async beginQueuedTurn(id: string, options: { readonly lease?: string } = {}): Promise<{ readonly message: contract.QueuedMessage; readonly begun: contract.BeginTurnResult } | undefined> {
    this.#open();
    return Promise.resolve(queue.beginQueuedTurn(this.#j, id, options.lease));
  }

  async queuedThreads(): Promise<readonly string[]> {
    this.#open();
    return Promise.resolve(queue.queuedThreads(this.#j));
  }

  async census(): Promise<contract.JournalCensus> {
    this.#open();
    return Promise.resolve(census.census(this.#j));
  }

  /** A memory journal is made whole in this build: no migrations. */
  async migrations(): Promise<MigrationState> {
    this.#open();
    return Promise.resolve({ applied: [], pending: [] });
  }

  async ping(): Promise<void> {
    this.#open();
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.#closed = true;
    return Promise.resolve();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

export function createMemoryStore(options: contract.StoreOptions = {}): MemoryStore {
  return new MemoryStore(options);
}
