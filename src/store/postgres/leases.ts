import { alreadyExists, jsonText } from '../records.js';
import { toItem, toLease, toTurn } from '../rows.js';
import type { LeaseRow, TurnRow } from '../rows.js';
import type { ItemRecord, LeaseRecord, OrphanEnding, TurnRecord } from '../types.js';
import { append } from './items.js';
import { allRows, firstRow } from './journal.js';
import type { PostgresJournal } from './journal.js';
import { sqlState, uniqueViolation } from './sql.js';

/** The PostgreSQL store's leases, and the orphaned turns whose lease lapsed (docs/store.md, "Leases"). */

export async function acquireLease(j: PostgresJournal, id: string, holder: string, ttlMs: number): Promise<LeaseRecord> {
  const now = j.clock();
  try {
    const { rows } = await j.query(j.t.insertLease, [id, holder, now, now + ttlMs]);
    return toLease(rows[0] as unknown as LeaseRow);
  } catch (error) {
    if (sqlState(error) === uniqueViolation) throw alreadyExists('lease', id, error);
    throw error;
  }
}

export async function renewLease(j: PostgresJournal, id: string, ttlMs: number): Promise<LeaseRecord | undefined> {
  const now = j.clock();
  const { rows } = await j.query(j.t.renewLease, [id, now, now + ttlMs]);
  return firstRow(rows, toLease);
}

export async function releaseLease(j: PostgresJournal, id: string): Promise<boolean> {
  return (await j.query(j.t.deleteLease, [id])).rowCount > 0;
}

export async function getLease(j: PostgresJournal, id: string): Promise<LeaseRecord | undefined> {
  const { rows } = await j.query(j.t.getLease, [id]);
  return firstRow(rows, toLease);
}

export async function orphanedTurns(j: PostgresJournal): Promise<readonly TurnRecord[]> {
  const { rows } = await j.query(j.t.orphanedTurns, [j.clock()]);
  return allRows(rows, toTurn);
}

export async function endOrphanedTurn(j: PostgresJournal, turnId: string, end: (turn: TurnRecord, turnItems: readonly ItemRecord[]) => OrphanEnding): Promise<TurnRecord | undefined> {
  const located = await j.query(j.t.getTurn, [turnId]);
  const threadId = located.rows[0]?.thread_id;
  if (typeof threadId !== 'string') return undefined;
  return j.sql.transaction(async (query) => {
    // Thread, then turn, then lease: the order in which an append and a renewal take them, so
    // that a late append of the lease's holder waits here instead of deadlocking.
    await query(j.t.lockThread, [threadId]);
    const locked = (await query(j.t.lockTurn, [turnId])).rows[0] as unknown as TurnRow | undefined;
    if (locked === undefined || (locked.status !== 'accepted' && locked.status !== 'running')) return undefined;
    if (locked.lease_id !== null) {
      const lease = (await query(j.t.lockLease, [locked.lease_id])).rows[0];
      if (lease !== undefined && Number(lease.expires_at) > j.clock()) return undefined;
      await query(j.t.deleteLease, [locked.lease_id]);
    }
    const turn = toTurn(locked);
    const items = allRows((await query(j.t.turnItems, [threadId, 0, turnId])).rows, toItem);
    const ending = end(turn, items);
    if (ending.claimed !== undefined) await query(j.t.resolveClaimedConfirmations, [turnId, jsonText(ending.claimed, 'a resolution'), j.clock()]);
    await append(j, query, turnId, ending.items, ending.patch);
    return toTurn((await query(j.t.getTurn, [turnId])).rows[0] as unknown as TurnRow);
  });
}
