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
