import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { parseConfig, plumbChat } from '../../src/server/index.js';
import type { PlumbChatOptions } from '../../src/server/index.js';
import { Client, openSocket, readSse } from './harness.js';
import { createFakeEngine } from './fake-engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

interface Host {
  readonly fastify: FastifyInstance;
  readonly url: string;
  close(): Promise<void>;
}

/** A host app of its own (its routes, its error handler, its body limit) with Plumb registered by `mount`. */
async function startHost(app: App, mount: (host: FastifyInstance, options: PlumbChatOptions) => Promise<void>): Promise<Host> {
  const fastify = Fastify();
  fastify.setErrorHandler((_error, _request, reply) => reply.status(418).send({ host: 'error handler' }));
  fastify.get('/mine', () => ({ host: true }));
  fastify.post('/mine', (request) => ({ bytes: JSON.stringify(request.body).length }));
  fastify.get('/fails', () => {
    throw new Error('host failure');
  });
  await mount(fastify, {
    app,
    engine: createFakeEngine(),
    settings: parseConfig({ rateLimit: { requests: 1000 } }),
    authenticate: (request) => {
      const header = request.headers['x-plumb-user'];
      return typeof header === 'string' ? (demoActor(header) ?? null) : null;
    },
    secret: 'x'.repeat(40),
  });
  const url = await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { fastify, url, close: () => fastify.close() };
}

