import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor, demoChatHost } from '../../src/demo/index.js';
import { createChatStack, createLocalThreadEvents, createServer, parseConfig } from '../../src/server/index.js';
import { Client, readSse } from './harness.js';
import { alice, bob, startThreadKit } from './thread-kit.js';
import type { ThreadKit } from './thread-kit.js';

interface Thread {
  readonly id: string;
  readonly title: string | null;
  readonly titleSource: string | null;
  readonly forkedFrom: { threadId: string; itemId: string } | null;
  readonly updatedAt: number;
}
interface Item {
  readonly id: string;
  readonly ordinal: number;
  readonly kind: string;
  readonly data: { text?: string };
}

describe('threads and pages over HTTP', () => {
  let kit: ThreadKit;
  let client: Client;
  beforeAll(async () => {
    kit = await startThreadKit();
    client = await new Client(kit.url, alice).withCsrf();
  });
  afterAll(async () => {
    await kit?.close();
  });

  async function conversation(...texts: string[]): Promise<string> {
    let thread: string | undefined;
    for (const text of texts) {
      const events = await readSse(await client.post('/chat/stream/', { text, ...(thread === undefined ? { new_thread: true } : { thread }) }));
      thread = String(events.at(-1)!.thread_id);
    }
    return thread!;
  }
  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

  it("pages the actor's threads with a cursor, and finds them by their words", async () => {
    const mine = await new Client(kit.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await conversation(`tell me about thread number ${i}`));
    const steel = await conversation('hello', 'which parts are made of steel?');
    const first = await json<{ threads: Thread[]; next: string | null }>(await mine.fetch('/chat/threads/?limit=2'));
    expect(first.threads.map((thread) => thread.id)).toEqual([steel, made[2]]);
    // What a client shows of a thread, never the journal's own state (its owner key, summary, router session).
    expect(Object.keys(first.threads[0]!).sort()).toEqual(['createdAt', 'forkedFrom', 'id', 'title', 'titleSource', 'updatedAt']);
    expect(typeof first.next).toBe('string');
    const second = await json<{ threads: Thread[]; next: string | null }>(await mine.fetch(`/chat/threads/?limit=2&cursor=${encodeURIComponent(first.next!)}`));
    expect(second.threads.map((thread) => thread.id).slice(0, 2)).toEqual([made[1], made[0]]);
    const found = await json<{ threads: Thread[] }>(await mine.fetch('/chat/threads/?q=STEEL'));
    expect(found.threads.map((thread) => thread.id)).toEqual([steel]);
    const answer = await json<{ threads: Thread[] }>(await mine.fetch(`/chat/threads/?q=${encodeURIComponent('five parts')}`));
    expect(answer.threads.map((thread) => thread.id)).toEqual([steel]);
    expect((await json<{ threads: Thread[] }>(await new Client(kit.url, bob).fetch('/chat/threads/?q=steel'))).threads).toEqual([]);
    expect((await mine.fetch('/chat/threads/?cursor=not-a-cursor')).status).toBe(400);
    expect(await json(await mine.fetch('/chat/threads/?limit=x'))).toMatchObject({ error: { code: 'bad_cursor' } });
  });

  it("pages a thread's items forwards and backwards, at most 150 items or 512 KiB a page", async () => {
    const thread = await conversation('hi', 'two big reads please', 'thanks');
    const all = await json<{ items: Item[] }>(await client.fetch(`/chat/threads/${thread}`));
    const first = await json<{ thread: string; items: Item[]; next: number | null }>(await client.fetch(`/chat/threads/${thread}/items/?after=0&limit=3`));
    expect(first.items.map((item) => item.ordinal)).toEqual([1, 2, 3]);
    expect(first.next).toBe(3);
    // Each read result keeps 300 KB in the journal: two do not fit in one page of 512 KiB.
    const big = await json<{ items: Item[]; next: number | null }>(await client.fetch(`/chat/threads/${thread}/items/?after=3`));
    const results = big.items.filter((item) => item.kind === 'tool_result');
    expect(results).toHaveLength(1);
    expect(big.next).toBe(big.items.at(-1)!.ordinal);
    let after = big.next;
    const rest: Item[] = [];
    while (after !== null) {
      const page = await json<{ items: Item[]; next: number | null }>(await client.fetch(`/chat/threads/${thread}/items/?after=${after}`));
      rest.push(...page.items);
      after = page.next;
    }
    expect([...first.items, ...big.items, ...rest].map((item) => item.id)).toEqual(all.items.map((item) => item.id));
    const newest = await json<{ items: Item[]; next: number | null }>(await client.fetch(`/chat/threads/${thread}/items/?limit=2`));
    expect(newest.items.map((item) => item.ordinal)).toEqual([all.items.length - 1, all.items.length]);
    expect(newest.next).toBe(all.items.length - 1);
    const older = await json<{ items: Item[] }>(await client.fetch(`/chat/threads/${thread}/items/?before=${newest.next!}&limit=2`));
    expect(older.items.map((item) => item.ordinal)).toEqual([all.items.length - 3, all.items.length - 2]);
    expect((await new Client(kit.url, bob).fetch(`/chat/threads/${thread}/items/`)).status).toBe(404);
    expect((await client.fetch(`/chat/threads/${thread}/items/?after=-2`)).status).toBe(400);
  });

  it('titles a thread from its first answer without a model, and renames it without making it the latest', async () => {
    const older = await conversation('which parts are made of steel?');
    const newer = await conversation('and the other one');
    const [titled] = (await json<{ threads: Thread[] }>(await client.fetch(`/chat/threads/?q=${encodeURIComponent('Steel is used')}`))).threads;
    expect(titled).toMatchObject({ id: older, title: 'Steel is used in five parts.', titleSource: 'generated' });
    const renamed = await json<{ thread: Thread }>(await client.post(`/chat/threads/${older}/rename/`, { title: '  My   steel question ' }));
    expect(renamed.thread).toMatchObject({ id: older, title: 'My steel question', titleSource: 'person', updatedAt: titled!.updatedAt });
    expect((await json<{ threads: Thread[] }>(await client.fetch('/chat/threads/?limit=1'))).threads[0]!.id).toBe(newer);
    // The next message without a thread still goes to the latest one.
    const next = await readSse(await client.post('/chat/stream/', { text: 'where am I?' }));
    expect(next.at(-1)!.thread_id).toBe(newer);
    const again = await json<{ thread: Thread }>(await client.post(`/chat/threads/${older}/rename/`, { title: null }));
    expect(again.thread).toMatchObject({ title: 'Steel is used in five parts.', titleSource: 'generated' });
    expect(await json(await client.post(`/chat/threads/${older}/rename/`, { title: ' ' }))).toMatchObject({ error: { code: 'bad_title' } });
    expect((await client.post(`/chat/threads/${older}/rename/`, { title: 7 })).status).toBe(400);
    expect((await (await new Client(kit.url, bob).withCsrf()).post(`/chat/threads/${older}/rename/`, { title: 'mine now' })).status).toBe(404);
  });

  it('forks a thread from an answer (through it) or from a message (before it, handing its text back)', async () => {
    const thread = await conversation('first question', 'second question', 'third question');
    const items = (await json<{ items: Item[] }>(await client.fetch(`/chat/threads/${thread}`))).items;
    const secondAnswer = items.filter((item) => item.kind === 'assistant_text')[1]!;
    const fork = await json<{ thread: Thread; text?: string }>(await client.post(`/chat/threads/${thread}/fork/`, { item: secondAnswer.id }));
    expect(fork.thread).toMatchObject({ forkedFrom: { threadId: thread, itemId: secondAnswer.id } });
    expect(fork.text).toBeUndefined();
    const copied = (await json<{ items: Item[] }>(await client.fetch(`/chat/threads/${fork.thread.id}`))).items;
    expect(copied.map((item) => item.id)).toEqual(items.filter((item) => item.ordinal <= secondAnswer.ordinal).map((item) => item.id));
    // The fork goes on as a thread of its own; the original is untouched.
    const goesOn = await readSse(await client.post('/chat/stream/', { text: 'a different third', thread: fork.thread.id }));
    expect(goesOn.at(-1)).toMatchObject({ type: 'done', thread_id: fork.thread.id });
    expect((await json<{ items: Item[] }>(await client.fetch(`/chat/threads/${thread}`))).items).toEqual(items);

    const thirdQuestion = items.filter((item) => item.kind === 'user_text')[2]!;
    const before = await json<{ thread: Thread; text?: string }>(await client.post(`/chat/threads/${thread}/fork/`, { item: thirdQuestion.id }));
    expect(before.text).toBe('third question');
    expect((await json<{ items: Item[] }>(await client.fetch(`/chat/threads/${before.thread.id}`))).items.map((item) => item.ordinal).at(-1)).toBe(thirdQuestion.ordinal - 1);

    const notMessage = items.find((item) => item.kind !== 'user_text' && item.kind !== 'assistant_text');
    if (notMessage !== undefined) expect(await json(await client.post(`/chat/threads/${thread}/fork/`, { item: notMessage.id }))).toMatchObject({ error: { code: 'fork_point_invalid' } });
    expect(await json(await client.post(`/chat/threads/${thread}/fork/`, { item: 'no-such-item' }))).toMatchObject({ error: { code: 'fork_point_invalid' } });
    expect((await (await new Client(kit.url, bob).withCsrf()).post(`/chat/threads/${thread}/fork/`, { item: secondAnswer.id })).status).toBe(404);
  });

  it("deletes a thread of one's own, and nobody else's", async () => {
    const thread = await conversation('delete me');
    expect((await (await new Client(kit.url, bob).withCsrf()).post(`/chat/threads/${thread}/delete/`, {})).status).toBe(404);
    expect(await json(await client.post(`/chat/threads/${thread}/delete/`, {}))).toEqual({ deleted: true });
    expect((await client.fetch(`/chat/threads/${thread}`)).status).toBe(404);
    expect((await client.post(`/chat/threads/${thread}/delete/`, {})).status).toBe(404);
  });
});

