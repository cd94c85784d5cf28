import { isPlumbError } from '../../core/index.js';
import { confirmation } from './suite.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of a thread's records: its owner's list, its fields, its deletion. */
export function threadCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('threads', () => {
    it('gives an owner their most recently updated thread first and hides other owners', async () => {
      const first = await t.store.createThread({ owner: 'user:alice', title: 'first' });
      t.now += 10;
      const second = await t.store.createThread({ owner: 'user:alice', title: 'second' });
      await t.store.createThread({ owner: 'user:bob' });
      expect((await t.store.latestThread('user:alice'))?.id).toBe(second.id);
      t.now += 10;
      await t.store.beginTurn({ threadId: first.id, requestKey: 'k', input: 'hi' });
      expect((await t.store.latestThread('user:alice'))?.id).toBe(first.id);
      expect((await t.store.listThreads('user:alice')).map((t) => t.title)).toEqual(['first', 'second']);
      expect(await t.store.listThreads('user:carol')).toEqual([]);
      expect(await t.store.latestThread('user:carol')).toBeUndefined();
    });

    it("begins a turn in a named thread only for its owner, reporting another owner's thread as missing", async () => {
      const thread = await t.store.createThread({ owner: 'user:alice' });
      const refused = await t.store.beginTurn({ threadId: thread.id, owner: 'user:bob', requestKey: 'k', input: 'hi' }).then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(refused) && refused.code).toBe('store_not_found');
      expect(await t.store.listItems(thread.id)).toEqual([]);
      expect((await t.store.beginTurn({ threadId: thread.id, owner: 'user:alice', requestKey: 'k', input: 'hi' })).outcome).toBe('created');
    });

    it('updates title, summary marker and router session, keeping the rest', async () => {
      const thread = await t.store.createThread({ owner: 'session:s1' });
      t.now += 5;
      const updated = await t.store.updateThread(thread.id, { summary: 'so far', summaryThroughItemId: 'i9', routerSession: '{"a":1}' });
      expect(updated).toMatchObject({ owner: 'session:s1', title: null, summary: 'so far', summaryThroughItemId: 'i9', routerSession: '{"a":1}' });
      expect(updated.updatedAt).toBe(t.now);
      expect(await t.store.getThread(thread.id)).toEqual(updated);
    });

    it('deletes a thread with its turns, items and confirmations', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', t.now + 1000));
      expect(await t.store.deleteThread(thread.id)).toBe(true);
      expect(await t.store.getThread(thread.id)).toBeUndefined();
      expect(await t.store.getTurn(turn.id)).toBeUndefined();
      expect(await t.store.listItems(thread.id)).toEqual([]);
      expect(await t.store.getConfirmation('c1')).toBeUndefined();
      expect(await t.store.deleteThread(thread.id)).toBe(false);
    });
  });
}
