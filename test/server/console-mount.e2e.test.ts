import { serve } from '@hono/node-server';
import Fastify from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, createFetchHandler, parseConfig, plumbChat } from '../../src/server/index.js';
import type { ChatStack, PlumbChatOptions } from '../../src/server/index.js';
import { askConsole, launchChromium, openConsole } from '../support/console-page.js';

const question = 'which parts are made of steel?';

/** The console where a host mounted it: its page, script, session, sign-in and chat all under the prefix. */
describe('the console mounted in a host, in headless Chromium', () => {
  let browser: Browser;
  let app: App;
  let stack: ChatStack;
  let options: PlumbChatOptions;
  beforeAll(async () => {
    browser = await launchChromium();
    app = await createDemoApp({ path: ':memory:' });
    const settings = parseConfig({ store: ':memory:', rateLimit: { requests: 1000 } });
    stack = await createChatStack({ app, config: settings });
    options = { app, engine: stack.engine, settings, login: { names: ['alice'], resolve: (name) => (name === 'alice' ? demoActor('alice') : undefined) } };
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await app?.close();
  });

  const lastAnswer = (page: Page) => page.locator('.msg.assistant').last();

  it('under /assistant in a fastify host: signs in and answers over the WebSocket', async () => {
    const host = Fastify();
    host.get('/', () => ({ shop: true }));
    await host.register(plumbChat, { ...options, prefix: '/assistant' });
    const url = await host.listen({ port: 0, host: '127.0.0.1' });
    const page = await browser.newPage();
    try {
      await openConsole(page, `${url}/assistant`, 'alice');
      expect(await page.textContent('#chat-url')).toBe('/assistant/chat/');
      await askConsole(page, question);
      await expect.poll(() => lastAnswer(page).textContent()).toContain('5 parts where material is Steel:');
    } finally {
      await page.close();
      await host.close();
    }
  });

  it('served by the fetch handler under /api: falls back to SSE and answers', async () => {
    const handler = await createFetchHandler({ ...options, prefix: '/api' });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const started = serve({ fetch: (request) => handler.handle(request), port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const page = await browser.newPage();
    try {
      await page.goto(`${url}/api/console/`);
      await expect.poll(() => page.textContent('#transport')).toBe('SSE (streaming fetch)');
      await askConsole(page, question);
      await expect.poll(() => lastAnswer(page).textContent()).toContain('5 parts where material is Steel:');
    } finally {
      await page.close();
      await handler.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
