import { isPlumbError } from '../../core/index.js';
import { confirmation } from './suite.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of inspection: a thread's confirmations, the journal's counts, its ping and migrations. */
export function censusCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('inspection', () => {
    it('counts an empty journal as nothing, every turn status present', async () => {
      expect(await t.store.census()).toEqual({
        threads: 0,
        turns: { accepted: 0, running: 0, waiting: 0, completed: 0, failed: 0, cancelled: 0 },
        confirmations: { pending: 0, claimed: 0, resolved: {} },
        liveLeases: 0,
        stuckTurns: 0,
        orphanedConfirmations: 0,
      });
    });

    it('counts threads, turns by status, confirmations by status and resolved ones by outcome, and live leases', async () => {
      const first = await t.threadWithTurn('user:alice', 'a');
      await t.store.updateTurn(first.turn.id, { status: 'failed', failureCode: 'effect_outcome_unknown' });
      const second = await t.threadWithTurn('user:bob', 'b');
      const carol = await t.store.createThread({ owner: 'user:carol' });
      for (const id of ['waiting', 'cut', 'ran', 'refused', 'lapsed', 'odd']) await t.store.createConfirmation(confirmation(id, first.thread.id, first.turn.id, 'user:alice', t.now + 50));
      await t.store.claimConfirmation('cut', 'user:alice', t.now);
      await t.store.resolveClaimedConfirmations(first.turn.id, { outcome: 'outcome_unknown' }, t.now);
      await t.store.resolveConfirmation('ran', { status: 'executed', result: { id: 7 } }, t.now);
      await t.store.resolveConfirmation('refused', { status: 'cancelled', reason: 'user_rejected' }, t.now);
      await t.store.resolveConfirmation('lapsed', 'expired', t.now);
      await t.store.resolveConfirmation('odd', [1, 2], t.now);
      t.now += 1;
      await t.store.createConfirmation(confirmation('taken', second.thread.id, second.turn.id, 'user:bob', t.now + 50));
      await t.store.createConfirmation(confirmation('fresh', second.thread.id, second.turn.id, 'user:bob', t.now + 50));
      await t.store.claimConfirmation('taken', 'user:bob', t.now);
      await t.store.acquireLease({ id: 'live', holder: 'h:1', ttlMs: 100 });
      await t.store.acquireLease({ id: 'lapsing', holder: 'h:2', ttlMs: 10 });
      // Stuck: the second turn (no lease) and the one whose lease lapses; not the one a live lease runs.
      await t.store.beginTurn({ threadId: carol.id, requestKey: 'c', input: 'c', lease: 'live' });
      const lapsing = await t.threadWithTurn('user:dave', 'd');
      await t.store.updateTurn(lapsing.turn.id, { status: 'running', lease: 'lapsing' });
      t.now += 10;
      expect(await t.store.census()).toEqual({
        threads: 4,
        turns: { accepted: 2, running: 1, waiting: 0, completed: 0, failed: 1, cancelled: 0 },
        confirmations: { pending: 2, claimed: 1, resolved: { outcome_unknown: 1, executed: 1, cancelled: 1, expired: 1, other: 1 } },
        liveLeases: 1,
        stuckTurns: 2,
        // 'waiting' is still pending, and its turn failed.
        orphanedConfirmations: 1,
      });
      const of = async (threadId: string) => (await t.store.threadConfirmations(threadId)).map((c) => [c.id, c.status, c.resolution]);
      expect(await of(second.thread.id)).toEqual([
        ['fresh', 'pending', null],
        ['taken', 'claimed', null],
      ]);
      expect((await of(first.thread.id)).map(([id, status]) => [id, status])).toEqual(['cut', 'lapsed', 'odd', 'ran', 'refused', 'waiting'].map((id) => [id, id === 'waiting' ? 'pending' : 'resolved']));
      expect(await t.store.threadConfirmations('no-such-thread')).toEqual([]);
    });

    it('answers a ping, names its migrations with none pending once open, and refuses both once closed', async () => {
      await t.store.ping();
      const migrations = await t.store.migrations();
      expect(migrations.pending).toEqual([]);
      if (t.options.durable) expect(migrations.applied).toEqual(['0001_journal', '0002_leases', '0003_queue', '0004_thread_pages']);
      else expect(migrations.applied).toEqual([]);
      await t.store.close();
      for (const call of [() => t.store.ping(), () => t.store.migrations()]) {
        const error = await call().then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(error) && error.code).toBe('store_closed');
      }
    });
  });
}
