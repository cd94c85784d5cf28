import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShop } from '../../examples/hono/server.js';
import type { Shop } from '../../examples/hono/server.js';
import { askAsBrowser, sseEvents, steelAnswer, streamedText } from './ask.js';
import type { ChatAnswer } from './ask.js';

describe('examples/hono: a Hono app routing /chat/* and /graphql to the fetch handler', () => {
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
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(streamedText(await sseEvents(response))).toContain(steelAnswer);
  });

  it('serves /graphql as the actor', async () => {
    const response = await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ materialList(filter: {name: "Steel"}) { items { name } } }' }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { materialList: { items: [{ name: 'Steel' }] } } });
  });
});
