import type { JsonValue } from '../../core/index.js';
import { compareIds } from '../ordered-ids.js';
import { alreadyExists, notFound } from '../records.js';
import type { ClaimResult, ConfirmationRecord, NewConfirmation } from '../types.js';
import { copyJson } from './journal.js';
import type { MemoryJournal } from './journal.js';

/** The memory store's confirmations: created pending, claimed once, resolved or expired. */

export function createConfirmation(j: MemoryJournal, input: NewConfirmation): ConfirmationRecord {
  if (j.confirmations.has(input.id)) throw alreadyExists('confirmation', input.id);
  if (!j.turns.has(input.turnId)) throw notFound('turn', input.turnId);
  const record: ConfirmationRecord = Object.freeze({
    ...input,
    arguments: copyJson(input.arguments),
    actor: copyJson(input.actor),
    createdAt: input.createdAt ?? j.clock(),
    status: 'pending',
    resolvedAt: null,
    resolution: null,
  });
  j.confirmations.set(record.id, record);
  return record;
}

export function pendingConfirmations(j: MemoryJournal, turnId: string): readonly ConfirmationRecord[] {
  return [...j.confirmations.values()].filter((c) => c.turnId === turnId && c.status === 'pending');
}

export function claimConfirmation(j: MemoryJournal, id: string, owner: string, now: number, expiredResolution: JsonValue): ClaimResult {
  const record = j.confirmations.get(id);
  if (record === undefined) return { outcome: 'missing' };
  if (record.owner !== owner) return { outcome: 'forbidden' };
  if (record.status !== 'pending') return { outcome: 'unavailable', confirmation: record };
  if (record.expiresAt <= now) return { outcome: 'expired', confirmation: resolve(j, record, expiredResolution, now) };
  const claimed = Object.freeze({ ...record, status: 'claimed' as const });
  j.confirmations.set(id, claimed);
  return { outcome: 'claimed', confirmation: claimed };
}

/** The confirmation resolved with (a copy of) `resolution`, kept. */
function resolve(j: MemoryJournal, record: ConfirmationRecord, resolution: JsonValue, now: number): ConfirmationRecord {
  const resolved = Object.freeze({ ...record, status: 'resolved' as const, resolution: copyJson(resolution), resolvedAt: now });
  j.confirmations.set(record.id, resolved);
  return resolved;
}

export function resolveConfirmation(j: MemoryJournal, id: string, resolution: JsonValue, now: number): boolean {
  const record = j.confirmations.get(id);
  if (record === undefined || record.status === 'resolved') return false;
  resolve(j, record, resolution, now);
  return true;
}

export function resolveClaimedConfirmations(j: MemoryJournal, turnId: string, resolution: JsonValue, now: number): readonly ConfirmationRecord[] {
  const resolved: ConfirmationRecord[] = [];
  for (const record of j.confirmations.values()) if (record.turnId === turnId && record.status === 'claimed') resolved.push(resolve(j, record, resolution, now));
  return resolved.sort((a, b) => a.createdAt - b.createdAt || compareIds(a.id, b.id));
}

export function expireConfirmations(j: MemoryJournal, now: number, resolution: JsonValue): readonly ConfirmationRecord[] {
  const expired: ConfirmationRecord[] = [];
  for (const record of j.confirmations.values()) if (record.status === 'pending' && record.expiresAt <= now) expired.push(resolve(j, record, resolution, now));
  return expired;
}
