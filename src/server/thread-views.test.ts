import { afterEach, describe, expect, it } from 'vitest';
import { userActor } from '../core/index.js';
import { createEngine } from '../engine/index.js';
import type { Engine } from '../engine/index.js';
import { createMemoryStore } from '../store/index.js';
import type { Store } from '../store/index.js';
import { announceWrites } from './announcing-store.js';
import { createLocalThreadEvents } from './thread-events.js';
import type { ThreadEvents } from './thread-events.js';
import { createThreadViews } from './thread-views.js';
import type { ThreadViews, ThreadViewsOptions, ViewBatch, ViewEvent } from './thread-views.js';

const alice = userActor('alice');

/** A sink that keeps what it is given and drains only when told (`drain`), or at once (`eager`). */
function sink(eager: boolean) {
  const batches: ViewBatch[] = [];
  const waiting: (() => void)[] = [];
  let ended = false;
  return {
    batches,
    get ended() {
      return ended;
    },
    events: (): ViewEvent[] => batches.flatMap((batch) => batch.events),
    drain: () => {
      for (const drained of waiting.splice(0)) drained();
    },
    sink: {
      write: (batch: ViewBatch, drained: () => void) => {
        batches.push(batch);
        if (eager) setImmediate(drained);
        else waiting.push(drained);
      },
      end: () => (ended = true),
    },
  };
}

describe('live thread views (the library interface)', () => {
  const open: { views: ThreadViews; engine: Engine; events: ThreadEvents; store: Store }[] = [];
  afterEach(async () => {
    for (const made of open.splice(0)) {
      await made.views.close();
      await made.engine.close();
      await made.events.close();
    }
  });

  async function setup(options: Partial<ThreadViewsOptions> = {}) {
    const events = createLocalThreadEvents();
    const store = announceWrites(createMemoryStore(), events);
    const engine = createEngine({ store, tools: [] });
    await engine.ready;
    const views = createThreadViews({ store, events, coalesceMs: 25, maxPendingBatches: 64, maxPendingBytes: 1 << 20, maxReplayItems: 10_000, report: (error) => { throw error; }, ...options });
    open.push({ views, engine, events, store });
    const thread = await store.createThread({ owner: 'user:alice' });
    const begun = await store.beginTurn({ threadId: thread.id, requestKey: 'k1', input: 'hello' });
    if (begun.outcome !== 'created') throw new Error('expected a turn');
    const state = () => engine.threads.state({ actor: alice, threadId: thread.id });
    return { views, store, thread, turnId: begun.turn.id, state };
  }

  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 40));
  const until = async (condition: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('tells an observer that does not take its batches to resubscribe, with a fresh view, once maxPendingBatches are waiting, and lets it go', async () => {
    const { views, store, thread, turnId, state } = await setup({ maxPendingBatches: 3 });
    const slow = sink(false);
    views.observe({ threadId: thread.id, state, sink: slow.sink });
    await until(() => slow.batches.length > 0);
    for (let i = 0; i < 4; i++) {
      await store.appendItems(turnId, [{ kind: 'tool_call', data: { i } }]);
      await settle();
    }
    await until(() => slow.ended);
    const last = slow.events().at(-1)!;
    // The view and two items wait (three batches); the third item is one too many.
    expect(slow.events().filter((event) => event.type === 'item').map((event) => event.seq)).toEqual(['2', '3']);
    expect(last).toMatchObject({ type: 'resubscribe', reason: 'overflow', thread_id: thread.id, view: { ordinal: 4 } });
    expect(slow.ended).toBe(true);
    expect(views.counts()).toEqual({ observers: 0, threads: 0 });
  });

  it('bounds the bytes waiting too, but lets one large batch through alone so that a view always makes progress', async () => {
    const { views, store, thread, turnId, state } = await setup({ maxPendingBytes: 4000 });
    const slow = sink(false);
    views.observe({ threadId: thread.id, state, sink: slow.sink });
    await until(() => slow.batches.length > 0);
    slow.drain();
    await store.appendItems(turnId, [{ kind: 'tool_result', data: { text: 'x'.repeat(10_000) } }]);
    await until(() => slow.batches.length > 1);
    expect(slow.ended).toBe(false);
    await store.appendItems(turnId, [{ kind: 'assistant_text', data: { text: 'small' } }]);
    await until(() => slow.ended);
    expect(slow.events().at(-1)).toMatchObject({ type: 'resubscribe', reason: 'overflow' });
  });

  it('gathers drafts into one batch and sends them with the item that follows, each event once with its seq', async () => {
    const { views, store, thread, turnId, state } = await setup();
    const quick = sink(true);
    views.observe({ threadId: thread.id, state, sink: quick.sink });
    await until(() => quick.batches.length > 0);
    await store.appendItems(turnId, [{ kind: 'text_draft', data: { text: 'Hel', step: 1 } }]);
    await store.appendItems(turnId, [{ kind: 'text_draft', data: { text: 'lo', step: 1 } }]);
    await store.appendItems(turnId, [{ kind: 'assistant_text', data: { text: 'Hello', step: 1 } }], { status: 'completed' });
    await until(() => quick.events().some((event) => event.type === 'turn'));
    expect(quick.batches).toHaveLength(2);
    expect(quick.batches[1]!.events.map((event) => [event.type, event.seq])).toEqual([['item', '2'], ['item', '3'], ['item', '4'], ['turn', '4'], ['phase', '4']]);
    expect(quick.batches[1]!.sse()).toContain('id: 3\ndata: {"type":"item","seq":"3"');
  });

  it('replays a long gap page by page as the observer drains, then gives the view and goes on live', async () => {
    const { views, store, thread, turnId, state } = await setup();
    for (let i = 0; i < 40; i++) await store.appendItems(turnId, Array.from({ length: 10 }, (_, n) => ({ kind: 'tool_call' as const, data: { i, n } })));
    const paced = sink(true);
    views.observe({ threadId: thread.id, after: 0, state, sink: paced.sink });
    await until(() => paced.events().some((event) => event.type === 'view'));
    const replayed = paced.batches.filter((batch) => batch.events[0]?.type === 'item');
    expect(replayed.map((batch) => batch.events.length)).toEqual([150, 150, 101]);
    expect(paced.events().filter((event) => event.type === 'item').map((event) => Number(event.seq))).toEqual(Array.from({ length: 401 }, (_, i) => i + 1));
    await store.appendItems(turnId, [{ kind: 'assistant_text', data: { text: 'done' } }]);
    await until(() => paced.events().some((event) => event.seq === '402'));
    expect(paced.events().at(-1)).toMatchObject({ type: 'item', seq: '402' });
  });

  it('answers a replay longer than maxReplayItems with resubscribe: gap, and a view to start from', async () => {
    const { views, store, thread, turnId, state } = await setup({ maxReplayItems: 3 });
    await store.appendItems(turnId, Array.from({ length: 5 }, () => ({ kind: 'tool_call' as const, data: {} })));
    const quick = sink(true);
    views.observe({ threadId: thread.id, after: 1, state, sink: quick.sink });
    await until(() => quick.batches.length > 0);
    expect(quick.events()).toEqual([expect.objectContaining({ type: 'resubscribe', reason: 'gap', seq: '6', view: expect.objectContaining({ ordinal: 6 }) })]);
  });
});
