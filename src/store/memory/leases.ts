import { newLease } from '../new-records.js';
import { alreadyExists } from '../records.js';
import type { ItemRecord, LeaseRecord, OrphanEnding, TurnRecord } from '../types.js';
import { resolveClaimedConfirmations } from './confirmations.js';
import { appendItems } from './items.js';
import { threadState } from './journal.js';
import type { MemoryJournal } from './journal.js';

/** The memory store's leases, and the orphaned turns whose lease lapsed (docs/store.md, "Leases"). */

export function acquireLease(j: MemoryJournal, id: string, holder: string, ttlMs: number): LeaseRecord {
  if (j.leases.has(id)) throw alreadyExists('lease', id);
  const lease = newLease(id, holder, j.clock(), ttlMs);
  j.leases.set(lease.id, lease);
  return lease;
}

export function renewLease(j: MemoryJournal, id: string, ttlMs: number): LeaseRecord | undefined {
  const lease = j.leases.get(id);
  const now = j.clock();
  if (lease === undefined || lease.expiresAt <= now) return undefined;
  const renewed: LeaseRecord = Object.freeze({ ...lease, heartbeatAt: now, expiresAt: now + ttlMs });
  j.leases.set(id, renewed);
  return renewed;
}

function orphaned(j: MemoryJournal, turn: TurnRecord, now: number): boolean {
  if (turn.status !== 'accepted' && turn.status !== 'running') return false;
  const lease = turn.lease === null ? undefined : j.leases.get(turn.lease);
  return lease === undefined || lease.expiresAt <= now;
}

export function orphanedTurns(j: MemoryJournal): readonly TurnRecord[] {
  const now = j.clock();
  return [...j.turns.values()].filter((turn) => orphaned(j, turn, now));
}

export function endOrphanedTurn(j: MemoryJournal, turnId: string, end: (turn: TurnRecord, turnItems: readonly ItemRecord[]) => OrphanEnding): TurnRecord | undefined {
  const turn = j.turns.get(turnId);
  if (turn === undefined || !orphaned(j, turn, j.clock())) return undefined;
  if (turn.lease !== null) j.leases.delete(turn.lease);
  const state = threadState(j, turn.threadId);
  const ending = end(turn, state.items.filter((item) => item.turnId === turnId));
  if (ending.claimed !== undefined) resolveClaimedConfirmations(j, turnId, ending.claimed, j.clock());
  appendItems(j, turnId, ending.items, ending.patch);
  return j.turns.get(turnId);
}
