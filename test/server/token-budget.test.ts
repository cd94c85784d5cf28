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

interface Served {
  readonly app: App;
  readonly running: Running;
  close(): Promise<void>;
}

// The script reports 5 output tokens for a tool round and 10 for an answer round; every turn goes to it.
async function serve(outputTokens: number): Promise<Served> {
  const app = await createDemoApp({ path: ':memory:' });
  const rateLimit = { requests: null, outputTokens, windowSeconds: 600 };
  const config = parseConfig({ store: ':memory:', provider: `scripted:${script}`, router: 'off', rateLimit });
  const rateLimiter = createRateLimiter(config.rateLimit, createMemoryRateLimitStore());
  const tokenBudget = createTokenBudget(rateLimiter);
  const stack: ChatStack = await createChatStack({ app, config, wrapProvider: tokenBudget.wrap });
  const running = await startServer(stack.engine, { rateLimit }, { rateLimiter, tokenBudget }, app);
  return {
    app,
    running,
    close: async () => {
      await running.close();
      await stack.close();
      await app.close();
    },
  };
}

describe('token budgets inside a turn', () => {
  let served: Served;
  let app: App;
  let running: Running;
  beforeAll(async () => {
    served = await serve(5);
    ({ app, running } = served);
  });
  afterAll(async () => served.close());

  it('records usage as reported and refuses the tool calls of the round that spent the budget with rate_limited', async () => {
    const bob = await new Client(running.url, { 'x-plumb-user': 'bob' }).withCsrf();
    const statements = app.stats.statements;
    const body = (await (await bob.post('/chat/', { text: 'which materials?' })).json()) as Json;
    // The tool round reports 5 output tokens, all of the budget: its query call never runs.
    expect(body.events.map((event: Json) => event.type)).toEqual(['error']);
    expect(body.events[0]).toMatchObject({ code: 'rate_limited', retry_after_seconds: expect.any(Number) });
    expect(body.events[0].retry_after_seconds).toBeLessThanOrEqual(600);
    expect(app.stats.statements).toBe(statements);
    const next = await bob.post('/chat/', { text: 'and again?' });
    expect(next.status).toBe(429);
    expect(((await next.json()) as Json).events[0]).toMatchObject({ code: 'rate_limited' });
    const alice = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    expect((await alice.post('/chat/', { text: 'which materials?' })).status).toBe(200);
  });
});

describe('a token budget the tool round leaves room in', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(6);
  });
  afterAll(async () => served.close());

  it('runs the tool calls and the answer round, which may spend past the budget, then refuses the next turn', async () => {
    const bob = await new Client(served.running.url, { 'x-plumb-user': 'bob' }).withCsrf();
    const statements = served.app.stats.statements;
    const body = (await (await bob.post('/chat/', { text: 'which materials?' })).json()) as Json;
    expect(body.events.map((event: Json) => event.type).filter((type: string) => type !== 'text_chunk')).toEqual(['tool_call', 'tool_result', 'done']);
    expect(body.answer).toBe('Here are the materials the shop uses, with their densities.');
    expect(served.app.stats.statements).toBeGreaterThan(statements);
    expect((await bob.post('/chat/', { text: 'and again?' })).status).toBe(429);
  });
});
