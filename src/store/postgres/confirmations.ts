import { compareIds } from '../ordered-ids.js';
import { alreadyExists, notFound } from '../records.js';
import { toConfirmation } from '../rows.js';
import type { ConfirmationRow } from '../rows.js';
import type { ClaimResult, ConfirmationRecord } from '../types.js';
import { allRows, firstRow } from './journal.js';
import type { PostgresJournal } from './journal.js';
import { sqlState, uniqueViolation } from './sql.js';

/** The PostgreSQL store's confirmations: created pending, claimed once, resolved or expired. */

/** `values` from `confirmationValues`; the insert finds the turn in the same statement. */
export async function createConfirmation(j: PostgresJournal, id: string, turnId: string, values: (clock: () => number) => unknown[]): Promise<ConfirmationRecord> {
  let rows;
  try {
    ({ rows } = await j.query(j.t.insertConfirmation, values(j.clock)));
  } catch (error) {
    if (sqlState(error) === uniqueViolation) throw alreadyExists('confirmation', id, error);
    throw error;
  }
  if (rows[0] === undefined) throw notFound('turn', turnId);
  return toConfirmation(rows[0] as unknown as ConfirmationRow);
}

export async function getConfirmation(j: PostgresJournal, id: string): Promise<ConfirmationRecord | undefined> {
  const { rows } = await j.query(j.t.getConfirmation, [id]);
  return firstRow(rows, toConfirmation);
}

export async function pendingConfirmations(j: PostgresJournal, turnId: string): Promise<readonly ConfirmationRecord[]> {
  const { rows } = await j.query(j.t.pendingConfirmations, [turnId]);
  return allRows(rows, toConfirmation);
}

/** `expiredText`: the resolution of one that lapsed, as JSON text. */
export async function claimConfirmation(j: PostgresJournal, id: string, owner: string, now: number, expiredText: string): Promise<ClaimResult> {
  // The conditional UPDATE is the claim (its row lock makes concurrent claims, from any process,
  // wait and then find it taken); it commits synchronously even when the journal's other commits
  // do not, so that an approval survives a crash of the database server too.
  const { rows } = await j.sql.transaction(async (query) => {
    await query('set local synchronous_commit to on');
    return query(j.t.claimConfirmation, [id, owner, now, expiredText]);
  });
  const claimed = rows[0];
  if (claimed !== undefined) {
    const record = toConfirmation(claimed as unknown as ConfirmationRow);
    return record.status === 'claimed' ? { outcome: 'claimed', confirmation: record } : { outcome: 'expired', confirmation: record };
  }
  const current = await getConfirmation(j, id);
  if (current === undefined) return { outcome: 'missing' };
  if (current.owner !== owner) return { outcome: 'forbidden' };
  return { outcome: 'unavailable', confirmation: current };
}

export async function resolveConfirmation(j: PostgresJournal, id: string, text: string, now: number): Promise<boolean> {
  return (await j.query(j.t.resolveConfirmation, [id, text, now])).rowCount > 0;
}

export async function resolveClaimedConfirmations(j: PostgresJournal, turnId: string, text: string, now: number): Promise<readonly ConfirmationRecord[]> {
  const { rows } = await j.query(j.t.resolveClaimedConfirmations, [turnId, text, now]);
  return allRows(rows, toConfirmation).sort((a, b) => a.createdAt - b.createdAt || compareIds(a.id, b.id));
}

export async function expireConfirmations(j: PostgresJournal, now: number, text: string): Promise<readonly ConfirmationRecord[]> {
  const { rows } = await j.query(j.t.expireConfirmations, [now, text]);
  return allRows(rows, toConfirmation).sort((a, b) => a.expiresAt - b.expiresAt || compareIds(a.id, b.id));
}
