import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actorKey, isPlumbError } from '../../core/index.js';
import { createMemoryStore, openSqliteStore } from '../../store/index.js';
import type { Store } from '../../store/index.js';
import { collect } from '../index.js';
import type { ChatEvent } from '../index.js';
import { alice, bob, key, makeKit } from '../../../test/support/engine-kit.js';
import type { Kit } from '../../../test/support/engine-kit.js';
import { tempDirEach } from '../../../test/support/temp.js';

const dir = tempDirEach('plumb-queue-');
const kits: Kit[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const made of kits.splice(0)) await made.engine.close();
  for (const store of stores.splice(0)) await store.close();
});

function gated(): { gate: Promise<void>; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
}

/** Reads a stream until an event of `type` arrives (the rest is read by `rest`). */
async function until(stream: AsyncIterable<ChatEvent>, type: ChatEvent['type']): Promise<{ seen: ChatEvent[]; rest: Promise<ChatEvent[]> }> {
  const iterator = stream[Symbol.asyncIterator]();
  const seen: ChatEvent[] = [];
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return { seen, rest: Promise.resolve([]) };
    seen.push(next.value);
    if (next.value.type === type) break;
  }
  const rest = (async () => {
    const more: ChatEvent[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) more.push(next.value);
    return more;
  })();
  return { seen, rest };
}

/** A turn that holds its thread: its write (no confirmation) blocks until `open`. */
function busyKit(completions: unknown[], settings = {}) {
  const { gate, open } = gated();
  const made = makeKit({ completions: completions as never }, settings, { gate });
  kits.push(made);
  return { ...made, open };
}

const touch = (id: string) => ({ toolCalls: [{ id, name: 'touch', arguments: { id: 1 } }] });

