import { compareIds } from '../ordered-ids.js';
import { definedOnly, notFound } from '../records.js';
import { toThread } from '../rows.js';
import type { ThreadRow } from '../rows.js';
import type { ThreadPatch, ThreadRecord } from '../types.js';
import { allRows, firstRow } from './journal.js';
import type { PostgresJournal } from './journal.js';

/** The PostgreSQL store's threads, and the retention that deletes old ones with all they hold. */

export async function createThread(j: PostgresJournal, owner: string, title: string | null): Promise<ThreadRecord> {
  const now = j.clock();
  const { rows } = await j.query(j.t.insertThread, [j.ids(), owner, title, now]);
  return toThread(rows[0] as unknown as ThreadRow);
}

export async function getThread(j: PostgresJournal, id: string): Promise<ThreadRecord | undefined> {
  const { rows } = await j.query(j.t.getThread, [id]);
  return firstRow(rows, toThread);
}

/** The owner's threads, most recently updated first; all of them when `limit` is undefined. */
export async function listThreads(j: PostgresJournal, owner: string, limit: number | undefined): Promise<readonly ThreadRecord[]> {
  const { rows } = await j.query(j.t.ownedThreads, [owner, limit ?? null]);
  return allRows(rows, toThread);
}

export async function updateThread(j: PostgresJournal, id: string, patch: ThreadPatch): Promise<ThreadRecord> {
  const fields = definedOnly(patch);
  const flag = (key: keyof ThreadPatch): [boolean, string | null] => [key in fields, fields[key] ?? null];
  const { rows } = await j.query(j.t.updateThread, [id, ...flag('title'), ...flag('summary'), ...flag('summaryThroughItemId'), ...flag('routerSession'), j.clock()]);
  if (rows[0] === undefined) throw notFound('thread', id);
  return toThread(rows[0] as unknown as ThreadRow);
}

export async function deleteThread(j: PostgresJournal, id: string): Promise<boolean> {
  const { rows } = await j.query(j.t.deleteThread, [[id]]);
  return rows.length > 0;
}

export async function deleteThreadsUpdatedBefore(j: PostgresJournal, cutoff: number, limit: number): Promise<readonly string[]> {
  const { rows } = await j.query(j.t.deleteStaleThreads, [cutoff, limit]);
  return rows
    .map((row) => ({ id: String(row.id), updatedAt: Number(row.updated_at) }))
    .sort((a, b) => a.updatedAt - b.updatedAt || compareIds(a.id, b.id))
    .map((row) => row.id);
}

export async function deleteConfirmationsResolvedBefore(j: PostgresJournal, cutoff: number, limit: number): Promise<number> {
  return (await j.query(j.t.deleteResolvedConfirmations, [cutoff, limit])).rowCount;
}
