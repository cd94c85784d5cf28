import type Database from 'better-sqlite3';

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  /** A staged write (see `stage`): it does not count as company. */
  readonly staged: boolean;
}

/** A write applied in the open transaction, and its COMMIT on the way. */
export interface StagedWrite<T> {
  readonly result: T;
  /** Settles once the COMMIT holding the write succeeded; rejects if it failed (the write is then lost). */
  readonly committed: Promise<void>;
}

/** While writes commit alone, every this many waits for company once, to notice concurrent writers. */
const probeEvery = 16;
/** Batches in a row that found no company before writes go back to committing alone. */
const lonelyBatchesToStop = 4;
/** Most writes in one transaction: a fuller batch commits at once. */
const maxBatchWrites = 1000;

/**
 * Group commit: while several writers are active, a write joins one transaction that commits once
 * the event loop has run the rest of what is ready (`setImmediate`), so the writes of many
 * concurrent turns share one COMMIT — one set of file locks and one copy of each shared page —
 * instead of one each. Each write still runs at once (inside a SAVEPOINT when it is a transaction
 * function, so a failing one is undone alone), and its promise settles only when the COMMIT that
 * holds it has succeeded, so "committed" keeps meaning committed.
 *
 * When writes come one at a time, each commits at once, with no wait; one write in `probeEvery`
 * waits a turn of the event loop to see whether others join it (a turn with no I/O of its own
 * runs start to end in one go, so its neighbours only show up once one of its writes waits).
 * Grouping starts when a batch holds two awaited writes and stops after `lonelyBatchesToStop` batches of one.
 *
 * A staged write (`stage`) does not wait at all: it is applied in the open transaction (opening
 * one if needed) and its COMMIT comes with the next awaited write or at the end of the event-loop
 * turn, whichever is first; its `committed` promise settles then (rejecting if that COMMIT failed
 * and the write is lost).
 */
export class GroupCommit {
  readonly #db: Database.Database;
  #batch: Waiter[] | undefined;
  #grouping = false;
  #sinceProbe = 0;
  #lonelyBatches = 0;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Runs `work` (statements or a transaction function) and settles once it is committed. */
  run<T>(work: () => T): Promise<T> {
    let batch = this.#batch;
    let commitNow = false;
    if (batch === undefined) {
      if (!this.#waitForCompany()) return Promise.resolve(work());
      batch = this.#open();
    } else {
      // A write that comes alone commits at once, taking the staged writes before it along.
      commitNow = !this.#grouping && batch.every((waiter) => waiter.staged);
    }
    const result = work();
    const settled = new Promise<T>((resolve, reject) => batch.push({ resolve: () => resolve(result), reject, staged: false }));
    if (commitNow || batch.length >= maxBatchWrites) this.flush();
    return settled;
  }

  /** Applies `work` in the open transaction now and returns without waiting for its COMMIT (see the class comment). */
  stage<T>(work: () => T): StagedWrite<T> {
    const batch = this.#batch ?? this.#open();
    const result = work();
    const committed = new Promise<void>((resolve, reject) => batch.push({ resolve, reject, staged: true }));
    if (batch.length >= maxBatchWrites) this.flush();
    return { result, committed };
  }

  #open(): Waiter[] {
    this.#db.exec('BEGIN IMMEDIATE');
    const batch: Waiter[] = [];
    this.#batch = batch;
    setImmediate(() => this.flush());
    return batch;
  }

  #waitForCompany(): boolean {
    if (this.#grouping) return true;
    if (++this.#sinceProbe < probeEvery) return false;
    this.#sinceProbe = 0;
    return true;
  }

  /** Commits the open batch now (the store calls this before closing). */
  flush(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    const company = batch.reduce((count, waiter) => (waiter.staged ? count : count + 1), 0);
    if (company > 1) {
      this.#grouping = true;
      this.#lonelyBatches = 0;
    } else if (this.#grouping && ++this.#lonelyBatches >= lonelyBatchesToStop) {
      this.#grouping = false;
      this.#lonelyBatches = 0;
    }
    try {
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      for (const waiter of batch) waiter.reject(error);
      return;
    }
    for (const waiter of batch) waiter.resolve();
  }
}
