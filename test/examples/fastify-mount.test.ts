import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShop } from '../../examples/fastify-mount/server.js';
import type { Shop } from '../../examples/fastify-mount/server.js';
import { askAsBrowser, question, sseEvents, steelAnswer, streamedText } from './ask.js';
import type { ChatAnswer } from './ask.js';

describe('examples/fastify-mount: plumbChat under /assistant in a host fastify app', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ port: 0 });
  });
  afterAll(async () => shop.close());

  const send = (path: string, init?: RequestInit): Promise<Response> => fetch(`${shop.url}${path}`, init);

  it("keeps the host's own routes, with none of Plumb's cookies", async () => {
    const response = await send('/');
    expect(await response.json()).toEqual({ shop: 'Acme parts', assistant: '/assistant/console/' });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('answers an API client with a bearer token, without any CSRF pair', async () => {
    const response = await send('/assistant/chat/', { method: 'POST', headers: { authorization: 'Bearer token-for-bob', 'content-type': 'application/json' }, body: JSON.stringify({ text: question }) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as ChatAnswer).answer).toContain(steelAnswer);
  });

  it('refuses an unknown token with 401 in Plumb’s error shape', async () => {
    const response = await send('/assistant/chat/', { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: JSON.stringify({ text: question }) });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: 'unauthenticated', message: 'Unknown API token.' } });
  });

  it('streams the answer over SSE to a browser-like client under the prefix', async () => {
    const response = await askAsBrowser(send, '/assistant/chat/', 'stream/');
    expect(response.status).toBe(200);
    const events = await sseEvents(response);
    expect(events.map((event) => event.type)).toEqual(['plan', 'tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(streamedText(events)).toContain(steelAnswer);
  });

  it('answers over the WebSocket under the prefix', async () => {
    const socket = new WebSocket(`${shop.url.replace('http', 'ws')}/assistant/chat/`, { origin: shop.url, headers: { authorization: 'Bearer token-for-bob' } });
    const frames: { type: string; content?: string }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString('utf8')) as { type: string; content?: string };
        frames.push(frame);
        if (frame.type === 'done') resolve();
      });
      socket.once('error', reject);
    });
    socket.once('open', () => socket.send(JSON.stringify({ type: 'message', text: question })));
    await done;
    socket.close();
    expect(frames.filter((frame) => frame.type === 'text_chunk').map((frame) => frame.content).join('')).toContain(steelAnswer);
  });
});
