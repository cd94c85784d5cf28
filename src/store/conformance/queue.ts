import { isPlumbError } from '../../core/index.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of the queue of messages waiting for their thread. */
export function queueCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('queue', () => {
    const enqueue = (threadId: string, requestKey: string, text: string, limit = 10, owner = 'user:alice') => t.store.enqueueMessage({ threadId, owner, actor: { kind: 'user', id: owner.slice(5), roles: ['admin'] }, requestKey, text, limit });

    it('queues messages in order with their positions, finds a resent request key, and refuses past the bound', async () => {
      const { thread } = await t.threadWithTurn();
      const first = await enqueue(thread.id, 'q1', 'one', 2);
      t.now += 1;
      const second = await t.store.enqueueMessage({ threadId: thread.id, owner: 'user:alice', actor: { kind: 'user', id: 'alice', roles: ['admin'] }, requestKey: 'q2', text: 'two', language: 'pt-BR', limit: 2 });
      expect(first).toMatchObject({ outcome: 'queued', position: 1, message: { text: 'one', steer: false, language: null, threadId: thread.id, owner: 'user:alice', requestKey: 'q1', actor: { kind: 'user', id: 'alice', roles: ['admin'] } } });
      expect(second).toMatchObject({ outcome: 'queued', position: 2, message: { language: 'pt-BR' } });
      expect(await enqueue(thread.id, 'q2', 'two', 2)).toMatchObject({ outcome: 'existing', position: 2 });
      expect(await enqueue(thread.id, 'q3', 'three', 2)).toEqual({ outcome: 'full', size: 2 });
      expect((await t.store.listQueued(thread.id)).map((m) => m.text)).toEqual(['one', 'two']);
      expect(await t.store.queuedThreads()).toEqual([thread.id]);
    });

    it("refuses another owner's thread as missing", async () => {
      const { thread } = await t.threadWithTurn();
      const refused = await enqueue(thread.id, 'q1', 'one', 10, 'user:bob').then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(refused) && refused.code).toBe('store_not_found');
      expect(await t.store.listQueued(thread.id)).toEqual([]);
    });

    it('edits a message only while it holds the expected text, moves one sent now to the head, and removes one', async () => {
      const { thread } = await t.threadWithTurn();
      await enqueue(thread.id, 'q1', 'one');
      const second = await enqueue(thread.id, 'q2', 'two');
      const third = await enqueue(thread.id, 'q3', 'three');
      if (second.outcome !== 'queued' || third.outcome !== 'queued') throw new Error('expected queued messages');
      t.now += 5;
      expect(await t.store.editQueued(second.message.id, 'TWO', 'two')).toMatchObject({ text: 'TWO', updatedAt: t.now });
      expect(await t.store.editQueued(second.message.id, 'again', 'two')).toBeUndefined();
      expect(await t.store.steerQueued(third.message.id)).toMatchObject({ steer: true, text: 'three' });
      expect((await t.store.listQueued(thread.id)).map((m) => m.text)).toEqual(['three', 'one', 'TWO']);
      expect(await t.store.enqueueMessage({ threadId: thread.id, owner: 'user:alice', actor: { kind: 'user', id: 'alice', roles: ['admin'] }, requestKey: 'q3', text: 'three', limit: 10 })).toMatchObject({ outcome: 'existing', position: 1 });
      expect(await t.store.removeQueued(second.message.id)).toBe(true);
      expect(await t.store.removeQueued(second.message.id)).toBe(false);
      expect(await t.store.editQueued(second.message.id, 'gone')).toBeUndefined();
      expect(await t.store.steerQueued(second.message.id)).toBeUndefined();
      expect((await t.store.listQueued(thread.id)).map((m) => m.text)).toEqual(['three', 'one']);
    });

    it('begins a queued message as the next turn only once the thread is free, and only once', async () => {
      const { thread, turn } = await t.threadWithTurn();
      const queued = await t.store.enqueueMessage({ threadId: thread.id, owner: 'user:alice', actor: { kind: 'user', id: 'alice', roles: ['admin'] }, requestKey: 'q1', text: 'next', language: 'en', limit: 10 });
      if (queued.outcome !== 'queued') throw new Error('expected a queued message');
      expect((await t.store.beginQueuedTurn(queued.message.id))?.begun.outcome).toBe('busy');
      expect(await t.store.listQueued(thread.id)).toHaveLength(1);
      await t.store.updateTurn(turn.id, { status: 'completed' });
      const begun = await Promise.all([t.store.beginQueuedTurn(queued.message.id, { lease: 'L1' }), t.store.beginQueuedTurn(queued.message.id, { lease: 'L1' })]);
      const created = begun.filter((result) => result?.begun.outcome === 'created');
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ message: { text: 'next', language: 'en' }, begun: { turn: { requestKey: 'q1', input: 'next', lease: 'L1', status: 'accepted' } } });
      expect(await t.store.listQueued(thread.id)).toEqual([]);
      expect(await t.store.queuedThreads()).toEqual([]);
      expect((await t.store.listTurns(thread.id)).map((t) => t.input)).toEqual(['hello', 'next']);
    });

    it('deletes a thread with its queue', async () => {
      const { thread } = await t.threadWithTurn();
      await enqueue(thread.id, 'q1', 'one');
      await t.store.deleteThread(thread.id);
      expect(await t.store.listQueued(thread.id)).toEqual([]);
      expect(await t.store.queuedThreads()).toEqual([]);
    });

    if (t.options.durable) it('keeps the queue across a reopen', async () => {
      if (t.fixture.reopen === undefined) throw new Error(`the ${t.options.name} fixture must offer reopen`);
      const { thread } = await t.threadWithTurn();
      await enqueue(thread.id, 'q1', 'one');
      const steered = await enqueue(thread.id, 'q2', 'two');
      if (steered.outcome !== 'queued') throw new Error('expected a queued message');
      await t.store.steerQueued(steered.message.id);
      const before = await t.store.listQueued(thread.id);
      await t.store.close();
      const reopened = await t.fixture.reopen();
      t.extraStores.push(reopened);
      expect(await reopened.listQueued(thread.id)).toEqual(before);
      expect(before.map((m) => [m.text, m.steer])).toEqual([['two', true], ['one', false]]);
    });
  });
}
