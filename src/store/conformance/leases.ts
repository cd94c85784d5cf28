import { isPlumbError } from '../../core/index.js';
import { confirmation } from './suite.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of leases, fenced writes, and the recovery of orphaned turns. */
export function leaseCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('leases', () => {
    const ending = (turn: { readonly id: string }, items: readonly { readonly kind: string }[]) => ({
      items: [{ kind: 'error' as const, data: { code: 'interrupted', items: items.length, turn: turn.id } }],
      patch: { status: 'failed' as const, failureCode: 'interrupted', failureMessage: 'stopped' },
    });

    it('keeps a lease alive while it is renewed in time, and loses it for good once it lapsed', async () => {
      const lease = await t.store.acquireLease({ id: 'engine-a', holder: 'host:1', ttlMs: 1000 });
      expect(lease).toEqual({ id: 'engine-a', holder: 'host:1', acquiredAt: t.now, heartbeatAt: t.now, expiresAt: t.now + 1000 });
      t.now += 999;
      expect(await t.store.renewLease('engine-a', 1000)).toMatchObject({ heartbeatAt: t.now, expiresAt: t.now + 1000 });
      t.now += 1000;
      expect(await t.store.renewLease('engine-a', 1000)).toBeUndefined();
      expect(await t.store.renewLease('never-acquired', 1000)).toBeUndefined();
      const taken = await t.store.acquireLease({ id: 'engine-a', holder: 'host:2', ttlMs: 1000 }).then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(taken) && taken.code).toBe('store_invalid_record');
      expect(await t.store.releaseLease('engine-a')).toBe(true);
      expect(await t.store.releaseLease('engine-a')).toBe(false);
      expect(await t.store.getLease('engine-a')).toBeUndefined();
    });

    it('records the lease a turn runs under, and the lease of the engine that resumes it', async () => {
      await t.store.acquireLease({ id: 'a', holder: 'host:1', ttlMs: 5000 });
      const thread = await t.store.createThread({ owner: 'user:alice' });
      const begun = await t.store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi', lease: 'a' });
      expect(begun.turn.lease).toBe('a');
      await t.store.updateTurn(begun.turn.id, { status: 'waiting' });
      expect(await t.store.updateTurn(begun.turn.id, { status: 'running', lease: 'b' }, ['waiting'])).toMatchObject({ status: 'running', lease: 'b' });
      await t.store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'x' } }], { status: 'completed' });
      expect(await t.store.getTurn(begun.turn.id)).toMatchObject({ status: 'completed', lease: 'b' });
      const plain = await t.threadWithTurn('user:bob', 'no-lease');
      expect(plain.turn.lease).toBeNull();
    });

    it('finds as orphaned only the accepted and running turns whose lease is missing, released or lapsed', async () => {
      await t.store.acquireLease({ id: 'live', holder: 'host:1', ttlMs: 1000 });
      await t.store.acquireLease({ id: 'short', holder: 'host:2', ttlMs: 10 });
      const begin = async (owner: string, lease?: string) => {
        const thread = await t.store.createThread({ owner });
        t.now += 1;
        const begun = await t.store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi', ...(lease === undefined ? {} : { lease }) });
        return begun.turn;
      };
      const live = await begin('user:a', 'live');
      const running = await begin('user:b', 'short');
      await t.store.updateTurn(running.id, { status: 'running' });
      const unleased = await begin('user:c');
      const waiting = await begin('user:d', 'short');
      await t.store.updateTurn(waiting.id, { status: 'waiting' });
      const ended = await begin('user:e', 'short');
      await t.store.updateTurn(ended.id, { status: 'completed' });
      expect((await t.store.orphanedTurns()).map((turn) => turn.id)).toEqual([unleased.id]);
      t.now += 10;
      expect((await t.store.orphanedTurns()).map((turn) => turn.id)).toEqual([running.id, unleased.id]);
      await t.store.releaseLease('live');
      expect((await t.store.orphanedTurns()).map((turn) => turn.id)).toEqual([live.id, running.id, unleased.id]);
    });

    it("ends an orphaned turn with its items in one step, never a live engine's, and takes the lapsed lease away", async () => {
      await t.store.acquireLease({ id: 'a', holder: 'host:1', ttlMs: 1000 });
      const thread = await t.store.createThread({ owner: 'user:alice' });
      const begun = await t.store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi', lease: 'a' });
      await t.store.appendItems(begun.turn.id, [{ kind: 'tool_call', data: { callId: 'c1' } }], { status: 'running' });
      let called = 0;
      const counted = (turn: { readonly id: string }, items: readonly { readonly kind: string }[]) => {
        called++;
        return ending(turn, items);
      };
      expect(await t.store.endOrphanedTurn(begun.turn.id, counted)).toBeUndefined();
      expect(called).toBe(0);
      expect((await t.store.getTurn(begun.turn.id))?.status).toBe('running');
      t.now += 1000;
      const ended = await t.store.endOrphanedTurn(begun.turn.id, counted);
      expect(ended).toMatchObject({ id: begun.turn.id, status: 'failed', failureCode: 'interrupted' });
      expect(called).toBe(1);
      expect((await t.store.listItems(thread.id)).map((item) => [item.ordinal, item.kind, item.data])).toEqual([
        [1, 'user_text', { text: 'hi' }],
        [2, 'tool_call', { callId: 'c1' }],
        [3, 'error', { code: 'interrupted', items: 2, turn: begun.turn.id }],
      ]);
      expect(await t.store.endOrphanedTurn(begun.turn.id, counted)).toBeUndefined();
      expect(called).toBe(1);
      // A holder whose clock runs behind cannot renew a lease whose turn was ended.
      t.now -= 500;
      expect(await t.store.renewLease('a', 1000)).toBeUndefined();
      expect(await t.store.endOrphanedTurn('no-such-turn', counted)).toBeUndefined();
    });

    it("resolves an ended orphan's claimed confirmations in the same step, and only its claimed ones", async () => {
      const { thread, turn } = await t.threadWithTurn();
      for (const id of ['cut', 'waiting']) await t.store.createConfirmation(confirmation(id, thread.id, turn.id, 'user:alice', t.now + 50));
      await t.store.claimConfirmation('cut', 'user:alice', t.now);
      const unknown = { outcome: 'outcome_unknown' };
      expect(await t.store.endOrphanedTurn(turn.id, (ended, items) => ({ ...ending(ended, items), claimed: unknown }))).toMatchObject({ status: 'failed' });
      expect(await t.store.getConfirmation('cut')).toMatchObject({ status: 'resolved', resolution: unknown, resolvedAt: t.now });
      expect((await t.store.getConfirmation('waiting'))?.status).toBe('pending');
    });

    it('fences a running turn\'s writes by its lease: lease_lost once recovered or taken over, and nothing of the write kept', async () => {
      await t.store.acquireLease({ id: 'old', holder: 'host:1', ttlMs: 10 });
      const thread = await t.store.createThread({ owner: 'user:alice' });
      const begun = await t.store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi', lease: 'old' });
      const fence = { lease: 'old' };
      await t.store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'kept' } }], { status: 'running' }, fence);
      const lost = async (write: Promise<unknown>) => {
        const error = await write.then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(error) && error.code).toBe('lease_lost');
      };
      await lost(t.store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'other lease' } }], undefined, { lease: 'new' }));
      t.now += 10;
      // Lapsed but not recovered: nobody else has the turn, so its holder still writes.
      await t.store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'late but alone' } }], undefined, fence);
      await t.store.endOrphanedTurn(begun.turn.id, ending);
      await lost(t.store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'after recovery' } }], { status: 'completed' }, fence));
      await lost(t.store.stageItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'staged' } }], undefined, fence).then((staged) => staged.committed));
      // Retried by another engine, the turn runs under that engine's lease; the old one stays fenced out.
      await t.store.updateTurn(begun.turn.id, { status: 'running', lease: 'new' }, ['failed']);
      await lost(t.store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'stale' } }], { status: 'completed' }, fence));
      await t.store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'retried' } }], undefined, { lease: 'new' });
      expect((await t.store.listItems(thread.id)).map((item) => (item.kind === 'assistant_text' ? (item.data as { text: string }).text : item.kind))).toEqual(['user_text', 'kept', 'late but alone', 'error', 'retried']);
      expect((await t.store.getTurn(begun.turn.id))?.status).toBe('running');
    });

    it('lets exactly one of many concurrent recoveries end an orphaned turn', async () => {
      const { thread, turn } = await t.threadWithTurn();
      const results = await Promise.all(Array.from({ length: 20 }, () => t.store.endOrphanedTurn(turn.id, ending)));
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      expect((await t.store.listItems(thread.id)).map((item) => item.kind)).toEqual(['user_text', 'error']);
    });
  });
}