describe('plumbChat mounted under a prefix in a host fastify app', () => {
  let app: App;
  let host: Host;
  beforeAll(async () => {
    app = await createDemoApp({ path: ':memory:' });
    host = await startHost(app, async (fastify, options) => {
      await fastify.register(plumbChat, { ...options, prefix: '/assistant' });
    });
  });
  afterAll(async () => {
    await host.close();
    await app.close();
  });

  it("leaves the host's routes, 404, error handler and body limit alone", async () => {
    const mine = await fetch(`${host.url}/mine`);
    expect(await mine.json()).toEqual({ host: true });
    expect(mine.headers.getSetCookie()).toEqual([]);
    const unknown = await fetch(`${host.url}/nowhere`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Json).error).toBe('Not Found');
    expect((await fetch(`${host.url}/fails`)).status).toBe(418);
    const big = await fetch(`${host.url}/mine`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(100_000) }) });
    expect(await big.json()).toEqual({ bytes: 100_011 });
  });

  it("serves every route under the prefix, with Plumb's 404, errors and body limit there", async () => {
    expect(await (await fetch(`${host.url}/assistant/healthz`)).json()).toEqual({ status: 'ok' });
    const graphql = await fetch(`${host.url}/assistant/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-plumb-user': 'bob' }, body: JSON.stringify({ query: '{ materialList(filter: {name: "Steel"}) { items { name } } }' }) });
    expect(await graphql.json()).toEqual({ data: { materialList: { items: [{ name: 'Steel' }] } } });
    const unknown = await fetch(`${host.url}/assistant/nowhere`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: 'not_found', message: 'No route answers this method and path.' } });

    const client = new Client(`${host.url}/assistant`);
    const refused = await client.post('/chat/', { text: 'hello' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).error).toEqual({ code: 'csrf_failed', message: expect.stringContaining('GET /assistant/chat/csrf/ issues both') });
    await client.withCsrf();
    const answered = (await (await client.post('/chat/', { text: 'hello' })).json()) as Json;
    expect(answered.answer).toBe('Echo: hello');
    const streamed = await readSse(await client.post('/chat/stream/', { text: 'hi there' }));
    expect(streamed.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'text_chunk', 'done']);
    const threads = (await (await client.fetch('/chat/threads/')).json()) as Json;
    expect(threads.threads.map((thread: Json) => thread.id)).toContain(answered.thread);
    const malformed = await client.post('/chat/', '{"text": ');
    expect(((await malformed.json()) as Json).error.code).toBe('bad_request');
    const huge = await client.post('/chat/', { text: 'x'.repeat(100_000) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as Json).error.code).toBe('payload_too_large');
  });

  it('answers the WebSocket under the prefix', async () => {
    const { socket, next, frames } = await openSocket(`${host.url.replace('http', 'ws')}/assistant/chat/`, { headers: { 'x-plumb-user': 'bob' } });
    socket.send(JSON.stringify({ type: 'message', text: 'hello' }));
    await next('done');
    expect(frames.filter((frame) => frame.type === 'text_chunk').map((frame) => frame.content).join('')).toBe('Echo: hello');
    socket.close();
    expect(host.fastify.server.listenerCount('upgrade')).toBe(1);
  });

  it("points the console's page, script and session at the prefixed paths", async () => {
    const page = await (await fetch(`${host.url}/assistant/console/`)).text();
    expect(page).toContain('<meta name="plumb-chat-url" content="/assistant/chat/">');
    expect(page).toContain('href="/assistant/console/console.css"');
    expect(page).toContain('src="/assistant/console/console.js"');
    expect(page).not.toMatch(/"\/console\//);
    const script = await (await fetch(`${host.url}/assistant/console/console.js`)).text();
    expect(script).toContain("from './console-transport.js'");
    expect(script).not.toMatch(/'\/console\//);
    const transport = await (await fetch(`${host.url}/assistant/console/console-transport.js`)).text();
    expect(transport).toContain("'/assistant/console/session'");
    expect(transport).toContain("'/assistant/console/login'");
    expect(transport).not.toMatch(/'\/console\//);
    const session = (await (await fetch(`${host.url}/assistant/console/session`)).json()) as Json;
    // Mounted without `following`: no live views, so the console does not ask for them.
    expect(session).toMatchObject({ chat_url: '/assistant/chat/', chat_enabled: true, views_enabled: false });
    expect((await fetch(`${host.url}/assistant/console/console.css`)).status).toBe(200);
  });
});

describe('plumbChat in other places of a host', () => {
  let app: App;
  beforeAll(async () => {
    app = await createDemoApp({ path: ':memory:' });
  });
  afterAll(async () => app.close());

  it("mounted at the root, serves /chat/ and leaves unknown paths to the host's 404", async () => {
    const host = await startHost(app, async (fastify, options) => {
      await fastify.register(plumbChat, options);
    });
    try {
      const client = await new Client(host.url).withCsrf();
      expect(((await (await client.post('/chat/', { text: 'hello' })).json()) as Json).answer).toBe('Echo: hello');
      const unknown = await fetch(`${host.url}/nowhere`);
      expect(((await unknown.json()) as Json).error).toBe('Not Found');
      expect((await fetch(`${host.url}/mine`)).headers.getSetCookie()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('uses the websocket plugin the host registered first, for two mounts at once', async () => {
    const host = await startHost(app, async (fastify, options) => {
      await fastify.register(websocket, { options: { maxPayload: 256 * 1024 } });
      await fastify.register(plumbChat, { ...options, prefix: '/one' });
      await fastify.register(plumbChat, { ...options, prefix: '/two' });
    });
    try {
      expect(host.fastify.server.listenerCount('upgrade')).toBe(1);
      for (const prefix of ['/one', '/two']) {
        const { socket, next } = await openSocket(`${host.url.replace('http', 'ws')}${prefix}/chat/`);
        socket.send(JSON.stringify({ type: 'message', text: 'hello' }));
        expect(await next('done')).toMatchObject({ type: 'done' });
        socket.close();
      }
    } finally {
      await host.close();
    }
  });

  it("closes Plumb's open sockets when the host closes", async () => {
    const host = await startHost(app, async (fastify, options) => {
      await fastify.register(plumbChat, { ...options, prefix: '/assistant' });
    });
    const { closed } = await openSocket(`${host.url.replace('http', 'ws')}/assistant/chat/`);
    await host.close();
    // @fastify/websocket closes its clients on the way down, without a code (1005).
    expect((await closed).code).toBe(1005);
  });
});
