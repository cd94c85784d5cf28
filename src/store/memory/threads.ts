import { compareIds } from '../ordered-ids.js';
import { definedOnly } from '../records.js';
import type { ThreadPatch, ThreadRecord } from '../types.js';
import { activeTurn, requestKeyOf, threadState } from './journal.js';
import type { MemoryJournal, ThreadState } from './journal.js';

/** The memory store's threads, and the retention that deletes old ones with all they hold. */

/** The owner's most recently updated thread, without sorting them all. */
export function latestState(j: MemoryJournal, owner: string): ThreadState | undefined {
  let best: ThreadState | undefined;
  for (const id of j.byOwner.get(owner) ?? []) {
    const state = j.threads.get(id);
    if (state !== undefined && (best === undefined || newestFirst(state.record, best.record) < 0)) best = state;
  }
  return best;
}

/** The owner's threads, most recently updated first. */
export function ownedThreads(j: MemoryJournal, owner: string): ThreadRecord[] {
  const out: ThreadRecord[] = [];
  for (const id of j.byOwner.get(owner) ?? []) {
    const state = j.threads.get(id);
    if (state !== undefined) out.push(state.record);
  }
  return out.sort(newestFirst);
}

export function updateThread(j: MemoryJournal, id: string, patch: ThreadPatch): ThreadRecord {
  const state = threadState(j, id);
  state.record = Object.freeze({ ...state.record, ...definedOnly(patch), updatedAt: j.clock() });
  return state.record;
}

export function deleteThread(j: MemoryJournal, id: string): boolean {
  const state = j.threads.get(id);
  if (state === undefined) return false;
  forget(j, state);
  return true;
}

/** The thread and everything under it. */
function forget(j: MemoryJournal, state: ThreadState): void {
  const id = state.record.id;
  for (const turnId of state.turnIds) {
    const turn = j.turns.get(turnId);
    if (turn !== undefined) j.requestKeys.delete(requestKeyOf(turn.owner, turn.requestKey));
    j.turns.delete(turnId);
  }
  for (const [key, confirmation] of j.confirmations) if (confirmation.threadId === id) j.confirmations.delete(key);
  for (const [key, queued] of j.queue) if (queued.message.threadId === id) j.queue.delete(key);
  j.threads.delete(id);
  const owned = j.byOwner.get(state.record.owner);
  owned?.delete(id);
  if (owned?.size === 0) j.byOwner.delete(state.record.owner);
}

export function deleteThreadsUpdatedBefore(j: MemoryJournal, cutoff: number, limit: number): readonly string[] {
  const stale: ThreadState[] = [];
  for (const state of j.threads.values()) if (state.record.updatedAt < cutoff && activeTurn(j, state) === undefined) stale.push(state);
  stale.sort((a, b) => a.record.updatedAt - b.record.updatedAt || compareIds(a.record.id, b.record.id));
  const deleted = stale.slice(0, limit);
  for (const state of deleted) forget(j, state);
  return deleted.map((state) => state.record.id);
}

export function deleteConfirmationsResolvedBefore(j: MemoryJournal, cutoff: number, limit: number): number {
  const old = [...j.confirmations.values()].filter((c) => c.status === 'resolved' && c.resolvedAt !== null && c.resolvedAt < cutoff);
  old.sort((a, b) => (a.resolvedAt ?? 0) - (b.resolvedAt ?? 0) || compareIds(a.id, b.id));
  const deleted = old.slice(0, limit);
  for (const record of deleted) j.confirmations.delete(record.id);
  return deleted.length;
}

function newestFirst(a: ThreadRecord, b: ThreadRecord): number {
  return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
