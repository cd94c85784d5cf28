import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEngine } from '../../src/engine/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { defineTool } from '../../src/tools/index.js';
import { Client, readSse, startServer } from './harness.js';
import type { Running } from './harness.js';
import { createFakeEngine } from './fake-engine.js';
import type { FakeEngine } from './fake-engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

describe('chat over HTTP and SSE', () => {
  let running: Running;
  let engine: FakeEngine;
  const errors: unknown[] = [];
  beforeAll(async () => {
    engine = createFakeEngine();
    running = await startServer(engine, { rateLimit: { requests: 1000 } }, { onError: (error) => errors.push(error) });
  });
  afterAll(async () => running.close());

  it('answers POST /chat/ with the ordered events and the joined answer', async () => {
    const client = await new Client(running.url, { 'x-plumb-user': 'bob' }).withCsrf();
    const response = await client.post('/chat/', { text: 'hello' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.events.map((event: Json) => event.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'text_chunk', 'done']);
    expect(body.answer).toBe('Echo: hello');
    expect(body.thread).toMatch(/^t\d+$/);
  });

  it('issues a CSRF token from GET /chat/csrf/ and refuses POSTs without a matching header with 403', async () => {
    const client = new Client(running.url);
    const missing = await client.post('/chat/', { text: 'hello' });
    expect(missing.status).toBe(403);
    expect(((await missing.json()) as Json).error.code).toBe('csrf_failed');
    await client.withCsrf();
    const wrong = await client.post('/chat/', { text: 'hello' }, { 'x-csrf-token': `${client.csrf!}x` });
    expect(wrong.status).toBe(403);
    const forged = new Client(running.url);
    forged.cookies.set('plumb_csrf', 'abc.def');
    expect((await forged.post('/chat/stream/', { text: 'hello' }, { 'x-csrf-token': 'abc.def' })).status).toBe(403);
    expect((await client.post('/chat/', { text: 'hello' })).status).toBe(200);
  });

  it.each([
    ['GET', '/chat/stream/'],
    ['PUT', '/chat/'],
    ['DELETE', '/chat/confirm/'],
    ['GET', '/chat/'],
    ['POST', '/chat/threads/'],
  ])('answers %s %s with 405', async (method, path) => {
    const response = await fetch(`${running.url}${path}`, { method });
    expect(response.status).toBe(405);
    expect(((await response.json()) as Json).error.code).toBe('method_not_allowed');
  });

  it.each([
    ['a missing text', {}],
    ['a blank text', { text: '   ' }],
    ['a non-string text', { text: 42 }],
  ])('answers bad_message for %s', async (_, body) => {
    const client = await new Client(running.url).withCsrf();
    for (const path of ['/chat/', '/chat/stream/']) {
      const response = await client.post(path, body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as Json).events[0]).toMatchObject({ type: 'error', code: 'bad_message' });
    }
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const client = await new Client(running.url).withCsrf();
    const malformed = await client.post('/chat/', '{"text": ');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as Json).error.code).toBe('bad_request');
    const huge = await client.post('/chat/', { text: 'x'.repeat(70 * 1024) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as Json).error.code).toBe('payload_too_large');
  });

  it('streams SSE events as data lines, the headers leaving with the first event', async () => {
    const client = await new Client(running.url).withCsrf();
    expect(client.cookies.has('plumb_session')).toBe(true);
    const raw = await new Promise<{ headers: Record<string, unknown>; first: string }>((resolve, reject) => {
      const req = httpRequest(`${running.url}/chat/stream/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': client.csrf!, cookie: client.cookieHeader() },
      });
      req.once('response', (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve({ headers: res.headers, first: chunk.toString('utf8') });
          res.resume();
        });
      });
      req.once('error', reject);
      req.end(JSON.stringify({ text: 'slow one' }));
    });
    expect(raw.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(raw.first.startsWith('data: ')).toBe(true);
  });

  it('sends an SSE response’s headers with its first event, or alone once the turn has said nothing for sseHeadersWithinSeconds', async () => {
    const engine = createFakeEngine();
    const waiting = await startServer(engine, { sseHeadersWithinSeconds: 0.05 });
    try {
      const client = await new Client(waiting.url).withCsrf();
      // The turn says nothing until released: only the timer can have sent the headers.
      const response = await client.post('/chat/stream/', { text: 'wait for it' });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      engine.release();
      const events = await readSse(response);
      expect(events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'text_chunk', 'done']);
    } finally {
      await waiting.close();
    }
  });

  it('keeps the anonymous session across requests and scopes threads to it', async () => {
    const visitor = await new Client(running.url).withCsrf();
    const first = (await (await visitor.post('/chat/', { text: 'hello' })).json()) as Json;
    const again = (await (await visitor.post('/chat/', { text: 'hello again', thread: first.thread })).json()) as Json;
    expect(again.answer).toBe('Echo: hello again');
    const list = (await (await visitor.fetch('/chat/threads/')).json()) as Json;
    expect(list.threads.map((thread: Json) => thread.id)).toContain(first.thread);

    const stranger = await new Client(running.url).withCsrf();
    const hijack = (await (await stranger.post('/chat/', { text: 'hello', thread: first.thread })).json()) as Json;
    expect(hijack.events.at(-1)).toMatchObject({ type: 'error', code: 'thread_not_found' });
    expect((await stranger.fetch(`/chat/threads/${first.thread}`)).status).toBe(404);
    expect(((await (await stranger.fetch('/chat/threads/')).json()) as Json).threads).toEqual([]);
    const history = (await (await visitor.fetch(`/chat/threads/${first.thread}`)).json()) as Json;
    expect(history.items.map((item: Json) => item.text)).toContain('hello again');
  });

  it('answers confirmation_required_transport when a plain HTTP turn needs a confirmation', async () => {
    const alice = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const body = (await (await alice.post('/chat/', { text: 'write an order' })).json()) as Json;
    expect(body.events.map((event: Json) => event.type)).toEqual(['tool_call', 'error']);
    expect(body.events[1]).toMatchObject({ code: 'confirmation_required_transport' });
  });

  it('pauses an SSE turn on confirm_mutation and resumes it through POST /chat/confirm/, once', async () => {
    const alice = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const events = await readSse(await alice.post('/chat/stream/', { text: 'write an order' }));
    const confirm = events.find((event) => event.type === 'confirm_mutation')!;
    expect(confirm).toMatchObject({ mutation: 'createOrder', input: { note: 'x' } });

    const bob = await new Client(running.url, { 'x-plumb-user': 'bob' }).withCsrf();
    const stolen = (await (await bob.post('/chat/confirm/', { confirmation_id: confirm.id, confirmed: true })).json()) as Json;
    expect(stolen.events[0]).toMatchObject({ type: 'error', code: 'confirmation_unavailable' });

    const resumed = (await (await alice.post('/chat/confirm/', { confirmation_id: confirm.id, confirmed: true })).json()) as Json;
    expect(resumed.answer).toBe('Created order 9.');
    const replay = (await (await alice.post('/chat/confirm/', { confirmation_id: confirm.id, confirmed: true })).json()) as Json;
    expect(replay.events[0]).toMatchObject({ code: 'confirmation_unavailable' });
  });

  it('answers bad_event for a malformed confirmation payload', async () => {
    const alice = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    for (const body of [{}, { confirmation_id: 'c1' }, { confirmation_id: 3, confirmed: true }, { confirmation_id: 'c1', confirmed: 'yes' }]) {
      const response = await alice.post('/chat/confirm/', body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as Json).events[0].code).toBe('bad_event');
    }
  });

  it('hides an unexpected failure behind the generic chat_error and reports the detail', async () => {
    const client = await new Client(running.url).withCsrf();
    const body = (await (await client.post('/chat/', { text: 'boom' })).json()) as Json;
    expect(body.events.at(-1)).toEqual({ type: 'error', code: 'chat_error', message: expect.not.stringMatching(/secret/) });
    expect(errors.some((error) => error instanceof Error && error.message.includes('secret detail'))).toBe(true);
  });

  it('finishes a turn whose SSE client disconnected, and keeps it in the history', async () => {
    const client = await new Client(running.url).withCsrf();
    const controller = new AbortController();
    const response = await client.post('/chat/stream/', { text: 'slow and steady' }, {});
    void response;
    const second = await fetch(`${running.url}/chat/stream/`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', 'x-csrf-token': client.csrf!, cookie: client.cookieHeader() },
      body: JSON.stringify({ text: 'slow but abandoned' }),
    });
    const reader = second.body!.getReader();
    await reader.read();
    controller.abort();
    await expect.poll(() => engine.completedTurns.includes('slow but abandoned'), { timeout: 5000 }).toBe(true);
    const threads = ((await (await client.fetch('/chat/threads/')).json()) as Json).threads as Json[];
    const histories = await Promise.all(threads.map(async (thread: Json) => ((await (await client.fetch(`/chat/threads/${thread.id}`)).json()) as Json).items));
    expect(histories.flat().map((item: Json) => item.text)).toContain('slow but abandoned');
  });
});

describe('the answer of POST /chat/ over a real engine', () => {
  it('is every text chunk of the turn, the text written before a tool call included and a failed attempt\'s left out', async () => {
    const store = createMemoryStore();
    const engine = createEngine({
      store,
      provider: createScriptedProvider({
        completions: [
          // The first attempt after the tool is cut mid-text and retried; its chunks, slow enough to be shown as a draft, are not part of the answer.
          { when: { toolName: 'count_parts' }, text: ['Partial ', 'draft ', 'text'], chunkDelayMs: 200, cutAfterChunks: 2 },
          { when: { toolName: 'count_parts' }, text: ['There are ', '3 parts.'], repeat: true },
          { text: 'Let me count them. ', toolCalls: [{ name: 'count_parts', arguments: {} }], repeat: true },
        ],
      }),
      tools: [defineTool({ name: 'count_parts', description: 'Counts the parts.', input: z.object({}), effect: 'read', handler: () => ({ count: 3 }) })],
      settings: { retry: { maxAttempts: 1, backoffMs: [1] } },
    });
    await engine.ready;
    const running = await startServer(engine, { rateLimit: { requests: 1000 } });
    try {
      const client = await new Client(running.url).withCsrf();
      const body = (await (await client.post('/chat/', { text: 'how many parts?' })).json()) as Json;
      const types = body.events.map((event: Json) => event.type);
      expect(types.slice(0, 3)).toEqual(['text_chunk', 'tool_call', 'tool_result']);
      expect(types).toContain('retry');
      expect(types.at(-1)).toBe('done');
      expect(body.answer).toBe('Let me count them. There are 3 parts.');
    } finally {
      await running.close();
      await engine.close();
      await store.close();
    }
  });
});
