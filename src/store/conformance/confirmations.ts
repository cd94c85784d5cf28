import { isPlumbError } from '../../core/index.js';
import { confirmation } from './suite.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of confirmations: pending, claimed once, resolved, expired. */
export function confirmationCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('confirmations', () => {
    it('lets exactly one of many concurrent claims win', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', t.now + 30_000));
      expect((await t.store.pendingConfirmations(turn.id)).map((c) => c.id)).toEqual(['c1']);
      const results = await Promise.all(Array.from({ length: 50 }, () => t.store.claimConfirmation('c1', 'user:alice', t.now)));
      expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
      expect(results.filter((r) => r.outcome === 'unavailable')).toHaveLength(49);
      expect(await t.store.pendingConfirmations(turn.id)).toEqual([]);
      expect(await t.store.resolveConfirmation('c1', 'approved', t.now)).toBe(true);
      expect(await t.store.resolveConfirmation('c1', 'rejected', t.now)).toBe(false);
      expect(await t.store.getConfirmation('c1')).toMatchObject({ status: 'resolved', resolution: 'approved', resolvedAt: t.now });
      expect((await t.store.claimConfirmation('c1', 'user:alice', t.now)).outcome).toBe('unavailable');
    });

    it('refuses another owner and an unknown id', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', t.now + 30_000));
      expect((await t.store.claimConfirmation('c1', 'user:bob', t.now)).outcome).toBe('forbidden');
      expect((await t.store.claimConfirmation('zzz', 'user:alice', t.now)).outcome).toBe('missing');
      expect((await t.store.getConfirmation('c1'))?.status).toBe('pending');
    });

    it('records expiry when a claim comes too late', async () => {
      const { thread, turn } = await t.threadWithTurn();
      const created = await t.store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', t.now + 30_000));
      expect(created).toMatchObject({ status: 'pending', arguments: { name: 'Bolt' }, expiresAt: t.now + 30_000, resolution: null });
      t.now += 30_000;
      const late = await t.store.claimConfirmation('c1', 'user:alice', t.now);
      expect(late).toMatchObject({ outcome: 'expired', confirmation: { status: 'resolved', resolution: 'expired', resolvedAt: t.now } });
    });

    it('sweeps lapsed confirmations with the given resolution, once', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.createConfirmation(confirmation('early', thread.id, turn.id, 'user:alice', t.now + 10));
      await t.store.createConfirmation(confirmation('late', thread.id, turn.id, 'user:alice', t.now + 1000));
      t.now += 10;
      const swept = await t.store.expireConfirmations(t.now, { status: 'cancelled', reason: 'confirmation_timed_out' });
      expect(swept.map((c) => c.id)).toEqual(['early']);
      expect(swept[0]).toMatchObject({ status: 'resolved', resolution: { status: 'cancelled', reason: 'confirmation_timed_out' }, actor: { kind: 'user', id: 'alice' } });
      expect(await t.store.expireConfirmations(t.now, 'expired')).toEqual([]);
      expect((await t.store.pendingConfirmations(turn.id)).map((c) => c.id)).toEqual(['late']);
    });

    it('refuses a duplicate confirmation id', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', t.now + 1));
      const error = await t.store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', t.now + 1)).then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(error) && error.code).toBe('store_invalid_record');
    });
  });
}
