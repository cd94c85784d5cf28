import { newLease } from '../new-records.js';
import { alreadyExists, jsonText } from '../records.js';
import { toItem, toLease, toTurn } from '../rows.js';
import type { ItemRow, LeaseRow, TurnRow } from '../rows.js';
import type { ItemRecord, LeaseRecord, OrphanEnding, TurnRecord } from '../types.js';
import { resolveClaimed } from './confirmations.js';
import { appendItems } from './items.js';
import { one } from './journal.js';
import type { SqliteJournal } from './journal.js';
import { turnOrThrow } from './turns.js';

/** The SQLite store's leases, and the orphaned turns whose lease lapsed (docs/store.md, "Leases"). */

export function acquireLease(j: SqliteJournal, id: string, holder: string, ttlMs: number): LeaseRecord {
  const now = j.clock();
  try {
    j.sql.insertLease.run(id, holder, now, now, now + ttlMs);
  } catch (cause) {
    throw alreadyExists('lease', id, cause);
  }
  return newLease(id, holder, now, ttlMs);
}

export function renewLease(j: SqliteJournal, id: string, ttlMs: number): LeaseRecord | undefined {
  const now = j.clock();
  const row = j.sql.renewLease.get(now, now + ttlMs, id, now) as LeaseRow | undefined;
  return row === undefined ? undefined : toLease(row);
}

export function releaseLease(j: SqliteJournal, id: string): boolean {
  return j.sql.deleteLease.run(id).changes > 0;
}

export function getLease(j: SqliteJournal, id: string): LeaseRecord | undefined {
  return one(j.sql.getLease, id, toLease);
}

export function orphanedTurns(j: SqliteJournal): readonly TurnRecord[] {
  return (j.sql.orphanedTurns.all(j.clock()) as TurnRow[]).map(toTurn);
}

export function endOrphanedTurn(j: SqliteJournal, turnId: string, end: (turn: TurnRecord, turnItems: readonly ItemRecord[]) => OrphanEnding): TurnRecord | undefined {
  return j.db
    .transaction((): TurnRecord | undefined => {
      const row = j.sql.getTurn.get(turnId) as TurnRow | undefined;
      if (row === undefined || (row.status !== 'accepted' && row.status !== 'running')) return undefined;
      if (row.lease_id !== null) {
        const lease = j.sql.getLease.get(row.lease_id) as LeaseRow | undefined;
        if (lease !== undefined && Number(lease.expires_at) > j.clock()) return undefined;
        // Removed with the ending, so that a holder whose clock runs late can never renew it.
        j.sql.deleteLease.run(row.lease_id);
      }
      const turn = toTurn(row);
      const items = (j.sql.turnItems.all(turn.threadId, 0, turnId) as ItemRow[]).map(toItem);
      const ending = end(turn, items);
      if (ending.claimed !== undefined) resolveClaimed(j, turnId, jsonText(ending.claimed, 'a resolution'), j.clock());
      appendItems(j, turnId, ending.items, ending.patch);
      return turnOrThrow(j, turnId);
    })
    .immediate();
}
