import type { JsonValue } from '../core/index.js';
import { turnStatuses } from './types.js';
import type { ConfirmationStatus, JournalCensus, TurnStatus } from './types.js';

/**
 * The outcome a resolved confirmation is counted under (`JournalCensus`): the resolution itself
 * when it is a string (`'expired'`), else its `outcome` field (recovery's `outcome_unknown`), else
 * its `status` field (`executed`, `failed`, `cancelled`), else `other`. The SQL stores compute the
 * same in their census query.
 */
export function resolutionOutcome(resolution: JsonValue | null): string {
  if (typeof resolution === 'string') return resolution;
  if (resolution !== null && typeof resolution === 'object' && !Array.isArray(resolution)) {
    for (const field of ['outcome', 'status']) {
      const value = (resolution as { readonly [key: string]: JsonValue })[field];
      if (typeof value === 'string') return value;
    }
  }
  return 'other';
}

/** One group of a store's census query. */
export interface CensusRows {
  readonly threads: number;
  readonly liveLeases: number;
  readonly stuckTurns: number;
  readonly orphanedConfirmations: number;
  readonly turns: readonly { readonly status: string; readonly count: number }[];
  /** `outcome` is null unless `status` is `resolved`. */
  readonly confirmations: readonly { readonly status: ConfirmationStatus; readonly outcome: string | null; readonly count: number }[];
}

/** The census from a store's grouped counts: every turn status present, 0 when none has it. */
export function censusOf(rows: CensusRows): JournalCensus {
  const turns = Object.fromEntries(turnStatuses.map((status) => [status, 0])) as Record<TurnStatus, number>;
  for (const row of rows.turns) turns[row.status as TurnStatus] += row.count;
  let pending = 0;
  let claimed = 0;
  const resolved: Record<string, number> = {};
  for (const row of rows.confirmations) {
    if (row.status === 'pending') pending += row.count;
    else if (row.status === 'claimed') claimed += row.count;
    else resolved[row.outcome ?? 'other'] = (resolved[row.outcome ?? 'other'] ?? 0) + row.count;
  }
  return { threads: rows.threads, turns, confirmations: { pending, claimed, resolved }, liveLeases: rows.liveLeases, stuckTurns: rows.stuckTurns, orphanedConfirmations: rows.orphanedConfirmations };
}

/** The census of a journal that holds nothing (one not made yet). */
export function emptyCensus(): JournalCensus {
  return censusOf({ threads: 0, liveLeases: 0, stuckTurns: 0, orphanedConfirmations: 0, turns: [], confirmations: [] });
}