describe('a thread title from the router’s reading', () => {
  it('names a thread by what the router read it to ask for, in the app’s words', async () => {
    const app = await createDemoApp({ path: ':memory:' });
    const config = parseConfig({ store: ':memory:' });
    const stack = await createChatStack({ app, config, host: demoChatHost(app), events: createLocalThreadEvents() });
    const server = await createServer({ app, engine: stack.engine, settings: config, authenticate: (request) => (request.headers['x-plumb-user'] === 'alice' ? demoActor('alice')! : null) });
    try {
      const url = await server.listen({ port: 0, host: '127.0.0.1' });
      const client = await new Client(url, alice).withCsrf();
      await readSse(await client.post('/chat/stream/', { text: 'which parts are made of steel?', new_thread: true }));
      await readSse(await client.post('/chat/stream/', { text: 'zork the frobnicator', new_thread: true }));
      const threads = (await (await client.fetch('/chat/threads/')).json()) as { threads: Thread[] };
      expect(threads.threads.map((thread) => [thread.title, thread.titleSource])).toEqual([
        // The router could not read it: the title stays the person's words until a turn says more.
        ['zork the frobnicator', null],
        ['Parts: material name Steel', 'generated'],
      ]);
    } finally {
      await server.close();
      await stack.close();
      await app.close();
    }
  });
});
