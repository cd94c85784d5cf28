import type { Actor } from '../core/index.js';
import { sameActor, timedOut } from './confirmation-store.js';
import type { ClaimOutcome, ConfirmationResolution, ConfirmationStore, PendingConfirmation } from './confirmation-store.js';

export interface MemoryConfirmationStoreOptions {
  /** Most records kept; the oldest resolved ones go first, then the oldest pending. Default 10,000. */
  readonly maxRecords?: number;
}

/**
 * Confirmations in one process's memory. Each method does its check-and-set without awaiting in
 * between, so a claim is atomic against every other call in the process.
 */
export function createMemoryConfirmationStore(options: MemoryConfirmationStoreOptions = {}): ConfirmationStore {
  const maxRecords = options.maxRecords ?? 10_000;
  const records = new Map<string, PendingConfirmation>();

  const evict = (): void => {
    if (records.size <= maxRecords) return;
    for (const [id, record] of records) {
      if (record.state === 'resolved') records.delete(id);
      if (records.size <= maxRecords) return;
    }
    for (const id of records.keys()) {
      records.delete(id);
      if (records.size <= maxRecords) return;
    }
  };

  const settle = (record: PendingConfirmation, resolution: ConfirmationResolution, now: Date): PendingConfirmation => {
    const resolved: PendingConfirmation = Object.freeze({ ...record, state: 'resolved', resolution, resolvedAt: now.toISOString() });
    records.set(record.id, resolved);
    return resolved;
  };

  return {
    create(record) {
      if (records.has(record.id)) return Promise.reject(new Error(`Confirmation '${record.id}' already exists.`));
      records.set(record.id, Object.freeze({ ...record }));
      evict();
      return Promise.resolve();
    },
    get(id) {
      return Promise.resolve(records.get(id));
    },
    claim(id: string, actor: Actor, now: Date): Promise<ClaimOutcome> {
      const record = records.get(id);
      if (record === undefined || !sameActor(record.actor, actor)) return Promise.resolve({ ok: false, reason: 'unknown' });
      if (record.state !== 'pending') return Promise.resolve({ ok: false, reason: 'used' });
      if (Date.parse(record.expiresAt) <= now.getTime()) {
        settle(record, timedOut, now);
        return Promise.resolve({ ok: false, reason: 'expired' });
      }
      const claimed: PendingConfirmation = Object.freeze({ ...record, state: 'claimed' });
      records.set(id, claimed);
      return Promise.resolve({ ok: true, record: claimed });
    },
    resolve(id, resolution, now) {
      const record = records.get(id);
      if (record !== undefined && record.state !== 'resolved') settle(record, resolution, now);
      return Promise.resolve();
    },
    expire(now) {
      const expired: PendingConfirmation[] = [];
      for (const record of records.values()) {
        if (record.state === 'pending' && Date.parse(record.expiresAt) <= now.getTime()) expired.push(settle(record, timedOut, now));
      }
      return Promise.resolve(expired);
    },
  };
}
