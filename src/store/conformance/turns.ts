import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of beginning turns (request keys, busy threads, new threads) and patching them. */
export function turnCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('turns', () => {
    it('commits the turn and its user item together', async () => {
      const { thread, turn, userItem } = await t.threadWithTurn();
      expect(turn).toMatchObject({ threadId: thread.id, owner: 'user:alice', requestKey: 'r1', input: 'hello', status: 'accepted' });
      expect(turn.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
      expect(userItem).toMatchObject({ kind: 'user_text', ordinal: 1, turnId: turn.id, data: { text: 'hello' } });
      expect(await t.store.listItems(thread.id)).toEqual([userItem]);
    });

    it("keeps a message's further data on its user item, beside its text, in every way a turn begins", async () => {
      const userData = { context: { references: [], items: [{ kind: 'order', title: 'Order', text: 'paid', value: '4411' }] }, supplementalContext: true };
      const first = await t.store.beginTurn({ owner: 'user:alice', requestKey: 'd1', input: 'this one', userData });
      if (first.outcome !== 'created') throw new Error(`expected a new turn, got ${first.outcome}`);
      await t.store.updateTurn(first.turn.id, { status: 'completed' });
      const inThread = await t.store.beginTurn({ threadId: first.thread.id, owner: 'user:alice', requestKey: 'd2', input: 'again', userData: { supplementalContext: true } });
      const own = await t.store.beginTurn({ owner: 'user:alice', newThread: true, requestKey: 'd3', input: 'elsewhere', userData });
      const items = [...(await t.store.listItems(first.thread.id)), ...(own.outcome === 'created' ? await t.store.listItems(own.thread.id) : [])];
      expect(items.map((item) => item.data)).toEqual([{ ...userData, text: 'this one' }, { supplementalContext: true, text: 'again' }, { ...userData, text: 'elsewhere' }]);
      expect([first.userItem.data, inThread.outcome === 'created' ? inThread.userItem.data : null]).toEqual([items[0]!.data, items[1]!.data]);
    });

    it('returns the existing turn for the same owner and request key, without a second user item', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.updateTurn(turn.id, { status: 'completed' });
      const again = await t.store.beginTurn({ threadId: thread.id, requestKey: 'r1', input: 'other text' });
      expect(again.outcome).toBe('existing');
      expect(again.turn.id).toBe(turn.id);
      expect(again.turn.input).toBe('hello');
      expect(await t.store.listItems(thread.id)).toHaveLength(1);
    });

    it('begins a first message on a new thread in the same transaction, and later ones on the owner\'s latest thread', async () => {
      const first = await t.store.beginTurn({ owner: 'session:new', newThreadTitle: 'Hello', requestKey: 'n1', input: 'hello' });
      if (first.outcome !== 'created') throw new Error('expected a created turn');
      expect(first.thread).toMatchObject({ owner: 'session:new', title: 'Hello' });
      expect(first.turn.threadId).toBe(first.thread.id);
      expect(first.userItem).toMatchObject({ threadId: first.thread.id, ordinal: 1 });
      expect(await t.store.getThread(first.thread.id)).toEqual(first.thread);
      expect((await t.store.beginTurn({ owner: 'session:new', requestKey: 'n2', input: 'again' })).outcome).toBe('busy');
      await t.store.updateTurn(first.turn.id, { status: 'completed' });
      const second = await t.store.beginTurn({ owner: 'session:new', newThreadTitle: 'ignored', requestKey: 'n2', input: 'again' });
      expect(second).toMatchObject({ outcome: 'created', thread: { id: first.thread.id, title: 'Hello' } });
      expect((await t.store.beginTurn({ owner: 'session:new', requestKey: 'n1', input: 'hello' })).turn.id).toBe(first.turn.id);
      expect(await t.store.listThreads('session:new')).toHaveLength(1);
    });

    it('makes a thread of its own with its first turn in one step (newThread), replaying a used request key in the thread it began', async () => {
      const earlier = await t.store.beginTurn({ owner: 'session:own', newThreadTitle: 'Earlier', requestKey: 'o1', input: 'first' });
      const own = await t.store.beginTurn({ owner: 'session:own', newThreadTitle: 'Own', newThread: true, requestKey: 'o2', input: 'second' });
      if (own.outcome !== 'created') throw new Error('expected a created turn');
      expect(own.thread).toMatchObject({ owner: 'session:own', title: 'Own' });
      expect(own.thread.id).not.toBe(earlier.thread.id);
      expect(own.userItem).toMatchObject({ threadId: own.thread.id, ordinal: 1 });
      // The new thread is never seen without its turn: the next message to the owner's latest thread waits behind it.
      expect(await t.store.beginTurn({ owner: 'session:own', requestKey: 'o3', input: 'third' })).toMatchObject({ outcome: 'busy', thread: { id: own.thread.id }, turn: { id: own.turn.id } });
      expect(await t.store.beginTurn({ owner: 'session:own', newThread: true, requestKey: 'o1', input: 'first' })).toMatchObject({ outcome: 'existing', thread: { id: earlier.thread.id }, turn: { id: earlier.turn.id } });
      expect(await t.store.listThreads('session:own')).toHaveLength(2);
    });

    it('lists a thread\'s turns in the order they began, and only that thread\'s', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.updateTurn(turn.id, { status: 'completed' });
      t.now += 1;
      const second = await t.store.beginTurn({ threadId: thread.id, requestKey: 'r2', input: 'again' });
      await t.threadWithTurn('user:bob', 'elsewhere');
      expect((await t.store.listTurns(thread.id)).map((t) => t.id)).toEqual([turn.id, second.turn.id]);
      expect(await t.store.listTurns('no-such-thread')).toEqual([]);
    });

    it('answers busy while another turn of the thread is active', async () => {
      const { thread, turn } = await t.threadWithTurn();
      for (const status of ['accepted', 'running', 'waiting'] as const) {
        await t.store.updateTurn(turn.id, { status });
        const second = await t.store.beginTurn({ threadId: thread.id, requestKey: `r-${status}`, input: 'again' });
        expect(second).toMatchObject({ outcome: 'busy', turn: { id: turn.id } });
      }
      await t.store.updateTurn(turn.id, { status: 'failed', failureCode: 'interrupted' });
      expect(await t.store.turnsWithStatus('waiting')).toEqual([]);
      // A retry makes the ended turn active again: the thread is busy, recovery sees it.
      await t.store.updateTurn(turn.id, { status: 'running', failureCode: null }, ['failed']);
      expect((await t.store.beginTurn({ threadId: thread.id, requestKey: 'r-retry', input: 'again' })).outcome).toBe('busy');
      expect((await t.store.turnsWithStatus('running')).map((t) => t.id)).toEqual([turn.id]);
      await t.store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'done' } }], { status: 'completed' });
      expect(await t.store.turnsWithStatus('running')).toEqual([]);
      expect((await t.store.beginTurn({ threadId: thread.id, requestKey: 'r2', input: 'again' })).outcome).toBe('created');
    });

    it('changes a turn only from the expected statuses and adds usage', async () => {
      const { turn } = await t.threadWithTurn();
      expect(await t.store.updateTurn(turn.id, { status: 'completed' }, ['running'])).toBeUndefined();
      const running = await t.store.updateTurn(turn.id, { status: 'running', addUsage: { inputTokens: 3, outputTokens: 4 } }, ['accepted']);
      expect(running).toMatchObject({ status: 'running', usage: { inputTokens: 3, outputTokens: 4 } });
      const done = await t.store.updateTurn(turn.id, { status: 'failed', failureCode: 'x', failureMessage: 'y', addUsage: { inputTokens: 1, outputTokens: 1 } });
      expect(done).toMatchObject({ status: 'failed', failureCode: 'x', failureMessage: 'y', usage: { inputTokens: 4, outputTokens: 5 } });
      expect(await t.store.turnsWithStatus('failed')).toEqual([done]);
      expect(await t.store.turnsWithStatus('running')).toEqual([]);
    });
  });
}
