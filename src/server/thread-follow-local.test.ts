import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/index.js';
import { announceWrites } from './announcing-store.js';
import { createLocalThreadEvents } from './thread-events.js';
import { followThread } from './thread-follow.js';
import type { FollowEvent } from './thread-follow.js';

describe('following a thread', () => {
  it('gives each item once and in order, reading the journal when a notice is missing, repeated, out of order or without its items', async () => {
    const events = createLocalThreadEvents();
    const journal = createMemoryStore();
    const store = announceWrites(journal, events);
    const thread = await store.createThread({ owner: 'user:alice' });
    const begun = await store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'hi' });
    const controller = new AbortController();
    const seen: FollowEvent[] = [];
    const following = (async () => {
      for await (const event of followThread({ store, events, threadId: thread.id, signal: controller.signal, pollMs: 50 })) {
        seen.push(event);
        if (seen.filter((entry) => entry.type === 'item').length === 6) controller.abort();
      }
    })();
    await store.appendItems(begun.turn.id, [{ kind: 'tool_call', data: { n: 2 } }]);
    // Written past the announcing store: no notice at all, found by the next notice's gap.
    await journal.appendItems(begun.turn.id, [{ kind: 'tool_result', data: { n: 3 } }]);
    await store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { n: 4 } }]);
    const [fifth] = await journal.appendItems(begun.turn.id, [{ kind: 'error', data: { n: 5 } }]);
    events.publish({ threadId: thread.id, items: [fifth!], ordinal: 5 });
    events.publish({ threadId: thread.id, items: [fifth!], ordinal: 5 });
    // A quiet journal write is found by the poll.
    await journal.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { n: 6 } }], { status: 'completed' });
    await following;
    expect(seen.filter((event) => event.type === 'item').map((event) => (event.type === 'item' ? event.item.ordinal : 0))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('stops when its signal aborts and leaves no listener behind', async () => {
    const events = createLocalThreadEvents();
    const store = createMemoryStore();
    const thread = await store.createThread({ owner: 'user:alice' });
    const controller = new AbortController();
    const iterator = followThread({ store, events, threadId: thread.id, signal: controller.signal })[Symbol.asyncIterator]();
    const next = iterator.next();
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    let delivered = 0;
    const remove = events.subscribe(thread.id, () => delivered++);
    events.publish({ threadId: thread.id, resync: true });
    remove();
    expect(delivered).toBe(1);
  });

  it('ends with thread_deleted once the thread is gone: at its deletion\'s notice, or at the poll when it was deleted elsewhere without one', async () => {
    const events = createLocalThreadEvents();
    const journal = createMemoryStore();
    const store = announceWrites(journal, events);
    const follow = async (threadId: string): Promise<FollowEvent[]> => {
      const seen: FollowEvent[] = [];
      for await (const event of followThread({ store, events, threadId, signal: new AbortController().signal, pollMs: 30 })) seen.push(event);
      return seen;
    };
    const noticed = await store.createThread({ owner: 'user:alice' });
    const quiet = await store.createThread({ owner: 'user:alice' });
    const ended = [follow(noticed.id), follow(quiet.id)];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await store.deleteThread(noticed.id)).toBe(true);
    // Past the announcing store (retention in another process without the notices): found by the poll.
    expect(await journal.deleteThread(quiet.id)).toBe(true);
    for (const seen of await Promise.all(ended)) expect(seen).toEqual([{ type: 'thread_deleted' }]);
  });
});
