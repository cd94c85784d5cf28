import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, createMemoryRateLimitStore, createRateLimiter, createTokenBudget, parseConfig } from '../../src/server/index.js';
import type { ChatStack } from '../../src/server/index.js';
import { Client, startServer } from './harness.js';
import type { Running } from './harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

const script = join(import.meta.dirname, 'fixtures/demo-script.json');

describe('token budgets inside a turn', () => {
  let app: App;
  let stack: ChatStack;
  let running: Running;
  beforeAll(async () => {
    app = await createDemoApp({ path: ':memory:' });
    // The script reports 5 output tokens for the tool round and 10 for the answer round; every turn goes to it.
    const config = parseConfig({ store: ':memory:', provider: `scripted:${script}`, router: 'off', rateLimit: { requests: null, outputTokens: 5, windowSeconds: 600 } });
    const rateLimiter = createRateLimiter(config.rateLimit, createMemoryRateLimitStore());
    const tokenBudget = createTokenBudget(rateLimiter);
    stack = await createChatStack({ app, config, wrapProvider: tokenBudget.wrap });
    running = await startServer(stack.engine, { rateLimit: { requests: null, outputTokens: 5, windowSeconds: 600 } }, { rateLimiter, tokenBudget }, app);
  });
  afterAll(async () => {
    await running.close();
    await stack.close();
    await app.close();
  });

  it('records usage as reported and refuses the next provider round with rate_limited', async () => {
    const bob = await new Client(running.url, { 'x-plumb-user': 'bob' }).withCsrf();
    const body = (await (await bob.post('/chat/', { text: 'which materials?' })).json()) as Json;
    expect(body.events.map((event: Json) => event.type)).toEqual(['tool_call', 'tool_result', 'error']);
    expect(body.events[2]).toMatchObject({ code: 'rate_limited', retry_after_seconds: expect.any(Number) });
    expect(body.events[2].retry_after_seconds).toBeLessThanOrEqual(600);
    const next = await bob.post('/chat/', { text: 'and again?' });
    expect(next.status).toBe(429);
    expect(((await next.json()) as Json).events[0]).toMatchObject({ code: 'rate_limited' });
    const alice = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    expect((await alice.post('/chat/', { text: 'which materials?' })).status).toBe(200);
  });
});
