import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import type { Engine } from '../../src/engine/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import type { ScriptedProvider } from '../../src/providers/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { Client, openSocket, readSse, startServer } from './harness.js';
import type { Running } from './harness.js';

const alice = { 'x-plumb-user': 'alice' };
const order = { kind: 'order', title: 'Order on screen', text: 'Order 4411 is paid.', value: '4411' };
const systemOf = (provider: ScriptedProvider, index: number): string =>
  provider.requests[index]!.messages.filter((message) => message.role === 'system').map((message) => ('content' in message ? message.content : '')).join('\n');

describe('page context over HTTP, SSE and WebSocket', () => {
  let running: Running;
  let engine: Engine;
  let provider: ScriptedProvider;
  beforeAll(async () => {
    provider = createScriptedProvider({ completions: [{ text: 'Noted.', repeat: true }] });
    engine = createEngine({ store: createMemoryStore(), tools: [], provider });
    running = await startServer(engine, { rateLimit: { requests: 1000 } });
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await engine?.close();
  });

  it('hands references, context, supplemental_context and time_zone to the engine from POST {chat} and {chat}stream/', async () => {
    const client = await new Client(running.url, alice).withCsrf();
    const plain = await client.post('/chat/', { text: 'what is this?', new_thread: true, context: [order], references: [{ kind: 'note', label: 'Note', text: 'Call back' }], supplemental_context: 'Refunds tab open.', time_zone: 'Europe/Lisbon' });
    expect(plain.status).toBe(200);
    const body = (await plain.json()) as { events: { type: string; thread_id: string }[] };
    expect(body.events.at(-1)).toMatchObject({ type: 'done' });
    const first = systemOf(provider, provider.requests.length - 1);
    expect(first).toContain('[order] Order on screen (4411): Order 4411 is paid.');
    expect(first).toContain('[note] Note: Call back');
    expect(first).toContain('Refunds tab open.');
    const streamed = await readSse(await client.post('/chat/stream/', { text: 'and then?', thread: body.events[0]!.thread_id }));
    expect(streamed.at(-1)).toMatchObject({ type: 'done' });
    const second = systemOf(provider, provider.requests.length - 1);
    expect(second).toContain('(4411)');
    expect(second).not.toContain('Refunds tab open.');
  });

  it('refuses context past its bounds and unknown zones with 400 before admitting anything', async () => {
    const client = await new Client(running.url, alice).withCsrf();
    const before = provider.requests.length;
    const bad = await client.post('/chat/', { text: 'hi', context: [{ kind: 'order', text: 'no title' }] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_context', message: expect.stringContaining("'context.0.title'") } });
    const tooLong = await client.post('/chat/stream/', { text: 'hi', supplemental_context: 'x'.repeat(16_001) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ error: { code: 'invalid_context', message: expect.stringContaining("'supplemental_context'") } });
    const zone = await client.post('/chat/', { text: 'hi', time_zone: 'Mars/Olympus' });
    expect(zone.status).toBe(400);
    expect(await zone.json()).toMatchObject({ error: { code: 'invalid_time_zone' } });
    expect(provider.requests.length).toBe(before);
  });

  it('takes the same fields on a WebSocket message frame, and refuses bad ones with their codes', async () => {
    const { socket, next } = await openSocket(`${running.wsUrl}/chat/`, { headers: alice });
    socket.send(JSON.stringify({ type: 'message', text: 'look', new_thread: true, references: [{ kind: 'doc', label: 'Spec', text: 'Bolts M8', truncated: true }] }));
    await next('done');
    expect(systemOf(provider, provider.requests.length - 1)).toContain('[doc] Spec (truncated): Bolts M8');
    socket.send(JSON.stringify({ type: 'message', text: 'look', references: 'none' }));
    expect(await next('error')).toMatchObject({ code: 'invalid_context' });
    socket.send(JSON.stringify({ type: 'message', text: 'look', time_zone: 42 }));
    expect(await next('error')).toMatchObject({ code: 'invalid_time_zone' });
    socket.close();
  });
});
