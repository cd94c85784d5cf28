import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createFetchHandler, parseConfig } from '../../src/server/index.js';
import type { ChatEngine, EngineEvent, FetchHandlerOptions, PermissionScope, PlumbConfigInput, PlumbFetchHandler } from '../../src/server/index.js';
import { createFakeEngine } from './fake-engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

/** These tests' engines hold no confirmations. */
async function* noConfirmations(): AsyncIterable<EngineEvent> {
  await Promise.resolve();
  yield { type: 'error', code: 'confirmation_unavailable', message: 'No such confirmation.' } as EngineEvent;
}

/** An engine whose turn says `first`, then waits for `release()` before it ends. */
function createGatedEngine(): ChatEngine & { release(): void; readonly finished: Promise<void> } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const base = { thread_id: 't1', turn_id: 'u1' };
  return {
    release: () => release(),
    finished,
    async *send() {
      yield { ...base, type: 'text_chunk', content: 'first' } as EngineEvent;
      await gate;
      yield { ...base, type: 'text_chunk', content: ' and last' } as EngineEvent;
      yield { ...base, type: 'done', usage: { input_tokens: 0, output_tokens: 0 } } as EngineEvent;
      finish();
    },
    confirm: noConfirmations,
    threads: { list: () => Promise.resolve([]), history: () => Promise.resolve([]) },
  };
}

/** An engine whose turn says `count` chunks of `size` characters, one per event-loop turn. */
function createChattyEngine(count: number, size: number): ChatEngine & { readonly finished: Promise<void> } {
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  return {
    finished,
    async *send() {
      for (let i = 0; i < count; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        yield { type: 'text_chunk', content: 'x'.repeat(size), thread_id: 't1', turn_id: 'u1' } as EngineEvent;
      }
      yield { type: 'done', usage: { input_tokens: 0, output_tokens: 0 }, thread_id: 't1', turn_id: 'u1' } as EngineEvent;
      finish();
    },
    confirm: noConfirmations,
    threads: { list: () => Promise.resolve([]), history: () => Promise.resolve([]) },
  };
}

/** A browser-like caller of a fetch handler: keeps cookies, sends the CSRF pair on POSTs. */
class FetchClient {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;
  constructor(
    readonly handler: PlumbFetchHandler,
    readonly base = '',
  ) {}

  async send(path: string, init: RequestInit = {}, info?: { clientAddress?: string }): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookie !== '') headers.set('cookie', cookie);
    const response = await this.handler.handle(new Request(`http://plumb.test${this.base}${path}`, { ...init, headers }), info);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return response;
  }

  async withCsrf(): Promise<this> {
    this.csrf = ((await (await this.send('/chat/csrf/')).json()) as { token: string }).token;
    return this;
  }

  post(path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
    return this.send(path, { ...init, method: 'POST', headers: { 'content-type': 'application/json', ...(this.csrf === undefined ? {} : { 'x-csrf-token': this.csrf }) }, body: typeof body === 'string' || body instanceof ReadableStream ? body : JSON.stringify(body) });
  }
}

const decoder = new TextDecoder();

