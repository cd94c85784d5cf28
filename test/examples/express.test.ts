import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShop } from '../../examples/express/server.js';
import type { Shop } from '../../examples/express/server.js';
import { askAsBrowser, sseEvents, steelAnswer, streamedText } from './ask.js';
import type { ChatAnswer } from './ask.js';

describe('examples/express: an Express 5 app with a fetch adapter for the fetch handler', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ port: 0 });
  });
  afterAll(async () => shop.close());

  const send = (path: string, init?: RequestInit): Promise<Response> => fetch(`${shop.url}${path}`, init);

  it("keeps the app's own routes", async () => {
    expect(await (await send('/')).json()).toEqual({ shop: 'Acme parts' });
  });

  it('answers POST /chat/ from the rows', async () => {
    const response = await askAsBrowser(send, '/chat/', '');
    expect(response.status).toBe(200);
    expect(((await response.json()) as ChatAnswer).answer).toContain(steelAnswer);
  });

  it('streams POST /chat/stream/ as server-sent events', async () => {
    const response = await askAsBrowser(send, '/chat/', 'stream/');
    expect(response.status).toBe(200);
    expect(streamedText(await sseEvents(response))).toContain(steelAnswer);
  });

  it('answers an oversized body with 413 payload_too_large', async () => {
    const response = await askAsBrowser(send, '/chat/', '', 'x'.repeat(100_000));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});
