import { checkStatus, notFound } from '../records.js';
import { toTurn } from '../rows.js';
import type { TurnRow } from '../rows.js';
import { activeTurnStatuses } from '../types.js';
import type { TurnPatch, TurnRecord, TurnStatus } from '../types.js';
import { allRows, firstRow } from './journal.js';
import type { PostgresJournal } from './journal.js';
import { sqlState, uniqueViolation, violatedConstraint } from './sql.js';

/** The PostgreSQL store's turns once begun: reads, and patches of their status, failure, usage and lease. */

export async function getTurn(j: PostgresJournal, id: string): Promise<TurnRecord | undefined> {
  const { rows } = await j.query(j.t.getTurn, [id]);
  return firstRow(rows, toTurn);
}

export async function listTurns(j: PostgresJournal, threadId: string): Promise<readonly TurnRecord[]> {
  const { rows } = await j.query(j.t.threadTurns, [threadId]);
  return allRows(rows, toTurn);
}

export async function turnsWithStatus(j: PostgresJournal, status: TurnStatus): Promise<readonly TurnRecord[]> {
  const statement = activeTurnStatuses.includes(status) ? j.t.turnsWithActiveStatus : j.t.turnsWithStatus;
  const { rows } = await j.query(statement, [status]);
  return allRows(rows, toTurn);
}

export async function updateTurn(j: PostgresJournal, id: string, patch: TurnPatch, from: readonly TurnStatus[] | undefined): Promise<TurnRecord | undefined> {
  if (patch.status !== undefined) checkStatus(patch.status);
  let rows;
  try {
    ({ rows } = await j.query(j.t.updateTurn, [id, ...patchValues(patch), j.clock(), from === undefined ? null : [...from]]));
  } catch (error) {
    // A retry that would make a second turn of the thread active: the thread is busy.
    if (sqlState(error) === uniqueViolation && violatedConstraint(error)?.endsWith('turns_active') === true) return undefined;
    throw error;
  }
  if (rows[0] !== undefined) return toTurn(rows[0] as unknown as TurnRow);
  if ((await getTurn(j, id)) === undefined) throw notFound('turn', id);
  return undefined;
}

/** A turn patch as the nine values the patch statements take after the turn id. */
export function patchValues(patch: TurnPatch): unknown[] {
  return [
    patch.status ?? null,
    patch.failureCode !== undefined,
    patch.failureCode ?? null,
    patch.failureMessage !== undefined,
    patch.failureMessage ?? null,
    patch.addUsage?.inputTokens ?? 0,
    patch.addUsage?.outputTokens ?? 0,
    patch.lease !== undefined,
    patch.lease ?? null,
  ];
}
