import { afterAll, beforeAll, expect, it } from 'vitest';
import { askAsBrowser, sseEvents, steelAnswer, streamedText } from './ask.js';
import type { ChatAnswer } from './ask.js';

export interface RunningShop {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * What every example that serves the shop through the fetch handler does (inside the enclosing
 * describe): it keeps its own routes, answers POST /chat/ from the rows and streams SSE. Returns a
 * `send` for the example's own cases.
 */
export function shopOverFetchHandler(start: (options: { port: number }) => Promise<RunningShop>): (path: string, init?: RequestInit) => Promise<Response> {
  let shop: RunningShop;
  beforeAll(async () => {
    shop = await start({ port: 0 });
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

  return send;
}
