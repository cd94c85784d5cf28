import { checkStatus, found } from '../records.js';
import { toTurn } from '../rows.js';
import type { TurnRow } from '../rows.js';
import { activeTurnStatuses } from '../types.js';
import type { TurnPatch, TurnRecord, TurnStatus } from '../types.js';
import { one } from './journal.js';
import type { SqliteJournal } from './journal.js';

/** The SQLite store's turns once begun: reads, and patches of their status, failure, usage and lease. */

export function turnOrThrow(j: SqliteJournal, id: string): TurnRecord {
  return found(getTurn(j, id), 'turn', id);
}

export function getTurn(j: SqliteJournal, id: string): TurnRecord | undefined {
  return one(j.sql.getTurn, id, toTurn);
}

export function listTurns(j: SqliteJournal, threadId: string): readonly TurnRecord[] {
  return (j.sql.threadTurns.all(threadId) as TurnRow[]).map(toTurn);
}

export function turnsWithStatus(j: SqliteJournal, status: TurnStatus): readonly TurnRecord[] {
  // Active statuses are read from the small partial index; ended ones need a scan (rare: tools and audits).
  const statement = activeTurnStatuses.includes(status) ? j.sql.turnsWithActiveStatus : j.sql.turnsWithStatus;
  return (statement.all(status) as TurnRow[]).map(toTurn);
}

export function updateTurn(j: SqliteJournal, id: string, patch: TurnPatch, from: readonly TurnStatus[] | undefined): TurnRecord | undefined {
  return j.db
    .transaction(() => {
      const turn = turnOrThrow(j, id);
      if (from !== undefined && !from.includes(turn.status)) return undefined;
      patchTurn(j, id, turn.status, patch, j.clock());
      return turnOrThrow(j, id);
    })
    .immediate();
}

/**
 * A turn patch as one UPDATE: usage is added in SQL, absent fields stay as they are. Only a
 * change that ends a turn (or, on a retry, makes an ended one active again) writes `ended_at`
 * and so the `turns_active` index; other status changes and usage touch the row alone.
 */
export function patchTurn(j: SqliteJournal, turnId: string, currentStatus: string, patch: TurnPatch, now: number): void {
  if (patch.status !== undefined) checkStatus(patch.status);
  const rest = [
    patch.failureCode === undefined ? 0 : 1,
    patch.failureCode ?? null,
    patch.failureMessage === undefined ? 0 : 1,
    patch.failureMessage ?? null,
    patch.lease === undefined ? 0 : 1,
    patch.lease ?? null,
    patch.addUsage?.inputTokens ?? 0,
    patch.addUsage?.outputTokens ?? 0,
    now,
    turnId,
  ];
  const status = patch.status;
  if (status === undefined || status === currentStatus) j.sql.patchTurn.run(...rest);
  else if (activeTurnStatuses.includes(status) === activeTurnStatuses.includes(currentStatus as TurnStatus)) j.sql.patchTurnStatus.run(status, ...rest);
  else j.sql.patchTurnEnded.run(status, activeTurnStatuses.includes(status) ? null : now, ...rest);
}
