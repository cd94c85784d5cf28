import { isPlumbError } from '../../core/index.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of pages of threads and items, titles and forks. */
export function pageCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('pages, titles and forks', () => {
    /** A thread of `turns` turns, each a user message and an answer; `now` moves on with every turn. */
    async function conversation(turns: number, owner = 'user:alice', words = (i: number) => `question ${i}`) {
      const thread = await t.store.createThread({ owner, title: words(0) });
      for (let i = 0; i < turns; i++) {
        t.now += 1;
        const begun = await t.store.beginTurn({ threadId: thread.id, requestKey: `${thread.id}-${i}`, input: words(i) });
        if (begun.outcome !== 'created') throw new Error('expected a created turn');
        await t.store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: `answer ${i}` } }], { status: 'completed' });
      }
      return thread;
    }

    it('pages a thread forwards and backwards, at most `limit` items and `maxBytes` of data, never stalling on a large item', async () => {
      const thread = await conversation(5);
      expect(await t.store.lastOrdinal(thread.id)).toBe(10);
      expect(await t.store.lastOrdinal('no-such-thread')).toBe(0);
      const first = await t.store.pageItems(thread.id, { after: 0, limit: 4, maxBytes: 1 << 20 });
      expect(first.items.map((item) => item.ordinal)).toEqual([1, 2, 3, 4]);
      expect(first.more).toBe(true);
      const last = await t.store.pageItems(thread.id, { after: 8, limit: 4, maxBytes: 1 << 20 });
      expect(last.items.map((item) => item.ordinal)).toEqual([9, 10]);
      expect(last.more).toBe(false);
      const newest = await t.store.pageItems(thread.id, { before: 11, limit: 3, maxBytes: 1 << 20 });
      expect(newest.items.map((item) => item.ordinal)).toEqual([8, 9, 10]);
      expect(newest.more).toBe(true);
      const oldest = await t.store.pageItems(thread.id, { before: 3, limit: 3, maxBytes: 1 << 20 });
      expect(oldest.items.map((item) => item.ordinal)).toEqual([1, 2]);
      expect(oldest.more).toBe(false);
      // {"text":"answer 0"} is 19 bytes: two such items fit in 40, three do not.
      const bytes = await t.store.pageItems(thread.id, { after: 1, limit: 10, maxBytes: 40 });
      expect(bytes.items.map((item) => item.ordinal)).toEqual([2, 3]);
      const [turn] = await t.store.listTurns(thread.id);
      expect(turn).toBeDefined();
      const huge = await conversation(1, 'user:carol');
      const [hugeTurn] = await t.store.listTurns(huge.id);
      await t.store.appendItems(hugeTurn!.id, [{ kind: 'tool_result', data: { text: 'x'.repeat(5000) } }, { kind: 'assistant_text', data: { text: 'small' } }]);
      const alone = await t.store.pageItems(huge.id, { after: 2, limit: 10, maxBytes: 100 });
      expect(alone.items.map((item) => item.ordinal)).toEqual([3]);
      expect(alone.more).toBe(true);
      expect((await t.store.pageItems('no-such-thread', { after: 0, limit: 5, maxBytes: 100 })).items).toEqual([]);
      const refused = await t.store.pageItems(thread.id, { after: 0, limit: 0, maxBytes: 100 }).then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(refused) && refused.code).toBe('store_invalid_record');
    });

    it("pages an owner's threads most recent first with a cursor, and finds them by title or message text ignoring case", async () => {
      const made = [];
      for (let i = 0; i < 5; i++) {
        t.now += 10;
        made.push(await t.store.createThread({ owner: 'user:alice', title: `thread ${i}` }));
      }
      t.now += 10;
      await t.store.createThread({ owner: 'user:bob', title: 'thread of bob' });
      const first = await t.store.pageThreads('user:alice', { limit: 2 });
      expect(first.threads.map((thread) => thread.title)).toEqual(['thread 4', 'thread 3']);
      expect(first.next).not.toBeNull();
      const second = await t.store.pageThreads('user:alice', { limit: 2, after: first.next! });
      expect(second.threads.map((thread) => thread.title)).toEqual(['thread 2', 'thread 1']);
      const third = await t.store.pageThreads('user:alice', { limit: 2, after: second.next! });
      expect(third.threads.map((thread) => thread.title)).toEqual(['thread 0']);
      expect(third.next).toBeNull();
      const steel = await conversation(2, 'user:alice', (i) => (i === 1 ? 'Which parts are made of STEEL?' : 'hello'));
      expect((await t.store.pageThreads('user:alice', { limit: 10, search: 'steel' })).threads.map((thread) => thread.id)).toEqual([steel.id]);
      expect((await t.store.pageThreads('user:alice', { limit: 10, search: 'ANSWER 1' })).threads.map((thread) => thread.id)).toEqual([steel.id]);
      expect((await t.store.pageThreads('user:alice', { limit: 10, search: 'THREAD 3' })).threads.map((thread) => thread.title)).toEqual(['thread 3']);
      expect((await t.store.pageThreads('user:alice', { limit: 10, search: 'bob' })).threads).toEqual([]);
      // Keys of the item data are not text: nothing matches "text" but a title or message that says it.
      expect((await t.store.pageThreads('user:alice', { limit: 10, search: 'text' })).threads).toEqual([]);
    });

    it("sets a title and its source without moving the thread's place, and never replaces a person's title with a generated one", async () => {
      const older = await t.store.createThread({ owner: 'user:alice', title: 'first words' });
      t.now += 10;
      const newer = await t.store.createThread({ owner: 'user:alice', title: 'other' });
      expect(older.titleSource).toBeNull();
      expect(older.forkedFrom).toBeNull();
      t.now += 10;
      const renamed = await t.store.setThreadTitle(older.id, 'My steel question', 'person');
      expect(renamed).toMatchObject({ title: 'My steel question', titleSource: 'person', updatedAt: older.updatedAt });
      expect((await t.store.latestThread('user:alice'))?.id).toBe(newer.id);
      expect(await t.store.setThreadTitle(older.id, 'Parts: material name Steel', 'generated', { onlyIf: [null] })).toBeUndefined();
      expect((await t.store.getThread(older.id))?.title).toBe('My steel question');
      expect(await t.store.setThreadTitle(newer.id, 'Generated', 'generated', { onlyIf: [null] })).toMatchObject({ title: 'Generated', titleSource: 'generated' });
      expect(await t.store.setThreadTitle('no-such-thread', 'x', 'person')).toBeUndefined();
    });

    it('forks a thread through one of its items: the same items and ordinals under copied turns, the cut turn completed, the original untouched', async () => {
      const thread = await conversation(3);
      await t.store.updateThread(thread.id, { summary: 'so far', summaryThroughItemId: (await t.store.listItems(thread.id))[1]!.id, routerSession: '{"s":1}' });
      const last = (await t.store.listTurns(thread.id))[2]!;
      await t.store.updateTurn(last.id, { status: 'failed', failureCode: 'interrupted', failureMessage: 'stopped' });
      const items = await t.store.listItems(thread.id);
      t.now += 100;
      const fork = await t.store.forkThread({ threadId: thread.id, throughOrdinal: 4, fromItemId: items[3]!.id });
      expect(fork).toMatchObject({ owner: 'user:alice', title: thread.title, forkedFrom: { threadId: thread.id, itemId: items[3]!.id }, summary: 'so far', summaryThroughItemId: items[1]!.id, routerSession: null, updatedAt: t.now });
      expect((await t.store.latestThread('user:alice'))?.id).toBe(fork.id);
      const copied = await t.store.listItems(fork.id);
      expect(copied.map((item) => [item.ordinal, item.id, item.kind, item.data])).toEqual(items.slice(0, 4).map((item) => [item.ordinal, item.id, item.kind, item.data]));
      const turns = await t.store.listTurns(fork.id);
      expect(turns.map((turn) => turn.input)).toEqual(['question 0', 'question 1']);
      expect(turns.every((turn) => turn.threadId === fork.id && turn.status === 'completed')).toBe(true);
      expect(new Set(copied.map((item) => item.turnId))).toEqual(new Set(turns.map((turn) => turn.id)));
      // A cut inside the failed turn completes its copy; the whole failed turn keeps its failure.
      const cut = await t.store.forkThread({ threadId: thread.id, throughOrdinal: 5, fromItemId: items[4]!.id });
      expect((await t.store.listTurns(cut.id)).map((turn) => turn.status)).toEqual(['completed', 'completed', 'completed']);
      const whole = await t.store.forkThread({ threadId: thread.id, throughOrdinal: 6, fromItemId: items[5]!.id });
      expect((await t.store.listTurns(whole.id)).map((turn) => [turn.status, turn.failureCode])).toEqual([['completed', null], ['completed', null], ['failed', 'interrupted']]);
      expect(await t.store.listItems(thread.id)).toEqual(items);
      expect(await t.store.lastOrdinal(fork.id)).toBe(4);
      // The fork goes on with ordinals of its own; deleting it leaves the original whole.
      const next = await t.store.beginTurn({ threadId: fork.id, requestKey: 'fork-next', input: 'and then?' });
      expect(next.outcome === 'created' && next.userItem.ordinal).toBe(5);
      expect(await t.store.deleteThread(fork.id)).toBe(true);
      expect(await t.store.listItems(thread.id)).toEqual(items);
      expect(await t.store.listTurns(thread.id)).toHaveLength(3);
      const empty = await t.store.forkThread({ threadId: thread.id, throughOrdinal: 0, fromItemId: items[0]!.id });
      expect(await t.store.listItems(empty.id)).toEqual([]);
      expect(await t.store.listTurns(empty.id)).toEqual([]);
      const missing = await t.store.forkThread({ threadId: thread.id, throughOrdinal: 99, fromItemId: 'x' }).then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(missing) && missing.code).toBe('store_not_found');
    });
  });
}
