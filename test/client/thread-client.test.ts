import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlumbClient, isPlumbClientError, plumbChatTransport } from '../../src/client/index.js';
import type { PlumbClient, PlumbEvent, ThreadViewEvent } from '../../src/client/index.js';
import { startThreadKit } from '../server/thread-kit.js';
import type { ThreadKit } from '../server/thread-kit.js';

async function all<T>(events: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** Reads a view until `enough`, then stops the subscription. */
async function watch(client: PlumbClient, thread: string, enough: (events: ThreadViewEvent[]) => boolean, after?: string): Promise<ThreadViewEvent[]> {
  const controller = new AbortController();
  const seen: ThreadViewEvent[] = [];
  for await (const event of client.subscribe(thread, { signal: controller.signal, ...(after === undefined ? {} : { after }) })) {
    seen.push(event);
    if (enough(seen)) controller.abort();
  }
  return seen;
}

describe('plumb-agent/client: stop, retry, views and pages', () => {
  let kit: ThreadKit;
  let client: PlumbClient;
  beforeAll(async () => {
    kit = await startThreadKit();
    client = createPlumbClient({ baseUrl: kit.url, headers: { 'x-plumb-user': 'alice' } });
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('stops a running turn and retries it, streaming the retried turn to its end', async () => {
    const turn = client.stream({ text: 'stop me once3', newThread: true });
    const iterator = turn[Symbol.asyncIterator]();
    const first = (await iterator.next()).value as PlumbEvent;
    const stopped = await client.cancel(first.thread_id);
    expect(stopped).toEqual({ thread: first.thread_id, turn: { id: first.turn_id, status: 'cancelled', failure_code: 'cancelled' } });
    const rest: PlumbEvent[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) rest.push(next.value);
    expect(rest.at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
    const retried = await all(client.retry({ thread: first.thread_id }));
    expect(retried.at(-1)).toMatchObject({ type: 'done', turn_id: first.turn_id });
    const refused = await all(client.retry({ turn: first.turn_id }));
    expect(refused).toEqual([expect.objectContaining({ type: 'error', code: 'not_retryable', reason: 'completed' })]);
    await expect(client.cancel('not-a-thread')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('regenerates the latest answer, and keeps a queued message after a stop until it is sent now', async () => {
    const first = await all(client.stream({ text: 'regen from the client', newThread: true }));
    const thread = first.at(-1)!.thread_id;
    const again = await all(client.retry({ thread, regenerate: true }));
    expect(again.at(-1)).toMatchObject({ type: 'done', turn_id: first.at(-1)!.turn_id });
    expect(again.filter((event) => event.type === 'text_chunk').map((event) => (event.type === 'text_chunk' ? event.content : '')).join('')).toBe('Second take.');

    const running = client.stream({ text: 'slow please', thread })[Symbol.asyncIterator]();
    await running.next();
    const waiting = client.stream({ text: 'after the stop', thread })[Symbol.asyncIterator]();
    const queued = (await waiting.next()).value as PlumbEvent;
    expect(queued).toMatchObject({ type: 'queued', position: 1 });
    expect((await client.cancel(thread, { mode: 'graceful' })).turn).toMatchObject({ status: 'cancelled' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await kit.store.listQueued(thread)).map((message) => message.text)).toEqual(['after the stop']);
    const sent = await client.sendQueuedNow(String((queued as { queue_id?: unknown }).queue_id));
    expect(sent.queue).toEqual([expect.objectContaining({ text: 'after the stop', steer: true })]);
    const rest: PlumbEvent[] = [];
    for (let next = await waiting.next(); next.done !== true; next = await waiting.next()) rest.push(next.value);
    expect(rest[0]).toMatchObject({ type: 'unqueued', reason: 'started' });
    expect(rest.at(-1)).toMatchObject({ type: 'done' });
  });

  it('follows a thread: a view, then each item as it is committed; and replays what came after a seq', async () => {
    const thread = (await all(client.stream({ text: 'hello', newThread: true }))).at(-1)!.thread_id;
    const following = watch(client, thread, (events) => events.some((event) => event.type === 'turn' && event.status === 'completed' && Number(event.seq) > 2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await all(client.stream({ text: 'which parts are made of steel?', thread }));
    const seen = await following;
    expect(seen[0]).toMatchObject({ type: 'view', seq: '2', turn: { status: 'completed' } });
    const kinds = seen.flatMap((event) => (event.type === 'item' ? [event.item.kind] : []));
    expect(kinds[0]).toBe('user_text');
    expect(kinds).toContain('text_draft');
    expect(kinds.at(-1)).toBe('assistant_text');
    const replayed = await watch(client, thread, (events) => events.some((event) => event.type === 'view'), '2');
    expect(replayed.filter((event) => event.type === 'item').map((event) => (event.type === 'item' ? event.item.ordinal : 0))[0]).toBe(3);
    expect(replayed.at(-1)).toMatchObject({ type: 'view', seq: String(kinds.length + 2) });
    const refused = await all(client.subscribe('not-a-thread', { reconnect: false })).catch((error: unknown) => error);
    expect(isPlumbClientError(refused) && refused.code).toBe('not_found');
  });

  it('ends a subscription when its thread is deleted: thread_deleted last, and no reconnect', async () => {
    const thread = (await all(client.stream({ text: 'hello', newThread: true }))).at(-1)!.thread_id;
    const seen: ThreadViewEvent[] = [];
    let opened = (): void => undefined;
    const viewing = new Promise<void>((resolve) => (opened = resolve));
    const ended = (async () => {
      for await (const event of client.subscribe(thread)) {
        seen.push(event);
        if (event.type === 'view') opened();
      }
    })();
    await viewing;
    expect(await client.deleteThread(thread)).toBe(true);
    await ended;
    expect(seen.map((event) => event.type)).toEqual(['view', 'thread_deleted']);
  });

  it("pages the actor's threads and a thread's items, finds, renames, forks and deletes", async () => {
    const thread = (await all(client.stream({ text: 'which parts are made of steel?', newThread: true }))).at(-1)!.thread_id;
    await all(client.stream({ text: 'and then?', thread }));
    const page = await client.threadPage({ limit: 1 });
    expect(page.threads.map((item) => item.id)).toEqual([thread]);
    expect(page.next).not.toBeNull();
    expect((await client.threadPage({ search: 'STEEL IS USED' })).threads.map((item) => item.id)).toContain(thread);
    const items = await client.items(thread, { after: 0, limit: 2 });
    expect(items.items.map((item) => item.ordinal)).toEqual([1, 2]);
    expect(items.next).toBe(2);
    const newest = await client.items(thread, { limit: 1 });
    expect(newest.items[0]!.kind).toBe('assistant_text');
    expect(await client.rename(thread, 'Steel')).toMatchObject({ id: thread, title: 'Steel', titleSource: 'person' });
    const answer = (await client.items(thread, { after: 0 })).items.find((item) => item.kind === 'assistant_text')!;
    const fork = await client.fork(thread, answer.id);
    expect(fork.thread).toMatchObject({ title: 'Steel', forkedFrom: { threadId: thread, itemId: answer.id } });
    expect(await client.deleteThread(fork.thread.id)).toBe(true);
    await expect(client.items(fork.thread.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lets useChat reconnect to a turn still running, and to nothing once none is', async () => {
    const transport = plumbChatTransport(client);
    const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'c1', messageId: undefined, messages: [{ role: 'user', parts: [{ type: 'text', text: 'a slow answer' }] }], abortSignal: undefined });
    const reader = stream.getReader();
    // The first chunks name the thread; then the page "reloads" while the turn streams on.
    for (let chunk = await reader.read(); chunk.done !== true && chunk.value.type !== 'text-delta'; chunk = await reader.read());
    await reader.cancel();
    const resumed = await transport.reconnectToStream({ chatId: 'c1' });
    expect(resumed).not.toBeNull();
    const chunks: { type: string }[] = [];
    const resumedReader = resumed!.getReader();
    for (let chunk = await resumedReader.read(); chunk.done !== true; chunk = await resumedReader.read()) {
      chunks.push(chunk.value);
      if (chunks.filter((item) => item.type === 'text-delta').length >= 2) break;
    }
    await resumedReader.cancel();
    expect(chunks.map((chunk) => chunk.type)).toContain('text-delta');
    const threads = await client.threadPage({ limit: 1 });
    await client.cancel(threads.threads[0]!.id);
    expect(await transport.reconnectToStream({ chatId: 'c1' })).toBeNull();
  });
});
