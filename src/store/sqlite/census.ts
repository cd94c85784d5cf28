import { censusOf } from '../census.js';
import type { CensusRows } from '../census.js';
import { toConfirmation } from '../rows.js';
import type { ConfirmationRow } from '../rows.js';
import type { ConfirmationRecord, JournalCensus } from '../types.js';
import type { SqliteJournal } from './journal.js';

/** The SQLite store's inspection reads: a thread's confirmations, and the journal's counts. */

export function threadConfirmations(j: SqliteJournal, threadId: string): readonly ConfirmationRecord[] {
  return (j.sql.threadConfirmations.all(threadId) as ConfirmationRow[]).map(toConfirmation);
}

/** In one read transaction, so that the counts are of one moment. */
export function census(j: SqliteJournal): JournalCensus {
  return j.db.transaction(() => {
    const now = j.clock();
    const totals = j.sql.censusTotals.get(now, now) as { threads: number; live_leases: number; stuck_turns: number; orphaned_confirmations: number };
    return censusOf({
      threads: totals.threads,
      liveLeases: totals.live_leases,
      stuckTurns: totals.stuck_turns,
      orphanedConfirmations: totals.orphaned_confirmations,
      turns: j.sql.turnCounts.all() as CensusRows['turns'],
      confirmations: j.sql.confirmationCounts.all() as CensusRows['confirmations'],
    });
  })();
}