describe('createFetchHandler', () => {
  let app: App;
  const handlers: PlumbFetchHandler[] = [];
  const open = async (engine: ChatEngine, settings: PlumbConfigInput = {}, extra: Partial<FetchHandlerOptions> = {}): Promise<PlumbFetchHandler> => {
    const handler = await createFetchHandler({
      app,
      engine,
      settings: parseConfig({ rateLimit: { requests: 1000 }, ...settings }),
      authenticate: (request) => {
        const header = request.headers['x-plumb-user'];
        return typeof header === 'string' ? (demoActor(header) ?? null) : null;
      },
      secret: 'x'.repeat(40),
      ...extra,
    });
    handlers.push(handler);
    return handler;
  };
  beforeAll(async () => {
    app = await createDemoApp({ path: ':memory:' });
  });
  afterAll(async () => {
    for (const handler of handlers) await handler.close();
    await app.close();
  });

  it('serves /healthz, /graphql, the CSRF token, turns, threads, and Plumb’s 404 and 405', async () => {
    const client = new FetchClient(await open(createFakeEngine()));
    expect(await (await client.send('/healthz')).json()).toEqual({ status: 'ok' });
    const graphql = await client.send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'x-plumb-user': 'bob' }, body: JSON.stringify({ query: '{ materialList(filter: {name: "Steel"}) { items { name } } }' }) });
    expect(await graphql.json()).toEqual({ data: { materialList: { items: [{ name: 'Steel' }] } } });

    expect((await client.post('/chat/', { text: 'hello' })).status).toBe(403);
    await client.withCsrf();
    expect(client.cookies.has('plumb_session')).toBe(true);
    const turn = (await (await client.post('/chat/', { text: 'hello' })).json()) as Json;
    expect(turn).toMatchObject({ answer: 'Echo: hello', thread: expect.any(String) });
    const threads = (await (await client.send('/chat/threads/')).json()) as Json;
    expect(threads.threads.map((thread: Json) => thread.id)).toEqual([turn.thread]);
    const history = (await (await client.send(`/chat/threads/${turn.thread}`)).json()) as Json;
    expect(history.items.map((item: Json) => item.text)).toContain('hello');

    const unknown = await client.send('/nowhere');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: 'not_found', message: 'No route answers this method and path.' } });
    const socket = await client.send('/chat/');
    expect(socket.status).toBe(405);
    expect(((await socket.json()) as Json).error).toEqual({ code: 'method_not_allowed', message: expect.stringContaining('WebSocket is not served here') });
    const malformed = await client.post('/chat/', '{"text": ');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as Json).error.code).toBe('bad_request');
  });

  it('streams SSE events as they happen: the first arrives before the turn ends', async () => {
    const engine = createGatedEngine();
    const client = await new FetchClient(await open(engine)).withCsrf();
    const response = await client.post('/chat/stream/', { text: 'hello' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('connection')).toBeNull();
    const reader = response.body!.getReader();
    const first = decoder.decode((await reader.read()).value);
    expect(first).toBe(`data: ${JSON.stringify({ thread_id: 't1', turn_id: 'u1', type: 'text_chunk', content: 'first' })}\n\n`);
    let ended = false;
    void engine.finished.then(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    engine.release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value);
    expect(rest).toContain('" and last"');
    expect(rest).toContain('"type":"done"');
  });

  it.each([
    ['aborts its request', (controller: AbortController, reader: ReadableStreamDefaultReader<Uint8Array>) => (controller.abort(), reader.read())],
    ['cancels the body', (_controller: AbortController, reader: ReadableStreamDefaultReader<Uint8Array>) => reader.cancel()],
  ])('stops the stream when the client %s, and the turn runs to its end', async (_, leave) => {
    const engine = createGatedEngine();
    const client = await new FetchClient(await open(engine)).withCsrf();
    const controller = new AbortController();
    const response = await client.post('/chat/stream/', { text: 'hello' }, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect(decoder.decode((await reader.read()).value)).toContain('"first"');
    const left = leave(controller, reader);
    if (controller.signal.aborted) await expect(left).rejects.toThrow(/abort/i);
    else await left;
    engine.release();
    await engine.finished;
  });

  it('refuses a body over the limit with 413 payload_too_large, whether or not it says its length', async () => {
    const client = await new FetchClient(await open(createFakeEngine())).withCsrf();
    const text = JSON.stringify({ text: 'x'.repeat(100_000) });
    const sized = await client.post('/chat/', text);
    const chunked = await client.post('/chat/', new Blob([text]).stream(), { duplex: 'half' });
    for (const response of [sized, chunked]) {
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ error: { code: 'payload_too_large', message: 'The request body is larger than 65536 bytes (the server\'s bodyLimitBytes setting). Send a shorter message.' } });
    }
  });

  it('serves every route under its prefix, and refuses a prefix that is not a path', async () => {
    await expect(createFetchHandler({ app, prefix: 'api' })).rejects.toMatchObject({ code: 'invalid_config' });
    const handler = await open(createFakeEngine(), {}, { prefix: '/api/' });
    const client = await new FetchClient(handler, '/api').withCsrf();
    expect(((await (await client.post('/chat/', { text: 'hello' })).json()) as Json).answer).toBe('Echo: hello');
    expect(await (await client.send('/healthz')).json()).toEqual({ status: 'ok' });
    const page = await (await client.send('/console/')).text();
    expect(page).toContain('<meta name="plumb-chat-url" content="/api/chat/">');
    const outside = await handler.handle(new Request('http://plumb.test/chat/csrf/'));
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as Json).error.code).toBe('not_found');
  });

  it('passes the client address on to the permission callable', async () => {
    const scopes: PermissionScope[] = [];
    const permission = (_actor: unknown, scope: PermissionScope): boolean => (scopes.push(scope), true);
    const client = await new FetchClient(await open(createFakeEngine(), { permission })).withCsrf();
    await client.send('/chat/threads/', {}, { clientAddress: '203.0.113.9' });
    expect(scopes).toEqual([{ transport: 'threads', path: '/chat/threads/', ip: '203.0.113.9' }]);
  });

  it('cuts off an event stream whose reader does not read, and lets the turn finish', async () => {
    const engine = createChattyEngine(40, 32 * 1024);
    const client = await new FetchClient(await open(engine, { websocketMaxBufferedBytes: 256 * 1024 })).withCsrf();
    const response = await client.post('/chat/stream/', { text: 'hello' });
    await engine.finished;
    await expect(response.text()).rejects.toMatchObject({ code: 'slow_consumer' });
  });

  it('ends the body of a stream the SSE writer cut before the response was handed out', async () => {
    // 200 events of 64 KiB in one burst: the writer's own bound cuts the stream at once.
    const engine = createFakeEngine();
    const client = await new FetchClient(await open(engine, { websocketMaxBufferedBytes: 256 * 1024 })).withCsrf();
    const response = await client.post('/chat/stream/', { text: 'big' });
    await expect(response.text()).rejects.toThrow();
    await expect.poll(() => engine.completedTurns.includes('big'), { timeout: 5000 }).toBe(true);
  });

  it('on close, cuts the open streams and answers 503 server_closed afterwards; closing twice is fine', async () => {
    const engine = createGatedEngine();
    const handler = await open(engine);
    const client = await new FetchClient(handler).withCsrf();
    const response = await client.post('/chat/stream/', { text: 'hello' });
    const reader = response.body!.getReader();
    await reader.read();
    await handler.close();
    await expect(reader.read()).rejects.toThrow();
    const after = await client.send('/healthz');
    expect(after.status).toBe(503);
    expect(await after.json()).toEqual({ error: { code: 'server_closed', message: expect.any(String) } });
    await handler[Symbol.asyncDispose]();
    engine.release();
    await engine.finished;
  });
});
