import { alreadyExists, found } from '../records.js';
import { toConfirmation } from '../rows.js';
import type { ConfirmationRow } from '../rows.js';
import type { ClaimResult, ConfirmationRecord } from '../types.js';
import { one } from './journal.js';
import type { SqliteJournal } from './journal.js';
import { turnOrThrow } from './turns.js';

/** The SQLite store's confirmations: created pending, claimed once, resolved or expired. */

/** `values` from `confirmationValues`, made at the insert. */
export function createConfirmation(j: SqliteJournal, id: string, turnId: string, values: (clock: () => number) => unknown[]): ConfirmationRecord {
  j.db
    .transaction(() => {
      turnOrThrow(j, turnId);
      try {
        j.sql.insertConfirmation.run(...values(j.clock));
      } catch (cause) {
        throw alreadyExists('confirmation', id, cause);
      }
    })
    .immediate();
  return confirmationOrThrow(j, id);
}

function confirmationOrThrow(j: SqliteJournal, id: string): ConfirmationRecord {
  return found(getConfirmation(j, id), 'confirmation', id);
}

export function getConfirmation(j: SqliteJournal, id: string): ConfirmationRecord | undefined {
  return one(j.sql.getConfirmation, id, toConfirmation);
}

export function pendingConfirmations(j: SqliteJournal, turnId: string): readonly ConfirmationRecord[] {
  return (j.sql.pendingConfirmations.all(turnId) as ConfirmationRow[]).map(toConfirmation);
}

/** `expiredText`: the resolution of one that lapsed, as JSON text. */
export function claimConfirmation(j: SqliteJournal, id: string, owner: string, now: number, expiredText: string): ClaimResult {
  return j.db
    .transaction((): ClaimResult => {
      const row = j.sql.getConfirmation.get(id) as ConfirmationRow | undefined;
      if (row === undefined) return { outcome: 'missing' };
      if (row.owner !== owner) return { outcome: 'forbidden' };
      if (row.expires_at <= now) {
        if (j.sql.expireConfirmation.run(expiredText, now, id).changes > 0) return { outcome: 'expired', confirmation: confirmationOrThrow(j, id) };
        return { outcome: 'unavailable', confirmation: toConfirmation(row) };
      }
      // The conditional UPDATE is the claim: only one caller ever changes a pending row.
      if (j.sql.claimConfirmation.run(id).changes === 0) return { outcome: 'unavailable', confirmation: confirmationOrThrow(j, id) };
      return { outcome: 'claimed', confirmation: confirmationOrThrow(j, id) };
    })
    .immediate();
}

export function resolveConfirmation(j: SqliteJournal, id: string, text: string, now: number): boolean {
  return j.sql.resolveConfirmation.run(text, now, id).changes > 0;
}

/** Inside a transaction: the turn's claimed confirmations resolved with `text`. */
export function resolveClaimed(j: SqliteJournal, turnId: string, text: string, now: number): string[] {
  const ids = j.sql.claimedConfirmations.all(turnId) as string[];
  for (const id of ids) j.sql.resolveConfirmation.run(text, now, id);
  return ids;
}

export function resolveClaimedConfirmations(j: SqliteJournal, turnId: string, text: string, now: number): readonly ConfirmationRecord[] {
  return j.db.transaction(() => resolveClaimed(j, turnId, text, now).map((id) => confirmationOrThrow(j, id))).immediate();
}

export function expireConfirmations(j: SqliteJournal, now: number, text: string): readonly ConfirmationRecord[] {
  return j.db
    .transaction(() => {
      const ids = j.sql.lapsedConfirmations.all(now) as string[];
      const out: ConfirmationRecord[] = [];
      for (const id of ids) if (j.sql.expireConfirmation.run(text, now, id).changes > 0) out.push(confirmationOrThrow(j, id));
      return out;
    })
    .immediate();
}
