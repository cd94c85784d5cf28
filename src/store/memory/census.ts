import { censusOf, resolutionOutcome } from '../census.js';
import { compareIds } from '../ordered-ids.js';
import { activeTurnStatuses } from '../types.js';
import type { ConfirmationRecord, ConfirmationStatus, JournalCensus } from '../types.js';
import type { MemoryJournal } from './journal.js';
import { orphanedTurns } from './leases.js';

/** The memory store's inspection reads: a thread's confirmations, and the journal's counts. */

export function threadConfirmations(j: MemoryJournal, threadId: string): readonly ConfirmationRecord[] {
  return [...j.confirmations.values()].filter((c) => c.threadId === threadId).sort((a, b) => a.createdAt - b.createdAt || compareIds(a.id, b.id));
}

export function census(j: MemoryJournal): JournalCensus {
  const now = j.clock();
  const turns = new Map<string, number>();
  for (const turn of j.turns.values()) turns.set(turn.status, (turns.get(turn.status) ?? 0) + 1);
  const confirmations = new Map<string, { status: ConfirmationStatus; outcome: string | null; count: number }>();
  for (const c of j.confirmations.values()) {
    const outcome = c.status === 'resolved' ? resolutionOutcome(c.resolution) : null;
    const key = `${c.status}\u0000${outcome ?? ''}`;
    const group = confirmations.get(key) ?? { status: c.status, outcome, count: 0 };
    group.count += 1;
    confirmations.set(key, group);
  }
  return censusOf({
    threads: j.threads.size,
    liveLeases: [...j.leases.values()].filter((lease) => lease.expiresAt > now).length,
    stuckTurns: orphanedTurns(j).length,
    orphanedConfirmations: [...j.confirmations.values()].filter((c) => c.status !== 'resolved' && !activeTurnStatuses.includes(j.turns.get(c.turnId)?.status ?? 'completed')).length,
    turns: [...turns].map(([status, count]) => ({ status, count })),
    confirmations: [...confirmations.values()],
  });
}