describe('the thread queue', () => {
  it('queues a message sent while a turn runs, says where, and runs it next, streaming its own turn', async () => {
    const { engine, store, open } = busyKit([touch('w1'), { text: 'Touched.' }, { text: 'Second answer.' }, { text: 'Third answer.' }]);
    const first = await until(engine.send({ actor: alice, requestKey: key(), text: 'touch it' }), 'tool_call');
    const threadId = first.seen[0]!.thread_id;
    const second = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'and then this' }), 'queued');
    expect(second.seen).toEqual([expect.objectContaining({ type: 'queued', position: 1, text: 'and then this', thread_id: threadId })]);
    const third = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'third' }), 'queued');
    expect(third.seen[0]).toMatchObject({ type: 'queued', position: 2 });
    expect((await engine.queue.list({ actor: alice, threadId })).map((message) => [message.position, message.text])).toEqual([[1, 'and then this'], [2, 'third']]);
    open();
    expect((await first.rest).at(-1)).toMatchObject({ type: 'done' });
    const rest = await second.rest;
    expect(rest[0]).toMatchObject({ type: 'unqueued', reason: 'started', queue_id: second.seen[0]!.type === 'queued' ? second.seen[0].queue_id : '' });
    expect(rest.filter((event) => event.type === 'text_chunk').map((event) => (event.type === 'text_chunk' ? event.content : '')).join('')).toBe('Second answer.');
    expect(rest.at(-1)).toMatchObject({ type: 'done' });
    expect((await third.rest).at(-1)).toMatchObject({ type: 'done' });
    const turns = await store.listTurns(threadId);
    expect(turns.map((turn) => turn.input)).toEqual(['touch it', 'and then this', 'third']);
    expect(await store.listQueued(threadId)).toEqual([]);
  }, 20_000);

  it('refuses with turn_in_progress only past maxQueuedMessages, writing nothing', async () => {
    const { engine, store, open } = busyKit([touch('w1'), { text: 'Done.' }, { text: 'Next.' }], { maxQueuedMessages: 1 });
    const first = await until(engine.send({ actor: alice, requestKey: key(), text: 'touch it' }), 'tool_call');
    const threadId = first.seen[0]!.thread_id;
    const queued = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'one' }), 'queued');
    const refused = await collect(engine.send({ actor: alice, threadId, requestKey: key(), text: 'two' }));
    expect(refused.events).toEqual([expect.objectContaining({ type: 'error', code: 'turn_in_progress' })]);
    expect((await store.listQueued(threadId)).map((message) => message.text)).toEqual(['one']);
    open();
    await first.rest;
    expect((await queued.rest).at(-1)).toMatchObject({ type: 'done' });
  });

  it('keeps a confirmation answerable while a message waits, and runs the message once the person answered', async () => {
    const made = makeKit({ completions: [{ toolCalls: [{ id: 'w', name: 'create_part', arguments: { name: 'A' } }] }, { text: 'Created A.' }, { text: 'Then B.' }] });
    kits.push(made);
    const { engine, store } = made;
    const asked = await collect(engine.send({ actor: alice, requestKey: key(), text: 'create A' }));
    const confirmation = asked.events.at(-1)!;
    expect(confirmation.type).toBe('confirm_mutation');
    const threadId = confirmation.thread_id;
    const waiting = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'then B' }), 'queued');
    expect(waiting.seen[0]).toMatchObject({ type: 'queued', position: 1 });
    const confirmed = await collect(engine.confirm({ actor: alice, confirmationId: confirmation.type === 'confirm_mutation' ? confirmation.id : '', confirmed: true }));
    expect(confirmed.answer).toBe('Created A.');
    const rest = await waiting.rest;
    expect(rest.at(-1)).toMatchObject({ type: 'done' });
    expect((await store.listTurns(threadId)).map((turn) => [turn.input, turn.status])).toEqual([['create A', 'completed'], ['then B', 'completed']]);
    expect(made.writes).toHaveLength(1);
  });

  it('edits a queued message, and removes one, whose stream then ends', async () => {
    const { engine, store, open } = busyKit([touch('w1'), { text: 'Done.' }, { text: 'Edited ran.' }]);
    const first = await until(engine.send({ actor: alice, requestKey: key(), text: 'touch it' }), 'tool_call');
    const threadId = first.seen[0]!.thread_id;
    const kept = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'typo' }), 'queued');
    const dropped = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'never mind' }), 'queued');
    const keptId = kept.seen[0]!.type === 'queued' ? kept.seen[0].queue_id : '';
    const droppedId = dropped.seen[0]!.type === 'queued' ? dropped.seen[0].queue_id : '';
    const edited = await engine.queue.edit({ actor: alice, queueId: keptId, text: 'fixed', expectedText: 'typo' });
    expect(edited).toEqual({ threadId, queue: [expect.objectContaining({ id: keptId, text: 'fixed', position: 1 }), expect.objectContaining({ id: droppedId, position: 2 })] });
    const stale = await engine.queue.edit({ actor: alice, queueId: keptId, text: 'again', expectedText: 'typo' }).catch((error: unknown) => error);
    expect(isPlumbError(stale) && stale.code).toBe('queued_message_unavailable');
    expect((await engine.queue.remove({ actor: alice, queueId: droppedId })).queue.map((message) => message.id)).toEqual([keptId]);
    expect(await dropped.rest).toEqual([expect.objectContaining({ type: 'unqueued', reason: 'removed', queue_id: droppedId })]);
    const again = await engine.queue.remove({ actor: alice, queueId: droppedId }).catch((error: unknown) => error);
    expect(isPlumbError(again) && again.code).toBe('queued_message_unavailable');
    open();
    await first.rest;
    await kept.rest;
    expect((await store.listTurns(threadId)).map((turn) => turn.input)).toEqual(['touch it', 'fixed']);
  });

  it("never shows or changes another actor's queued message", async () => {
    const { engine, open } = busyKit([touch('w1'), { text: 'Done.' }, { text: 'Mine.' }]);
    const first = await until(engine.send({ actor: alice, requestKey: key(), text: 'touch it' }), 'tool_call');
    const threadId = first.seen[0]!.thread_id;
    const queued = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'mine' }), 'queued');
    const queueId = queued.seen[0]!.type === 'queued' ? queued.seen[0].queue_id : '';
    for (const attempt of [
      engine.queue.edit({ actor: bob, queueId, text: 'hijacked' }),
      engine.queue.remove({ actor: bob, queueId }),
      engine.queue.sendNow({ actor: bob, queueId }),
    ]) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(isPlumbError(error) && error.code).toBe('queued_message_unavailable');
    }
    const listed = await engine.queue.list({ actor: bob, threadId }).catch((caught: unknown) => caught);
    expect(isPlumbError(listed) && listed.code).toBe('thread_not_found');
    open();
    await first.rest;
    expect((await queued.rest).at(-1)).toMatchObject({ type: 'done' });
  });

  it('sends now: the running attempt stops gracefully (its tool finishes) and the chosen message runs next, ahead of the others', async () => {
    const { engine, store, writes, open } = busyKit([touch('w1'), { when: { userTextContains: 'only blue' }, text: 'Blue only, then.' }, { text: 'The other one.' }]);
    const first = await until(engine.send({ actor: alice, requestKey: key(), text: 'touch it' }), 'tool_call');
    const threadId = first.seen[0]!.thread_id;
    const other = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'the other one' }), 'queued');
    const chosen = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'only blue ones' }), 'queued');
    const queueId = chosen.seen[0]!.type === 'queued' ? chosen.seen[0].queue_id : '';
    const change = await engine.queue.sendNow({ actor: alice, queueId });
    expect(change.queue).toEqual([expect.objectContaining({ id: queueId, steer: true, position: 1 }), expect.objectContaining({ text: 'the other one', position: 2 })]);
    for (let i = 0; i < 200 && (await engine.threads.state({ actor: alice, threadId })).stopping === null; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await engine.threads.state({ actor: alice, threadId })).stopping).toMatchObject({ mode: 'graceful' });
    open();
    expect((await first.rest).at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
    expect(writes).toEqual([{ name: 'touch', input: { id: 1 } }]);
    const ran = await chosen.rest;
    expect(ran[0]).toMatchObject({ type: 'unqueued', reason: 'started', queue_id: queueId });
    expect(ran.at(-1)).toMatchObject({ type: 'done' });
    // The chosen turn ended as any turn does: the queue runs on.
    expect((await other.rest).at(-1)).toMatchObject({ type: 'done' });
    const turns = await store.listTurns(threadId);
    expect(turns.map((turn) => [turn.input, turn.status])).toEqual([['touch it', 'cancelled'], ['only blue ones', 'completed'], ['the other one', 'completed']]);
    const items = await store.listItems(threadId, { turnId: turns[0]!.id });
    expect(items.find((item) => item.kind === 'tool_result')).toMatchObject({ data: { callId: 'w1', result: { ok: true } } });
  });

  it('holds the queue after a stop: the stopped turn is not followed by the next message until the person sends it now, or removes it', async () => {
    const { engine, store, open } = busyKit([touch('w1'), { text: 'never' }, { text: 'Sent after the stop.' }], { gracefulCancelMs: 2000 });
    const first = await until(engine.send({ actor: alice, requestKey: key(), text: 'touch it' }), 'tool_call');
    const threadId = first.seen[0]!.thread_id;
    const kept = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'kept' }), 'queued');
    const removed = await until(engine.send({ actor: alice, threadId, requestKey: key(), text: 'removed' }), 'queued');
    const stopped = engine.cancel({ threadId, mode: 'graceful', actor: alice });
    for (let i = 0; i < 200 && (await engine.threads.state({ actor: alice, threadId })).stopping === null; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    const stopping = await engine.threads.state({ actor: alice, threadId });
    expect(stopping.turn).toMatchObject({ status: 'running' });
    expect(stopping.stopping).toMatchObject({ mode: 'graceful', requestedAt: expect.any(Number) });
    open();
    expect(await stopped).toMatchObject({ status: 'cancelled', failureCode: 'cancelled' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await engine.threads.state({ actor: alice, threadId });
    expect(after.stopping).toBeNull();
    expect(after.queue.map((entry) => entry.text)).toEqual(['kept', 'removed']);
    expect(await store.listTurns(threadId)).toHaveLength(1);
    const removedId = removed.seen[0]!.type === 'queued' ? removed.seen[0].queue_id : '';
    await engine.queue.remove({ actor: alice, queueId: removedId });
    expect(await removed.rest).toEqual([expect.objectContaining({ type: 'unqueued', reason: 'removed' })]);
    expect(await store.listTurns(threadId)).toHaveLength(1);
    const keptId = kept.seen[0]!.type === 'queued' ? kept.seen[0].queue_id : '';
    await engine.queue.sendNow({ actor: alice, queueId: keptId });
    expect((await kept.rest).at(-1)).toMatchObject({ type: 'done' });
    expect((await store.listTurns(threadId)).map((turn) => [turn.input, turn.status])).toEqual([['touch it', 'cancelled'], ['kept', 'completed']]);
  });

  it('keeps queued messages across a restart, and runs them once the thread is free', async () => {
    const path = join(dir.path, 'queue.sqlite');
    const open = async (): Promise<Store> => {
      const store = await openSqliteStore({ path });
      stores.push(store);
      return store;
    };
    const first = makeKit({ completions: [{ toolCalls: [{ id: 'w', name: 'create_part', arguments: { name: 'A' } }] }] }, {}, { store: await open() });
    const asked = await collect(first.engine.send({ actor: alice, requestKey: key(), text: 'create A' }));
    const confirmation = asked.events.at(-1)!;
    const threadId = confirmation.thread_id;
    const waiting = until(first.engine.send({ actor: alice, threadId, requestKey: key(), text: 'after the restart' }), 'queued');
    const queued = await waiting;
    await first.engine.close();
    expect(await queued.rest).toEqual([expect.objectContaining({ type: 'error', code: 'engine_closed' })]);
    const second = makeKit({ completions: [{ text: 'Created A.' }, { text: 'Ran after the restart.' }] }, {}, { store: await open() });
    kits.push(second);
    await second.engine.ready;
    expect((await second.engine.queue.list({ actor: alice, threadId })).map((message) => message.text)).toEqual(['after the restart']);
    const confirmed = await collect(second.engine.confirm({ actor: alice, confirmationId: confirmation.type === 'confirm_mutation' ? confirmation.id : '', confirmed: true }));
    expect(confirmed.answer).toBe('Created A.');
    for (let i = 0; i < 200 && ((await second.store.listTurns(threadId)).length < 2 || (await second.store.listTurns(threadId)).at(-1)?.status !== 'completed'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await second.store.listTurns(threadId)).map((turn) => [turn.input, turn.status])).toEqual([['create A', 'completed'], ['after the restart', 'completed']]);
    const items = await second.store.listItems(threadId);
    expect(items.filter((item) => item.kind === 'assistant_text').map((item) => (item.data as { text: string }).text)).toEqual(['Created A.', 'Ran after the restart.']);
  });

  it('reads no queue when a turn ends without one (maxQueuedMessages 0), and runs what was queued before once an engine starts', async () => {
    const store = createMemoryStore();
    const reads: string[] = [];
    const counted = new Proxy(store, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property === 'listQueued') reads.push('listQueued');
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const first = makeKit({ completions: [{ text: 'One.' }, { text: 'Two.' }] }, { maxQueuedMessages: 0 }, { store: counted });
    const one = await collect(first.engine.send({ actor: alice, requestKey: key(), text: 'one' }));
    await collect(first.engine.send({ actor: alice, threadId: one.events[0]!.thread_id, requestKey: key(), text: 'two' }));
    expect(reads).toEqual([]);
    await first.engine.close();
    // A message left in the queue from a configuration with one runs when an engine starts.
    const threadId = one.events[0]!.thread_id;
    await store.enqueueMessage({ threadId, owner: actorKey(alice)!, actor: alice as never, requestKey: key(), text: 'queued before', language: null, limit: 10 });
    const second = makeKit({ completions: [{ text: 'Ran at the start.' }] }, { maxQueuedMessages: 0 }, { store });
    kits.push(second);
    await second.engine.ready;
    const ran = async () => (await store.listTurns(threadId)).find((turn) => turn.input === 'queued before')?.status;
    for (let i = 0; i < 200 && (await ran()) !== 'completed'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await ran()).toBe('completed');
  });
});
