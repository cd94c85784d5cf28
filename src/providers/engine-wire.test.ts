import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userActor } from '../core/index.js';
import { createEngine } from '../engine/index.js';
import type { Engine } from '../engine/index.js';
import { createMemoryStore } from '../store/index.js';
import { defineTool } from '../tools/index.js';
import type { AdapterSettings } from './index.js';
import { WIRE_FIXTURES } from './test-support/wire-fixtures.js';
import { WireServer } from './test-support/wire-server.js';

const alice = userActor('alice', ['admin']);

/** The whole engine over each provider's real wire format on loopback. */
describe.each(WIRE_FIXTURES)('the engine over the $name wire format', (fixture) => {
  let server: WireServer;
  let engine: Engine | undefined;
  let keys = 0;

  const start = (extra: AdapterSettings = {}, timeoutSeconds = 5): Engine => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up a part by name.',
      input: z.object({ q: z.string() }),
      effect: 'read',
      handler: (args) => Promise.resolve({ rows: [{ name: `Part ${args.q}`, sku: 'SKU-1' }] }),
    });
    engine = createEngine({
      store: createMemoryStore(),
      tools: [lookup],
      provider: fixture.create(server.url, { newId: () => 'gen_1', timeoutSeconds: 30, ...extra }),
      settings: { timeoutSeconds, retry: { backoffMs: [1], jitter: 0, maxRetryAfterMs: 5 } },
    });
    return engine;
  };
  const ask = (text: string) => engine!.ask({ actor: alice, requestKey: `wire-${++keys}`, text });

  beforeEach(async () => {
    server = await WireServer.start();
  });
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    await server.close();
  });

  it('answers a question through a tool call and its result, with the usage of both rounds', async () => {
    server.reply(fixture.call('call_1', 'lookup', { q: 'bolt' }, [10, 2]), fixture.text(['Part bolt ', 'has SKU-1.'], [20, 5]));
    start();
    const result = await ask('What is the bolt SKU?');
    expect(result.answer).toBe('Part bolt has SKU-1.');
    expect(result.events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'text_chunk', 'done']);
    expect(result.events[0]).toMatchObject({ type: 'tool_call', name: 'lookup', args: { q: 'bolt' } });
    expect(result.events.at(-1)).toMatchObject({ type: 'done', usage: { input_tokens: 30, output_tokens: 7 } });
    // The second request carried the tool result back in the provider's own format.
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]?.body)).toContain('SKU-1');
  });

  it("carries a message's page context, and its supplemental context for that message only, in the provider's own request", async () => {
    server.reply(fixture.text(['One.'], [10, 2]), fixture.text(['Two.'], [10, 2]));
    start();
    const context = [{ kind: 'order', title: 'Order on screen', text: 'Order 4411 is paid.', value: '4411' }];
    const first = await engine!.ask({ actor: alice, requestKey: `wire-${++keys}`, text: 'What is this?', context, supplementalContext: 'Refunds panel open.' });
    await engine!.ask({ actor: alice, threadId: first.events.at(-1)!.thread_id, requestKey: `wire-${++keys}`, text: 'And now?' });
    const [one, two] = server.requests.map((request) => JSON.stringify(request.body));
    expect(one).toContain('[order] Order on screen (4411): Order 4411 is paid.');
    expect(one).toContain('Refunds panel open.');
    expect(two).toContain('[order] Order on screen (4411): Order 4411 is paid.');
    expect(two).not.toContain('Refunds panel open.');
  });

  it.each([429, 500])('retries after HTTP %i and answers once', async (status) => {
    server.reply(fixture.error(status), fixture.text(['Fine.'], [3, 1]));
    start();
    const result = await ask('hello');
    expect(result.answer).toBe('Fine.');
    const retries = result.events.filter((event) => event.type === 'retry');
    expect(retries).toEqual([expect.objectContaining({ code: status === 429 ? 'provider_rate_limited' : 'provider_unavailable' })]);
    expect(server.requests).toHaveLength(2);
  });

  it('never retries HTTP 401 and ends the turn with provider_auth', async () => {
    server.reply(fixture.error(401), fixture.text(['never'], [1, 1]));
    start();
    const result = await ask('hello');
    expect(result.events.filter((event) => event.type === 'retry')).toEqual([]);
    expect(result.events).toContainEqual(expect.objectContaining({ type: 'error', code: 'provider_auth' }));
    expect(server.requests).toHaveLength(1);
  });

  it('retries a stream cut before its terminal event without duplicating text', async () => {
    server.reply(fixture.cut('Half an ans'), fixture.text(['The whole answer.'], [4, 3]));
    start();
    const result = await ask('hello');
    expect(result.events.filter((event) => event.type === 'retry')).toEqual([expect.objectContaining({ code: 'provider_stream_cut' })]);
    expect(result.answer).toBe('The whole answer.');
    expect(result.events.at(-1)).toMatchObject({ type: 'done' });
  });

  it('retries a slow first byte as provider_timeout', async () => {
    server.reply({ ...fixture.text(['late'], [1, 1]), firstByteDelayMs: 10_000 }, fixture.text(['On time.'], [1, 1]));
    // One second is far below the slow reply and far above a loopback answer on a busy machine.
    start({ timeoutSeconds: 1 }, 1);
    const result = await ask('hello');
    expect(result.events.filter((event) => event.type === 'retry')).toEqual([expect.objectContaining({ code: 'provider_timeout' })]);
    expect(result.answer).toBe('On time.');
  });
});
