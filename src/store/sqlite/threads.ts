import { definedOnly, found } from '../records.js';
import { toThread } from '../rows.js';
import type { ThreadRow } from '../rows.js';
import type { ThreadPatch, ThreadRecord } from '../types.js';
import { one } from './journal.js';
import type { SqliteJournal } from './journal.js';

/** The SQLite store's threads, and the retention that deletes old ones with all they hold. */

export function createThread(j: SqliteJournal, owner: string, title: string | null): ThreadRecord {
  const now = j.clock();
  const id = j.ids();
  j.sql.insertThread.run(id, owner, title, now, now);
  return threadOrThrow(j, id);
}

export function threadOrThrow(j: SqliteJournal, id: string): ThreadRecord {
  return found(getThread(j, id), 'thread', id);
}

export function getThread(j: SqliteJournal, id: string): ThreadRecord | undefined {
  return one(j.sql.getThread, id, toThread);
}

/** The owner's threads, most recently updated first; `limit` -1 for all. */
export function ownedThreads(j: SqliteJournal, owner: string, limit: number): ThreadRecord[] {
  return (j.sql.ownedThreads.all(owner, limit) as ThreadRow[]).map(toThread);
}

export function updateThread(j: SqliteJournal, id: string, patch: ThreadPatch): ThreadRecord {
  const current = threadOrThrow(j, id);
  const next = { ...current, ...definedOnly(patch) };
  j.sql.updateThread.run(next.title, next.summary, next.summaryThroughItemId, next.routerSession, j.clock(), id);
  return threadOrThrow(j, id);
}

export function deleteThread(j: SqliteJournal, id: string): boolean {
  return j.db.transaction(() => deleteThreadRows(j, id)).immediate();
}

/** Inside a transaction: the thread and everything under it. */
function deleteThreadRows(j: SqliteJournal, id: string): boolean {
  j.sql.deleteConfirmations.run(id);
  j.sql.deleteThreadQueue.run(id);
  j.sql.deleteTurns.run(id);
  j.sql.deleteItems.run(id);
  return j.sql.deleteThread.run(id).changes > 0;
}

export function deleteThreadsUpdatedBefore(j: SqliteJournal, cutoff: number, limit: number): readonly string[] {
  return j.db
    .transaction(() => {
      const ids = j.sql.staleThreads.all(cutoff, limit) as string[];
      for (const id of ids) deleteThreadRows(j, id);
      return ids;
    })
    .immediate();
}

export function deleteConfirmationsResolvedBefore(j: SqliteJournal, cutoff: number, limit: number): number {
  return j.sql.deleteResolvedConfirmations.run(cutoff, limit).changes;
}
