import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoChatHost } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, parseConfig } from '../../src/server/index.js';
import type { ChatStack } from '../../src/server/index.js';
import { openSocket, startServer } from './harness.js';
import type { Running } from './harness.js';

const alice = { 'x-plumb-user': 'alice' };

/** The demo as `npm start` serves it (router, no model), on a real server on loopback. */
describe('messages sent back to back on one socket', () => {
  let running: Running;
  let stack: ChatStack;
  let app: App;
  beforeAll(async () => {
    app = await createDemoApp({ path: ':memory:' });
    const settings = { rateLimit: { requests: 1000 } };
    stack = await createChatStack({ app, config: parseConfig({ store: ':memory:', ...settings }), host: demoChatHost(app) });
    running = await startServer(stack.engine, settings, {}, app);
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await stack?.close();
    await app?.close();
  });

  it('run in the order sent, the second in the thread made for the first, 20 times over', async () => {
    const { socket, next, frames } = await openSocket(`${running.wsUrl}/chat/`, { headers: alice });
    for (let round = 0; round < 20; round++) {
      const first = `list the parts ${round}`;
      const second = `which parts are made of steel? ${round}`;
      const from = frames.length;
      socket.send(JSON.stringify({ type: 'message', text: first, new_thread: true }));
      socket.send(JSON.stringify({ type: 'message', text: second }));
      const firstDone = await next('done');
      const secondDone = await next('done');
      const mine = frames.slice(from);
      // The first message is never the one waiting: it runs at once, the second (if anything) waits behind it.
      expect(mine.filter((frame) => frame.type === 'queued').map((frame) => frame.text)).not.toContain(first);
      expect(secondDone.thread_id).toBe(firstDone.thread_id);
      const response = await fetch(`${running.url}/chat/threads/${String(firstDone.thread_id)}/items/`, { headers: alice });
      const { items } = (await response.json()) as { items: { kind: string; turn_id?: string; turnId?: string; data: { text?: string } }[] };
      const asked = items.filter((item) => item.kind === 'user_text');
      expect(asked.map((item) => item.data.text)).toEqual([first, second]);
      expect([firstDone.turn_id, secondDone.turn_id]).toEqual(asked.map((item) => item.turn_id ?? item.turnId));
    }
    socket.close();
  }, 120_000);
});
