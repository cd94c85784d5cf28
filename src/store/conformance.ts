import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPlumbError } from '../core/index.js';
import type { Store } from './types.js';

/**
 * The store contract as a suite every implementation runs (the way hono tests its routers):
 *
 *   runStoreConformance({ name: 'sqlite', open: async () => ({ store, reopen, cleanup }) })
 *
 * `open` gives a fresh, empty store with an injected clock (`now` is read through `clock`);
 * durable stores also give `reopen`, which closes nothing itself and opens the same data again.
 */
export interface StoreFixture {
  readonly store: Store;
  /** Opens the same data again (durable stores only); the suite closes `store` first. */
  readonly reopen?: () => Promise<Store>;
  readonly cleanup?: () => Promise<void>;
}

export interface StoreConformanceOptions {
  readonly name: string;
  /** A durable store also runs the reopen cases (its fixture must offer `reopen`). */
  readonly durable: boolean;
  /** `clock` must be used by the store as its clock, so that the suite controls time. */
  readonly open: (clock: () => number) => Promise<StoreFixture>;
}

export function runStoreConformance(options: StoreConformanceOptions): void {
  describe(`store conformance: ${options.name}`, () => {
    let fixture: StoreFixture;
    let store: Store;
    let now: number;
    const extraStores: Store[] = [];

    beforeEach(async () => {
      now = 1_000_000;
      fixture = await options.open(() => now);
      store = fixture.store;
    });

    afterEach(async () => {
      for (const extra of extraStores.splice(0)) await extra.close();
      await store.close();
      await fixture.cleanup?.();
    });

    async function threadWithTurn(owner = 'user:alice', requestKey = 'r1', input = 'hello') {
      const thread = await store.createThread({ owner });
      const begun = await store.beginTurn({ threadId: thread.id, requestKey, input });
      if (begun.outcome !== 'created') throw new Error('expected a created turn');
      return { thread, turn: begun.turn, userItem: begun.userItem };
    }

    describe('threads', () => {
      it('gives an owner their most recently updated thread first and hides other owners', async () => {
        const first = await store.createThread({ owner: 'user:alice', title: 'first' });
        now += 10;
        const second = await store.createThread({ owner: 'user:alice', title: 'second' });
        await store.createThread({ owner: 'user:bob' });
        expect((await store.latestThread('user:alice'))?.id).toBe(second.id);
        now += 10;
        await store.beginTurn({ threadId: first.id, requestKey: 'k', input: 'hi' });
        expect((await store.latestThread('user:alice'))?.id).toBe(first.id);
        expect((await store.listThreads('user:alice')).map((t) => t.title)).toEqual(['first', 'second']);
        expect(await store.listThreads('user:carol')).toEqual([]);
        expect(await store.latestThread('user:carol')).toBeUndefined();
      });

      it("begins a turn in a named thread only for its owner, reporting another owner's thread as missing", async () => {
        const thread = await store.createThread({ owner: 'user:alice' });
        const refused = await store.beginTurn({ threadId: thread.id, owner: 'user:bob', requestKey: 'k', input: 'hi' }).then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(refused) && refused.code).toBe('store_not_found');
        expect(await store.listItems(thread.id)).toEqual([]);
        expect((await store.beginTurn({ threadId: thread.id, owner: 'user:alice', requestKey: 'k', input: 'hi' })).outcome).toBe('created');
      });

      it('updates title, summary marker and router session, keeping the rest', async () => {
        const thread = await store.createThread({ owner: 'session:s1' });
        now += 5;
        const updated = await store.updateThread(thread.id, { summary: 'so far', summaryThroughItemId: 'i9', routerSession: '{"a":1}' });
        expect(updated).toMatchObject({ owner: 'session:s1', title: null, summary: 'so far', summaryThroughItemId: 'i9', routerSession: '{"a":1}' });
        expect(updated.updatedAt).toBe(now);
        expect(await store.getThread(thread.id)).toEqual(updated);
      });

      it('deletes a thread with its turns, items and confirmations', async () => {
        const { thread, turn } = await threadWithTurn();
        await store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', now + 1000));
        expect(await store.deleteThread(thread.id)).toBe(true);
        expect(await store.getThread(thread.id)).toBeUndefined();
        expect(await store.getTurn(turn.id)).toBeUndefined();
        expect(await store.listItems(thread.id)).toEqual([]);
        expect(await store.getConfirmation('c1')).toBeUndefined();
        expect(await store.deleteThread(thread.id)).toBe(false);
      });
    });

    describe('turns', () => {
      it('commits the turn and its user item together', async () => {
        const { thread, turn, userItem } = await threadWithTurn();
        expect(turn).toMatchObject({ threadId: thread.id, owner: 'user:alice', requestKey: 'r1', input: 'hello', status: 'accepted' });
        expect(turn.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
        expect(userItem).toMatchObject({ kind: 'user_text', ordinal: 1, turnId: turn.id, data: { text: 'hello' } });
        expect(await store.listItems(thread.id)).toEqual([userItem]);
      });

      it('returns the existing turn for the same owner and request key, without a second user item', async () => {
        const { thread, turn } = await threadWithTurn();
        await store.updateTurn(turn.id, { status: 'completed' });
        const again = await store.beginTurn({ threadId: thread.id, requestKey: 'r1', input: 'other text' });
        expect(again.outcome).toBe('existing');
        expect(again.turn.id).toBe(turn.id);
        expect(again.turn.input).toBe('hello');
        expect(await store.listItems(thread.id)).toHaveLength(1);
      });

      it('begins a first message on a new thread in the same transaction, and later ones on the owner\'s latest thread', async () => {
        const first = await store.beginTurn({ owner: 'session:new', newThreadTitle: 'Hello', requestKey: 'n1', input: 'hello' });
        if (first.outcome !== 'created') throw new Error('expected a created turn');
        expect(first.thread).toMatchObject({ owner: 'session:new', title: 'Hello' });
        expect(first.turn.threadId).toBe(first.thread.id);
        expect(first.userItem).toMatchObject({ threadId: first.thread.id, ordinal: 1 });
        expect(await store.getThread(first.thread.id)).toEqual(first.thread);
        expect((await store.beginTurn({ owner: 'session:new', requestKey: 'n2', input: 'again' })).outcome).toBe('busy');
        await store.updateTurn(first.turn.id, { status: 'completed' });
        const second = await store.beginTurn({ owner: 'session:new', newThreadTitle: 'ignored', requestKey: 'n2', input: 'again' });
        expect(second).toMatchObject({ outcome: 'created', thread: { id: first.thread.id, title: 'Hello' } });
        expect((await store.beginTurn({ owner: 'session:new', requestKey: 'n1', input: 'hello' })).turn.id).toBe(first.turn.id);
        expect(await store.listThreads('session:new')).toHaveLength(1);
      });

      it('makes a thread of its own with its first turn in one step (newThread), replaying a used request key in the thread it began', async () => {
        const earlier = await store.beginTurn({ owner: 'session:own', newThreadTitle: 'Earlier', requestKey: 'o1', input: 'first' });
        const own = await store.beginTurn({ owner: 'session:own', newThreadTitle: 'Own', newThread: true, requestKey: 'o2', input: 'second' });
        if (own.outcome !== 'created') throw new Error('expected a created turn');
        expect(own.thread).toMatchObject({ owner: 'session:own', title: 'Own' });
        expect(own.thread.id).not.toBe(earlier.thread.id);
        expect(own.userItem).toMatchObject({ threadId: own.thread.id, ordinal: 1 });
        // The new thread is never seen without its turn: the next message to the owner's latest thread waits behind it.
        expect(await store.beginTurn({ owner: 'session:own', requestKey: 'o3', input: 'third' })).toMatchObject({ outcome: 'busy', thread: { id: own.thread.id }, turn: { id: own.turn.id } });
        expect(await store.beginTurn({ owner: 'session:own', newThread: true, requestKey: 'o1', input: 'first' })).toMatchObject({ outcome: 'existing', thread: { id: earlier.thread.id }, turn: { id: earlier.turn.id } });
        expect(await store.listThreads('session:own')).toHaveLength(2);
      });

      it('lists a thread\'s turns in the order they began, and only that thread\'s', async () => {
        const { thread, turn } = await threadWithTurn();
        await store.updateTurn(turn.id, { status: 'completed' });
        now += 1;
        const second = await store.beginTurn({ threadId: thread.id, requestKey: 'r2', input: 'again' });
        await threadWithTurn('user:bob', 'elsewhere');
        expect((await store.listTurns(thread.id)).map((t) => t.id)).toEqual([turn.id, second.turn.id]);
        expect(await store.listTurns('no-such-thread')).toEqual([]);
      });

      it('answers busy while another turn of the thread is active', async () => {
        const { thread, turn } = await threadWithTurn();
        for (const status of ['accepted', 'running', 'waiting'] as const) {
          await store.updateTurn(turn.id, { status });
          const second = await store.beginTurn({ threadId: thread.id, requestKey: `r-${status}`, input: 'again' });
          expect(second).toMatchObject({ outcome: 'busy', turn: { id: turn.id } });
        }
        await store.updateTurn(turn.id, { status: 'failed', failureCode: 'interrupted' });
        expect(await store.turnsWithStatus('waiting')).toEqual([]);
        // A retry makes the ended turn active again: the thread is busy, recovery sees it.
        await store.updateTurn(turn.id, { status: 'running', failureCode: null }, ['failed']);
        expect((await store.beginTurn({ threadId: thread.id, requestKey: 'r-retry', input: 'again' })).outcome).toBe('busy');
        expect((await store.turnsWithStatus('running')).map((t) => t.id)).toEqual([turn.id]);
        await store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'done' } }], { status: 'completed' });
        expect(await store.turnsWithStatus('running')).toEqual([]);
        expect((await store.beginTurn({ threadId: thread.id, requestKey: 'r2', input: 'again' })).outcome).toBe('created');
      });

      it('changes a turn only from the expected statuses and adds usage', async () => {
        const { turn } = await threadWithTurn();
        expect(await store.updateTurn(turn.id, { status: 'completed' }, ['running'])).toBeUndefined();
        const running = await store.updateTurn(turn.id, { status: 'running', addUsage: { inputTokens: 3, outputTokens: 4 } }, ['accepted']);
        expect(running).toMatchObject({ status: 'running', usage: { inputTokens: 3, outputTokens: 4 } });
        const done = await store.updateTurn(turn.id, { status: 'failed', failureCode: 'x', failureMessage: 'y', addUsage: { inputTokens: 1, outputTokens: 1 } });
        expect(done).toMatchObject({ status: 'failed', failureCode: 'x', failureMessage: 'y', usage: { inputTokens: 4, outputTokens: 5 } });
        expect(await store.turnsWithStatus('failed')).toEqual([done]);
        expect(await store.turnsWithStatus('running')).toEqual([]);
      });
    });

    describe('items', () => {
      it('keeps items in order with stable ids and consecutive ordinals per thread', async () => {
        const { thread, turn } = await threadWithTurn();
        const appended = await store.appendItems(turn.id, [
          { kind: 'tool_call', data: { callId: 'c1', name: 'query', arguments: '{}' } },
          { id: 'fixed-id', kind: 'tool_result', data: { callId: 'c1', result: { rows: [1, 2] } } },
        ]);
        const more = await store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'two rows' } }]);
        expect(appended.map((item) => item.ordinal)).toEqual([2, 3]);
        expect(appended[1]?.id).toBe('fixed-id');
        expect(more[0]?.ordinal).toBe(4);
        const listed = await store.listItems(thread.id);
        expect(listed.map((item) => item.kind)).toEqual(['user_text', 'tool_call', 'tool_result', 'assistant_text']);
        expect(listed.map((item) => item.id)).toEqual([listed[0]?.id, appended[0]?.id, 'fixed-id', more[0]?.id]);
        expect(await store.listItems(thread.id, { afterOrdinal: 2 })).toEqual(listed.slice(2));
        expect(await store.listItems(thread.id, { turnId: turn.id })).toEqual(listed);
      });

      it('numbers each thread on its own and keeps concurrent appends gap-free', async () => {
        const a = await threadWithTurn('user:alice', 'a');
        const b = await threadWithTurn('user:bob', 'b');
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.appendItems(i % 2 === 0 ? a.turn.id : b.turn.id, [{ kind: 'assistant_text', data: { text: String(i) } }, { kind: 'error', data: { code: 'x' } }])),
        );
        for (const thread of [a.thread, b.thread]) {
          const ordinals = (await store.listItems(thread.id)).map((item) => item.ordinal);
          expect(ordinals).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
        }
      });

      it('stages a step like an append: its records at once, committed once `committed` settles', async () => {
        const { thread, turn } = await threadWithTurn();
        const staged = await store.stageItems(turn.id, [{ kind: 'tool_call', data: { callId: 'c1' } }, { kind: 'tool_result', data: { callId: 'c1', result: [] } }], {
          status: 'running',
          addUsage: { inputTokens: 3, outputTokens: 1 },
        });
        expect(staged.records.map((item) => [item.ordinal, item.kind])).toEqual([
          [2, 'tool_call'],
          [3, 'tool_result'],
        ]);
        const next = await store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'done' } }], { status: 'completed', addUsage: { inputTokens: 4, outputTokens: 1 } });
        expect(next[0]?.ordinal).toBe(4);
        await staged.committed;
        expect((await store.listItems(thread.id)).map((item) => item.id)).toEqual([expect.any(String), ...staged.records.map((item) => item.id), next[0]?.id]);
        expect(await store.getTurn(turn.id)).toMatchObject({ status: 'completed', usage: { inputTokens: 7, outputTokens: 2 } });
        await expect(store.stageItems('missing', [{ kind: 'assistant_text', data: { text: 'x' } }])).rejects.toMatchObject({ code: 'store_not_found' });
      });

      it('appends a step and patches its turn in one transaction', async () => {
        const { turn } = await threadWithTurn();
        await store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'done' } }], { status: 'completed', addUsage: { inputTokens: 7, outputTokens: 2 } });
        expect(await store.getTurn(turn.id)).toMatchObject({ status: 'completed', usage: { inputTokens: 7, outputTokens: 2 } });
      });

      it('rolls back the whole step when one item fails', async () => {
        const { thread, turn } = await threadWithTurn();
        await store.appendItems(turn.id, [{ id: 'taken', kind: 'assistant_text', data: { text: 'a' } }]);
        const failure = await store
          .appendItems(turn.id, [{ kind: 'tool_call', data: { callId: 'c2' } }, { id: 'taken', kind: 'tool_result', data: {} }], { status: 'completed' })
          .then(() => undefined, (error: unknown) => error);
        expect(isPlumbError(failure) && failure.code).toBe('store_invalid_record');
        const bad = await store
          .appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'b' } }, { kind: 'error', data: { big: 10n as never } }])
          .then(() => undefined, (error: unknown) => error);
        expect(isPlumbError(bad) && bad.code).toBe('store_invalid_record');
        expect((await store.listItems(thread.id)).map((item) => item.ordinal)).toEqual([1, 2]);
        expect((await store.getTurn(turn.id))?.status).toBe('accepted');
        const next = await store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'c' } }]);
        expect(next[0]?.ordinal).toBe(3);
      });

      it('does not let the caller change stored data afterwards', async () => {
        const { thread, turn } = await threadWithTurn();
        const data = { text: 'kept', nested: { n: 1 } };
        await store.appendItems(turn.id, [{ kind: 'assistant_text', data }]);
        data.nested.n = 2;
        expect((await store.listItems(thread.id))[1]?.data).toEqual({ text: 'kept', nested: { n: 1 } });
      });

      it('refuses to append to a turn that does not exist', async () => {
        const error = await store.appendItems('nope', [{ kind: 'assistant_text', data: {} }]).then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(error) && error.code).toBe('store_not_found');
      });
    });

    describe('confirmations', () => {
      it('lets exactly one of many concurrent claims win', async () => {
        const { thread, turn } = await threadWithTurn();
        await store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', now + 30_000));
        expect((await store.pendingConfirmations(turn.id)).map((c) => c.id)).toEqual(['c1']);
        const results = await Promise.all(Array.from({ length: 50 }, () => store.claimConfirmation('c1', 'user:alice', now)));
        expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'unavailable')).toHaveLength(49);
        expect(await store.pendingConfirmations(turn.id)).toEqual([]);
        expect(await store.resolveConfirmation('c1', 'approved', now)).toBe(true);
        expect(await store.resolveConfirmation('c1', 'rejected', now)).toBe(false);
        expect(await store.getConfirmation('c1')).toMatchObject({ status: 'resolved', resolution: 'approved', resolvedAt: now });
        expect((await store.claimConfirmation('c1', 'user:alice', now)).outcome).toBe('unavailable');
      });

      it('refuses another owner and an unknown id', async () => {
        const { thread, turn } = await threadWithTurn();
        await store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', now + 30_000));
        expect((await store.claimConfirmation('c1', 'user:bob', now)).outcome).toBe('forbidden');
        expect((await store.claimConfirmation('zzz', 'user:alice', now)).outcome).toBe('missing');
        expect((await store.getConfirmation('c1'))?.status).toBe('pending');
      });

      it('records expiry when a claim comes too late', async () => {
        const { thread, turn } = await threadWithTurn();
        const created = await store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', now + 30_000));
        expect(created).toMatchObject({ status: 'pending', arguments: { name: 'Bolt' }, expiresAt: now + 30_000, resolution: null });
        now += 30_000;
        const late = await store.claimConfirmation('c1', 'user:alice', now);
        expect(late).toMatchObject({ outcome: 'expired', confirmation: { status: 'resolved', resolution: 'expired', resolvedAt: now } });
      });

      it('sweeps lapsed confirmations with the given resolution, once', async () => {
        const { thread, turn } = await threadWithTurn();
        await store.createConfirmation(confirmation('early', thread.id, turn.id, 'user:alice', now + 10));
        await store.createConfirmation(confirmation('late', thread.id, turn.id, 'user:alice', now + 1000));
        now += 10;
        const swept = await store.expireConfirmations(now, { status: 'cancelled', reason: 'confirmation_timed_out' });
        expect(swept.map((c) => c.id)).toEqual(['early']);
        expect(swept[0]).toMatchObject({ status: 'resolved', resolution: { status: 'cancelled', reason: 'confirmation_timed_out' }, actor: { kind: 'user', id: 'alice' } });
        expect(await store.expireConfirmations(now, 'expired')).toEqual([]);
        expect((await store.pendingConfirmations(turn.id)).map((c) => c.id)).toEqual(['late']);
      });

      it('refuses a duplicate confirmation id', async () => {
        const { thread, turn } = await threadWithTurn();
        await store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', now + 1));
        const error = await store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', now + 1)).then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(error) && error.code).toBe('store_invalid_record');
      });
    });

    describe('leases', () => {
      const ending = (turn: { readonly id: string }, items: readonly { readonly kind: string }[]) => ({
        items: [{ kind: 'error' as const, data: { code: 'interrupted', items: items.length, turn: turn.id } }],
        patch: { status: 'failed' as const, failureCode: 'interrupted', failureMessage: 'stopped' },
      });

      it('keeps a lease alive while it is renewed in time, and loses it for good once it lapsed', async () => {
        const lease = await store.acquireLease({ id: 'engine-a', holder: 'host:1', ttlMs: 1000 });
        expect(lease).toEqual({ id: 'engine-a', holder: 'host:1', acquiredAt: now, heartbeatAt: now, expiresAt: now + 1000 });
        now += 999;
        expect(await store.renewLease('engine-a', 1000)).toMatchObject({ heartbeatAt: now, expiresAt: now + 1000 });
        now += 1000;
        expect(await store.renewLease('engine-a', 1000)).toBeUndefined();
        expect(await store.renewLease('never-acquired', 1000)).toBeUndefined();
        const taken = await store.acquireLease({ id: 'engine-a', holder: 'host:2', ttlMs: 1000 }).then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(taken) && taken.code).toBe('store_invalid_record');
        expect(await store.releaseLease('engine-a')).toBe(true);
        expect(await store.releaseLease('engine-a')).toBe(false);
        expect(await store.getLease('engine-a')).toBeUndefined();
      });

      it('records the lease a turn runs under, and the lease of the engine that resumes it', async () => {
        await store.acquireLease({ id: 'a', holder: 'host:1', ttlMs: 5000 });
        const thread = await store.createThread({ owner: 'user:alice' });
        const begun = await store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi', lease: 'a' });
        expect(begun.turn.lease).toBe('a');
        await store.updateTurn(begun.turn.id, { status: 'waiting' });
        expect(await store.updateTurn(begun.turn.id, { status: 'running', lease: 'b' }, ['waiting'])).toMatchObject({ status: 'running', lease: 'b' });
        await store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'x' } }], { status: 'completed' });
        expect(await store.getTurn(begun.turn.id)).toMatchObject({ status: 'completed', lease: 'b' });
        const plain = await threadWithTurn('user:bob', 'no-lease');
        expect(plain.turn.lease).toBeNull();
      });

      it('finds as orphaned only the accepted and running turns whose lease is missing, released or lapsed', async () => {
        await store.acquireLease({ id: 'live', holder: 'host:1', ttlMs: 1000 });
        await store.acquireLease({ id: 'short', holder: 'host:2', ttlMs: 10 });
        const begin = async (owner: string, lease?: string) => {
          const thread = await store.createThread({ owner });
          now += 1;
          const begun = await store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi', ...(lease === undefined ? {} : { lease }) });
          return begun.turn;
        };
        const live = await begin('user:a', 'live');
        const running = await begin('user:b', 'short');
        await store.updateTurn(running.id, { status: 'running' });
        const unleased = await begin('user:c');
        const waiting = await begin('user:d', 'short');
        await store.updateTurn(waiting.id, { status: 'waiting' });
        const ended = await begin('user:e', 'short');
        await store.updateTurn(ended.id, { status: 'completed' });
        expect((await store.orphanedTurns()).map((turn) => turn.id)).toEqual([unleased.id]);
        now += 10;
        expect((await store.orphanedTurns()).map((turn) => turn.id)).toEqual([running.id, unleased.id]);
        await store.releaseLease('live');
        expect((await store.orphanedTurns()).map((turn) => turn.id)).toEqual([live.id, running.id, unleased.id]);
      });

      it("ends an orphaned turn with its items in one step, never a live engine's, and takes the lapsed lease away", async () => {
        await store.acquireLease({ id: 'a', holder: 'host:1', ttlMs: 1000 });
        const thread = await store.createThread({ owner: 'user:alice' });
        const begun = await store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi', lease: 'a' });
        await store.appendItems(begun.turn.id, [{ kind: 'tool_call', data: { callId: 'c1' } }], { status: 'running' });
        let called = 0;
        const counted = (turn: { readonly id: string }, items: readonly { readonly kind: string }[]) => {
          called++;
          return ending(turn, items);
        };
        expect(await store.endOrphanedTurn(begun.turn.id, counted)).toBeUndefined();
        expect(called).toBe(0);
        expect((await store.getTurn(begun.turn.id))?.status).toBe('running');
        now += 1000;
        const ended = await store.endOrphanedTurn(begun.turn.id, counted);
        expect(ended).toMatchObject({ id: begun.turn.id, status: 'failed', failureCode: 'interrupted' });
        expect(called).toBe(1);
        expect((await store.listItems(thread.id)).map((item) => [item.ordinal, item.kind, item.data])).toEqual([
          [1, 'user_text', { text: 'hi' }],
          [2, 'tool_call', { callId: 'c1' }],
          [3, 'error', { code: 'interrupted', items: 2, turn: begun.turn.id }],
        ]);
        expect(await store.endOrphanedTurn(begun.turn.id, counted)).toBeUndefined();
        expect(called).toBe(1);
        // A holder whose clock runs behind cannot renew a lease whose turn was ended.
        now -= 500;
        expect(await store.renewLease('a', 1000)).toBeUndefined();
        expect(await store.endOrphanedTurn('no-such-turn', counted)).toBeUndefined();
      });

      it("resolves an ended orphan's claimed confirmations in the same step, and only its claimed ones", async () => {
        const { thread, turn } = await threadWithTurn();
        for (const id of ['cut', 'waiting']) await store.createConfirmation(confirmation(id, thread.id, turn.id, 'user:alice', now + 50));
        await store.claimConfirmation('cut', 'user:alice', now);
        const unknown = { outcome: 'outcome_unknown' };
        expect(await store.endOrphanedTurn(turn.id, (ended, items) => ({ ...ending(ended, items), claimed: unknown }))).toMatchObject({ status: 'failed' });
        expect(await store.getConfirmation('cut')).toMatchObject({ status: 'resolved', resolution: unknown, resolvedAt: now });
        expect((await store.getConfirmation('waiting'))?.status).toBe('pending');
      });

      it('fences a running turn\'s writes by its lease: lease_lost once recovered or taken over, and nothing of the write kept', async () => {
        await store.acquireLease({ id: 'old', holder: 'host:1', ttlMs: 10 });
        const thread = await store.createThread({ owner: 'user:alice' });
        const begun = await store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi', lease: 'old' });
        const fence = { lease: 'old' };
        await store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'kept' } }], { status: 'running' }, fence);
        const lost = async (write: Promise<unknown>) => {
          const error = await write.then(() => undefined, (e: unknown) => e);
          expect(isPlumbError(error) && error.code).toBe('lease_lost');
        };
        await lost(store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'other lease' } }], undefined, { lease: 'new' }));
        now += 10;
        // Lapsed but not recovered: nobody else has the turn, so its holder still writes.
        await store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'late but alone' } }], undefined, fence);
        await store.endOrphanedTurn(begun.turn.id, ending);
        await lost(store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'after recovery' } }], { status: 'completed' }, fence));
        await lost(store.stageItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'staged' } }], undefined, fence).then((staged) => staged.committed));
        // Retried by another engine, the turn runs under that engine's lease; the old one stays fenced out.
        await store.updateTurn(begun.turn.id, { status: 'running', lease: 'new' }, ['failed']);
        await lost(store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'stale' } }], { status: 'completed' }, fence));
        await store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'retried' } }], undefined, { lease: 'new' });
        expect((await store.listItems(thread.id)).map((item) => (item.kind === 'assistant_text' ? (item.data as { text: string }).text : item.kind))).toEqual(['user_text', 'kept', 'late but alone', 'error', 'retried']);
        expect((await store.getTurn(begun.turn.id))?.status).toBe('running');
      });

      it('lets exactly one of many concurrent recoveries end an orphaned turn', async () => {
        const { thread, turn } = await threadWithTurn();
        const results = await Promise.all(Array.from({ length: 20 }, () => store.endOrphanedTurn(turn.id, ending)));
        expect(results.filter((result) => result !== undefined)).toHaveLength(1);
        expect((await store.listItems(thread.id)).map((item) => item.kind)).toEqual(['user_text', 'error']);
      });
    });

    describe('queue', () => {
      const enqueue = (threadId: string, requestKey: string, text: string, limit = 10, owner = 'user:alice') => store.enqueueMessage({ threadId, owner, actor: { kind: 'user', id: owner.slice(5), roles: ['admin'] }, requestKey, text, limit });

      it('queues messages in order with their positions, finds a resent request key, and refuses past the bound', async () => {
        const { thread } = await threadWithTurn();
        const first = await enqueue(thread.id, 'q1', 'one', 2);
        now += 1;
        const second = await store.enqueueMessage({ threadId: thread.id, owner: 'user:alice', actor: { kind: 'user', id: 'alice', roles: ['admin'] }, requestKey: 'q2', text: 'two', language: 'pt-BR', limit: 2 });
        expect(first).toMatchObject({ outcome: 'queued', position: 1, message: { text: 'one', steer: false, language: null, threadId: thread.id, owner: 'user:alice', requestKey: 'q1', actor: { kind: 'user', id: 'alice', roles: ['admin'] } } });
        expect(second).toMatchObject({ outcome: 'queued', position: 2, message: { language: 'pt-BR' } });
        expect(await enqueue(thread.id, 'q2', 'two', 2)).toMatchObject({ outcome: 'existing', position: 2 });
        expect(await enqueue(thread.id, 'q3', 'three', 2)).toEqual({ outcome: 'full', size: 2 });
        expect((await store.listQueued(thread.id)).map((m) => m.text)).toEqual(['one', 'two']);
        expect(await store.queuedThreads()).toEqual([thread.id]);
      });

      it("refuses another owner's thread as missing", async () => {
        const { thread } = await threadWithTurn();
        const refused = await enqueue(thread.id, 'q1', 'one', 10, 'user:bob').then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(refused) && refused.code).toBe('store_not_found');
        expect(await store.listQueued(thread.id)).toEqual([]);
      });

      it('edits a message only while it holds the expected text, moves one sent now to the head, and removes one', async () => {
        const { thread } = await threadWithTurn();
        await enqueue(thread.id, 'q1', 'one');
        const second = await enqueue(thread.id, 'q2', 'two');
        const third = await enqueue(thread.id, 'q3', 'three');
        if (second.outcome !== 'queued' || third.outcome !== 'queued') throw new Error('expected queued messages');
        now += 5;
        expect(await store.editQueued(second.message.id, 'TWO', 'two')).toMatchObject({ text: 'TWO', updatedAt: now });
        expect(await store.editQueued(second.message.id, 'again', 'two')).toBeUndefined();
        expect(await store.steerQueued(third.message.id)).toMatchObject({ steer: true, text: 'three' });
        expect((await store.listQueued(thread.id)).map((m) => m.text)).toEqual(['three', 'one', 'TWO']);
        expect(await store.enqueueMessage({ threadId: thread.id, owner: 'user:alice', actor: { kind: 'user', id: 'alice', roles: ['admin'] }, requestKey: 'q3', text: 'three', limit: 10 })).toMatchObject({ outcome: 'existing', position: 1 });
        expect(await store.removeQueued(second.message.id)).toBe(true);
        expect(await store.removeQueued(second.message.id)).toBe(false);
        expect(await store.editQueued(second.message.id, 'gone')).toBeUndefined();
        expect(await store.steerQueued(second.message.id)).toBeUndefined();
        expect((await store.listQueued(thread.id)).map((m) => m.text)).toEqual(['three', 'one']);
      });

      it('lets a message join a running turn once, its item and its leaving the queue one step', async () => {
        const { thread, turn } = await threadWithTurn();
        const queued = await enqueue(thread.id, 'q1', 'also this');
        if (queued.outcome !== 'queued') throw new Error('expected a queued message');
        const joined = await Promise.all([store.takeQueued(queued.message.id, turn.id), store.takeQueued(queued.message.id, turn.id)]);
        expect(joined.filter((item) => item !== undefined)).toHaveLength(1);
        const item = joined.find((candidate) => candidate !== undefined)!;
        expect(item).toMatchObject({ kind: 'user_text', turnId: turn.id, ordinal: 2, data: { text: 'also this', queueId: queued.message.id, steered: true } });
        expect(await store.listQueued(thread.id)).toEqual([]);
        expect((await store.listItems(thread.id)).map((i) => i.kind)).toEqual(['user_text', 'user_text']);
      });

      it('begins a queued message as the next turn only once the thread is free, and only once', async () => {
        const { thread, turn } = await threadWithTurn();
        const queued = await store.enqueueMessage({ threadId: thread.id, owner: 'user:alice', actor: { kind: 'user', id: 'alice', roles: ['admin'] }, requestKey: 'q1', text: 'next', language: 'en', limit: 10 });
        if (queued.outcome !== 'queued') throw new Error('expected a queued message');
        expect((await store.beginQueuedTurn(queued.message.id))?.begun.outcome).toBe('busy');
        expect(await store.listQueued(thread.id)).toHaveLength(1);
        await store.updateTurn(turn.id, { status: 'completed' });
        const begun = await Promise.all([store.beginQueuedTurn(queued.message.id, { lease: 'L1' }), store.beginQueuedTurn(queued.message.id, { lease: 'L1' })]);
        const created = begun.filter((result) => result?.begun.outcome === 'created');
        expect(created).toHaveLength(1);
        expect(created[0]).toMatchObject({ message: { text: 'next', language: 'en' }, begun: { turn: { requestKey: 'q1', input: 'next', lease: 'L1', status: 'accepted' } } });
        expect(await store.listQueued(thread.id)).toEqual([]);
        expect(await store.queuedThreads()).toEqual([]);
        expect((await store.listTurns(thread.id)).map((t) => t.input)).toEqual(['hello', 'next']);
      });

      it('deletes a thread with its queue', async () => {
        const { thread } = await threadWithTurn();
        await enqueue(thread.id, 'q1', 'one');
        await store.deleteThread(thread.id);
        expect(await store.listQueued(thread.id)).toEqual([]);
        expect(await store.queuedThreads()).toEqual([]);
      });

      if (options.durable) it('keeps the queue across a reopen', async () => {
        if (fixture.reopen === undefined) throw new Error(`the ${options.name} fixture must offer reopen`);
        const { thread } = await threadWithTurn();
        await enqueue(thread.id, 'q1', 'one');
        const steered = await enqueue(thread.id, 'q2', 'two');
        if (steered.outcome !== 'queued') throw new Error('expected a queued message');
        await store.steerQueued(steered.message.id);
        const before = await store.listQueued(thread.id);
        await store.close();
        const reopened = await fixture.reopen();
        extraStores.push(reopened);
        expect(await reopened.listQueued(thread.id)).toEqual(before);
        expect(before.map((m) => [m.text, m.steer])).toEqual([['two', true], ['one', false]]);
      });
    });

    describe('pages, titles and forks', () => {
      /** A thread of `turns` turns, each a user message and an answer; `now` moves on with every turn. */
      async function conversation(turns: number, owner = 'user:alice', words = (i: number) => `question ${i}`) {
        const thread = await store.createThread({ owner, title: words(0) });
        for (let i = 0; i < turns; i++) {
          now += 1;
          const begun = await store.beginTurn({ threadId: thread.id, requestKey: `${thread.id}-${i}`, input: words(i) });
          if (begun.outcome !== 'created') throw new Error('expected a created turn');
          await store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: `answer ${i}` } }], { status: 'completed' });
        }
        return thread;
      }

      it('pages a thread forwards and backwards, at most `limit` items and `maxBytes` of data, never stalling on a large item', async () => {
        const thread = await conversation(5);
        expect(await store.lastOrdinal(thread.id)).toBe(10);
        expect(await store.lastOrdinal('no-such-thread')).toBe(0);
        const first = await store.pageItems(thread.id, { after: 0, limit: 4, maxBytes: 1 << 20 });
        expect(first.items.map((item) => item.ordinal)).toEqual([1, 2, 3, 4]);
        expect(first.more).toBe(true);
        const last = await store.pageItems(thread.id, { after: 8, limit: 4, maxBytes: 1 << 20 });
        expect(last.items.map((item) => item.ordinal)).toEqual([9, 10]);
        expect(last.more).toBe(false);
        const newest = await store.pageItems(thread.id, { before: 11, limit: 3, maxBytes: 1 << 20 });
        expect(newest.items.map((item) => item.ordinal)).toEqual([8, 9, 10]);
        expect(newest.more).toBe(true);
        const oldest = await store.pageItems(thread.id, { before: 3, limit: 3, maxBytes: 1 << 20 });
        expect(oldest.items.map((item) => item.ordinal)).toEqual([1, 2]);
        expect(oldest.more).toBe(false);
        // {"text":"answer 0"} is 19 bytes: two such items fit in 40, three do not.
        const bytes = await store.pageItems(thread.id, { after: 1, limit: 10, maxBytes: 40 });
        expect(bytes.items.map((item) => item.ordinal)).toEqual([2, 3]);
        const [turn] = await store.listTurns(thread.id);
        expect(turn).toBeDefined();
        const huge = await conversation(1, 'user:carol');
        const [hugeTurn] = await store.listTurns(huge.id);
        await store.appendItems(hugeTurn!.id, [{ kind: 'tool_result', data: { text: 'x'.repeat(5000) } }, { kind: 'assistant_text', data: { text: 'small' } }]);
        const alone = await store.pageItems(huge.id, { after: 2, limit: 10, maxBytes: 100 });
        expect(alone.items.map((item) => item.ordinal)).toEqual([3]);
        expect(alone.more).toBe(true);
        expect((await store.pageItems('no-such-thread', { after: 0, limit: 5, maxBytes: 100 })).items).toEqual([]);
        const refused = await store.pageItems(thread.id, { after: 0, limit: 0, maxBytes: 100 }).then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(refused) && refused.code).toBe('store_invalid_record');
      });

      it("pages an owner's threads most recent first with a cursor, and finds them by title or message text ignoring case", async () => {
        const made = [];
        for (let i = 0; i < 5; i++) {
          now += 10;
          made.push(await store.createThread({ owner: 'user:alice', title: `thread ${i}` }));
        }
        now += 10;
        await store.createThread({ owner: 'user:bob', title: 'thread of bob' });
        const first = await store.pageThreads('user:alice', { limit: 2 });
        expect(first.threads.map((thread) => thread.title)).toEqual(['thread 4', 'thread 3']);
        expect(first.next).not.toBeNull();
        const second = await store.pageThreads('user:alice', { limit: 2, after: first.next! });
        expect(second.threads.map((thread) => thread.title)).toEqual(['thread 2', 'thread 1']);
        const third = await store.pageThreads('user:alice', { limit: 2, after: second.next! });
        expect(third.threads.map((thread) => thread.title)).toEqual(['thread 0']);
        expect(third.next).toBeNull();
        const steel = await conversation(2, 'user:alice', (i) => (i === 1 ? 'Which parts are made of STEEL?' : 'hello'));
        expect((await store.pageThreads('user:alice', { limit: 10, search: 'steel' })).threads.map((thread) => thread.id)).toEqual([steel.id]);
        expect((await store.pageThreads('user:alice', { limit: 10, search: 'ANSWER 1' })).threads.map((thread) => thread.id)).toEqual([steel.id]);
        expect((await store.pageThreads('user:alice', { limit: 10, search: 'THREAD 3' })).threads.map((thread) => thread.title)).toEqual(['thread 3']);
        expect((await store.pageThreads('user:alice', { limit: 10, search: 'bob' })).threads).toEqual([]);
        // Keys of the item data are not text: nothing matches "text" but a title or message that says it.
        expect((await store.pageThreads('user:alice', { limit: 10, search: 'text' })).threads).toEqual([]);
      });

      it("sets a title and its source without moving the thread's place, and never replaces a person's title with a generated one", async () => {
        const older = await store.createThread({ owner: 'user:alice', title: 'first words' });
        now += 10;
        const newer = await store.createThread({ owner: 'user:alice', title: 'other' });
        expect(older.titleSource).toBeNull();
        expect(older.forkedFrom).toBeNull();
        now += 10;
        const renamed = await store.setThreadTitle(older.id, 'My steel question', 'person');
        expect(renamed).toMatchObject({ title: 'My steel question', titleSource: 'person', updatedAt: older.updatedAt });
        expect((await store.latestThread('user:alice'))?.id).toBe(newer.id);
        expect(await store.setThreadTitle(older.id, 'Parts: material name Steel', 'generated', { onlyIf: [null] })).toBeUndefined();
        expect((await store.getThread(older.id))?.title).toBe('My steel question');
        expect(await store.setThreadTitle(newer.id, 'Generated', 'generated', { onlyIf: [null] })).toMatchObject({ title: 'Generated', titleSource: 'generated' });
        expect(await store.setThreadTitle('no-such-thread', 'x', 'person')).toBeUndefined();
      });

      it('forks a thread through one of its items: the same items and ordinals under copied turns, the cut turn completed, the original untouched', async () => {
        const thread = await conversation(3);
        await store.updateThread(thread.id, { summary: 'so far', summaryThroughItemId: (await store.listItems(thread.id))[1]!.id, routerSession: '{"s":1}' });
        const last = (await store.listTurns(thread.id))[2]!;
        await store.updateTurn(last.id, { status: 'failed', failureCode: 'interrupted', failureMessage: 'stopped' });
        const items = await store.listItems(thread.id);
        now += 100;
        const fork = await store.forkThread({ threadId: thread.id, throughOrdinal: 4, fromItemId: items[3]!.id });
        expect(fork).toMatchObject({ owner: 'user:alice', title: thread.title, forkedFrom: { threadId: thread.id, itemId: items[3]!.id }, summary: 'so far', summaryThroughItemId: items[1]!.id, routerSession: null, updatedAt: now });
        expect((await store.latestThread('user:alice'))?.id).toBe(fork.id);
        const copied = await store.listItems(fork.id);
        expect(copied.map((item) => [item.ordinal, item.id, item.kind, item.data])).toEqual(items.slice(0, 4).map((item) => [item.ordinal, item.id, item.kind, item.data]));
        const turns = await store.listTurns(fork.id);
        expect(turns.map((turn) => turn.input)).toEqual(['question 0', 'question 1']);
        expect(turns.every((turn) => turn.threadId === fork.id && turn.status === 'completed')).toBe(true);
        expect(new Set(copied.map((item) => item.turnId))).toEqual(new Set(turns.map((turn) => turn.id)));
        // A cut inside the failed turn completes its copy; the whole failed turn keeps its failure.
        const cut = await store.forkThread({ threadId: thread.id, throughOrdinal: 5, fromItemId: items[4]!.id });
        expect((await store.listTurns(cut.id)).map((turn) => turn.status)).toEqual(['completed', 'completed', 'completed']);
        const whole = await store.forkThread({ threadId: thread.id, throughOrdinal: 6, fromItemId: items[5]!.id });
        expect((await store.listTurns(whole.id)).map((turn) => [turn.status, turn.failureCode])).toEqual([['completed', null], ['completed', null], ['failed', 'interrupted']]);
        expect(await store.listItems(thread.id)).toEqual(items);
        expect(await store.lastOrdinal(fork.id)).toBe(4);
        // The fork goes on with ordinals of its own; deleting it leaves the original whole.
        const next = await store.beginTurn({ threadId: fork.id, requestKey: 'fork-next', input: 'and then?' });
        expect(next.outcome === 'created' && next.userItem.ordinal).toBe(5);
        expect(await store.deleteThread(fork.id)).toBe(true);
        expect(await store.listItems(thread.id)).toEqual(items);
        expect(await store.listTurns(thread.id)).toHaveLength(3);
        const empty = await store.forkThread({ threadId: thread.id, throughOrdinal: 0, fromItemId: items[0]!.id });
        expect(await store.listItems(empty.id)).toEqual([]);
        expect(await store.listTurns(empty.id)).toEqual([]);
        const missing = await store.forkThread({ threadId: thread.id, throughOrdinal: 99, fromItemId: 'x' }).then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(missing) && missing.code).toBe('store_not_found');
      });
    });

    describe('retention', () => {
      async function endedThread(owner: string, requestKey: string, status: 'completed' | 'accepted' = 'completed') {
        const made = await threadWithTurn(owner, requestKey);
        if (status === 'completed') await store.updateTurn(made.turn.id, { status: 'completed' });
        return made;
      }

      it('deletes threads not updated since the cutoff, oldest first and in batches, keeping a thread whose turn is still active', async () => {
        const oldest = await endedThread('user:alice', 'a');
        await store.createConfirmation(confirmation('c-old', oldest.thread.id, oldest.turn.id, 'user:alice', now + 10));
        now += 10;
        const older = await endedThread('user:bob', 'b');
        now += 10;
        const busy = await endedThread('user:carol', 'c', 'accepted');
        now += 10;
        const cutoff = now;
        const recent = await endedThread('user:alice', 'd');
        expect(await store.deleteThreadsUpdatedBefore(cutoff, { limit: 1 })).toEqual([oldest.thread.id]);
        expect(await store.deleteThreadsUpdatedBefore(cutoff, { limit: 10 })).toEqual([older.thread.id]);
        expect(await store.deleteThreadsUpdatedBefore(cutoff)).toEqual([]);
        expect(await store.getThread(oldest.thread.id)).toBeUndefined();
        expect(await store.getTurn(oldest.turn.id)).toBeUndefined();
        expect(await store.listItems(oldest.thread.id)).toEqual([]);
        expect(await store.getConfirmation('c-old')).toBeUndefined();
        expect((await store.getThread(busy.thread.id))?.id).toBe(busy.thread.id);
        expect((await store.listTurns(recent.thread.id)).map((turn) => turn.id)).toEqual([recent.turn.id]);
        const refused = await store.deleteThreadsUpdatedBefore(cutoff, { limit: 0 }).then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(refused) && refused.code).toBe('store_invalid_record');
      });

      it('deletes confirmations resolved before the cutoff, never pending or claimed ones', async () => {
        const { thread, turn } = await threadWithTurn();
        for (const id of ['pending', 'claimed', 'approved', 'lapsed']) await store.createConfirmation(confirmation(id, thread.id, turn.id, 'user:alice', now + 5));
        await store.claimConfirmation('claimed', 'user:alice', now);
        await store.claimConfirmation('approved', 'user:alice', now);
        await store.resolveConfirmation('approved', 'approved', now);
        now += 5;
        await store.claimConfirmation('lapsed', 'user:alice', now);
        expect(await store.deleteConfirmationsResolvedBefore(now)).toBe(1);
        expect(await store.getConfirmation('approved')).toBeUndefined();
        now += 100;
        expect(await store.deleteConfirmationsResolvedBefore(now, { limit: 5 })).toBe(1);
        expect(await store.deleteConfirmationsResolvedBefore(now)).toBe(0);
        expect((await store.getConfirmation('pending'))?.status).toBe('pending');
        expect((await store.getConfirmation('claimed'))?.status).toBe('claimed');
      });

      it('resolves the claimed confirmations of a turn as outcome unknown (recovery), after which retention applies', async () => {
        const { thread, turn } = await threadWithTurn();
        const other = await threadWithTurn('user:alice', 'r2');
        for (const id of ['cut-a', 'cut-b', 'waiting']) await store.createConfirmation(confirmation(id, thread.id, turn.id, 'user:alice', now + 50));
        await store.createConfirmation(confirmation('elsewhere', other.thread.id, other.turn.id, 'user:alice', now + 50));
        for (const id of ['cut-a', 'cut-b', 'elsewhere']) await store.claimConfirmation(id, 'user:alice', now);
        const unknown = { outcome: 'outcome_unknown' };
        const resolved = await store.resolveClaimedConfirmations(turn.id, unknown, now);
        expect(resolved.map((record) => [record.id, record.status, record.resolution, record.resolvedAt])).toEqual([
          ['cut-a', 'resolved', unknown, now],
          ['cut-b', 'resolved', unknown, now],
        ]);
        expect(await store.resolveClaimedConfirmations(turn.id, unknown, now)).toEqual([]);
        expect((await store.getConfirmation('waiting'))?.status).toBe('pending');
        expect((await store.getConfirmation('elsewhere'))?.status).toBe('claimed');
        now += 10;
        expect(await store.deleteConfirmationsResolvedBefore(now)).toBe(2);
        expect(await store.getConfirmation('cut-a')).toBeUndefined();
      });
    });

    describe('lifetime', () => {
      it('refuses work after close, and close is idempotent', async () => {
        await store.close();
        await store.close();
        const error = await store.createThread({ owner: 'user:alice' }).then(() => undefined, (e: unknown) => e);
        expect(isPlumbError(error) && error.code).toBe('store_closed');
      });

      if (options.durable) it('finds every committed record after closing and reopening', async () => {
        if (fixture.reopen === undefined) throw new Error(`the ${options.name} fixture must offer reopen`);
        const { thread, turn } = await threadWithTurn();
        await store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'persisted' } }], { status: 'waiting', addUsage: { inputTokens: 2, outputTokens: 3 } });
        await store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', now + 30_000));
        await store.updateThread(thread.id, { summary: 's', summaryThroughItemId: 'x' });
        const before = await store.listItems(thread.id);
        await store.close();
        const reopened = await fixture.reopen();
        extraStores.push(reopened);
        expect(await reopened.listItems(thread.id)).toEqual(before);
        expect(await reopened.getTurn(turn.id)).toMatchObject({ status: 'waiting', usage: { inputTokens: 2, outputTokens: 3 } });
        expect(await reopened.getThread(thread.id)).toMatchObject({ summary: 's', summaryThroughItemId: 'x' });
        expect((await reopened.claimConfirmation('c1', 'user:alice', now)).outcome).toBe('claimed');
        const next = await reopened.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'after' } }]);
        expect(next[0]?.ordinal).toBe(before.length + 1);
      });
    });
  });
}

function confirmation(id: string, threadId: string, turnId: string, owner: string, expiresAt: number) {
  return { id, threadId, turnId, owner, actor: { kind: 'user', id: owner.slice(5), roles: [] }, callId: `call-${id}`, tool: 'mutate', arguments: { name: 'Bolt' }, digest: 'd', expiresAt };
}
