import { censusOf } from '../census.js';
import { toConfirmation } from '../rows.js';
import type { ConfirmationRecord, ConfirmationStatus, JournalCensus } from '../types.js';
import { allRows } from './journal.js';
import type { PostgresJournal } from './journal.js';

/** The PostgreSQL store's inspection reads: a thread's confirmations, and the journal's counts. */

export async function threadConfirmations(j: PostgresJournal, threadId: string): Promise<readonly ConfirmationRecord[]> {
  const { rows } = await j.query(j.t.threadConfirmations, [threadId]);
  return allRows(rows, toConfirmation);
}

interface CensusRow {
  readonly part: 'threads' | 'leases' | 'stuck' | 'orphaned' | 'turn' | 'confirmation';
  readonly status: string | null;
  readonly outcome: string | null;
  /** `count(*)` is a bigint, which pg hands over as text. */
  readonly count: string;
}

/** One statement, so that the counts are of one snapshot. */
export async function census(j: PostgresJournal): Promise<JournalCensus> {
  const { rows } = await j.query(j.t.census, [j.clock()]);
  const parts = rows as unknown as CensusRow[];
  const total = (part: CensusRow['part']): number => Number(parts.find((row) => row.part === part)?.count ?? 0);
  return censusOf({
    threads: total('threads'),
    liveLeases: total('leases'),
    stuckTurns: total('stuck'),
    orphanedConfirmations: total('orphaned'),
    turns: parts.filter((row) => row.part === 'turn').map((row) => ({ status: row.status ?? '', count: Number(row.count) })),
    confirmations: parts.filter((row) => row.part === 'confirmation').map((row) => ({ status: row.status as ConfirmationStatus, outcome: row.outcome, count: Number(row.count) })),
  });
}
