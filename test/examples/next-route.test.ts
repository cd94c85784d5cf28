import { afterAll, describe, expect, it } from 'vitest';
import { GET, POST } from '../../examples/next-route/app/api/chat/[...path]/route.js';
import { closeChat } from '../../examples/next-route/lib/plumb.js';
import { askAsBrowser, sseEvents, steelAnswer, streamedText } from './ask.js';

describe('examples/next-route: a Next.js App Router route handler over the fetch handler', () => {
  afterAll(async () => closeChat());

  // What Next.js does with a request under app/api/chat/[...path]: it calls the method's export.
  const send = (path: string, init: RequestInit = {}): Promise<Response> => {
    const request = new Request(`http://localhost:3000${path}`, init);
    return (init.method ?? 'GET') === 'GET' ? GET(request) : POST(request);
  };

  it('streams an answer from POST /api/chat/stream/', async () => {
    const response = await askAsBrowser(send, '/api/chat/', 'stream/');
    expect(response.status).toBe(200);
    expect(streamedText(await sseEvents(response))).toContain(steelAnswer);
  });

  it("lists the actor's threads from GET /api/chat/threads/", async () => {
    const issued = await send('/api/chat/csrf/');
    const cookie = issued.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const response = await send('/api/chat/threads/', { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ threads: [], next: null });
  });
});
