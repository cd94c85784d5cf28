import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, validateProviderEvents } from '../index.js';
import type { ChatMessage, Provider, ProviderEvent, ToolDefinition } from '../index.js';
import type { AdapterSettings } from '../adapter-settings.js';
import { WireServer } from './wire-server.js';
import type { WireReply } from './wire-server.js';

/** The tools every wire test advertises. */
export const TOOLS: ToolDefinition[] = [
  {
    name: 'lookup_part',
    description: 'Find a part by SKU.',
    parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'], additionalProperties: false },
  },
  {
    name: 'query',
    description: 'Query a manager.',
    parameters: { type: 'object', properties: { manager: { type: 'string' }, limit: { type: 'integer' } }, required: ['manager'] },
  },
];

/** A history with every message kind: system, user, an assistant tool call, its result, a follow-up. */
export const HISTORY: ChatMessage[] = [
  { role: 'system', content: 'Answer only from tool results.' },
  { role: 'user', content: 'What does part A-1 cost?' },
  { role: 'assistant', content: 'Looking it up.', toolCalls: [{ id: 'call_a', name: 'lookup_part', arguments: '{"sku":"A-1"}' }] },
  { role: 'tool', toolCallId: 'call_a', name: 'lookup_part', result: { sku: 'A-1', price: '12.50' } },
  { role: 'assistant', content: 'It costs 12.50.' },
  { role: 'user', content: 'And how many are in stock?' },
];

/** The arguments the two-call fixture carries (as parsed objects). */
export const CALL_ARGUMENTS = [{ sku: 'A-1' }, { manager: 'Part', limit: 5 }];

export interface WireSuiteSpec {
  readonly name: string;
  create(baseUrl: string, extra?: AdapterSettings): Provider;
  /** Streams text "Hello" then " world", usage 11 in / 7 out, then the terminal record. */
  textReply(): WireReply;
  /** Two parallel calls (lookup_part {sku:A-1}, query {manager:Part,limit:5}), argument text split across records; usage 30/12. */
  toolCallsReply(): WireReply;
  /** The provider's error payload for a status (with `retry-after: 7` on 429). */
  errorReply(status: number): WireReply;
  /** A text record, then the connection ends before the terminal record. */
  cutReply(): WireReply;
  /** The ids the tool calls must have; `undefined` where the provider sends none (generated). */
  readonly callIds: readonly [string | undefined, string | undefined];
}

export async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export async function failure(stream: AsyncIterable<ProviderEvent>): Promise<ProviderError> {
  try {
    await collect(stream);
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected the stream to fail');
}

/** The behaviour every HTTP adapter shares, against its real wire format on loopback. */
export function describeWireProvider(spec: WireSuiteSpec): void {
  describe(`${spec.name} adapter on its wire format`, () => {
    let server: WireServer;
    let ids = 0;
    const create = (extra: AdapterSettings = {}): Provider => spec.create(server.url, { newId: () => `gen_${++ids}`, ...extra });
    const request = (signal = new AbortController().signal) => ({ messages: HISTORY, tools: TOOLS, signal });

    beforeEach(async () => {
      ids = 0;
      server = await WireServer.start();
    });
    afterEach(async () => {
      await server.close();
    });

    it('streams text deltas, then usage, then done', async () => {
      server.reply(spec.textReply());
      const events = await collect(create().complete(request()));
      expect(validateProviderEvents(events)).toEqual([]);
      expect(events.filter((event) => event.type === 'text').map((event) => event.text).join('')).toBe('Hello world');
      expect(events.filter((event) => event.type === 'text').length).toBeGreaterThanOrEqual(2);
      expect(events.slice(-2)).toEqual([
        { type: 'usage', inputTokens: 11, outputTokens: 7 },
        { type: 'done', finishReason: 'stop' },
      ]);
    });

    it('assembles two parallel tool calls from fragments, with stable ids', async () => {
      server.reply(spec.toolCallsReply());
      const events = await collect(create().complete(request()));
      expect(validateProviderEvents(events)).toEqual([]);
      const calls = events.filter((event) => event.type === 'tool_call');
      expect(calls.map((call) => call.name)).toEqual(['lookup_part', 'query']);
      expect(calls.map((call) => JSON.parse(call.arguments) as unknown)).toEqual(CALL_ARGUMENTS);
      expect(calls.map((call) => call.id)).toEqual(spec.callIds.map((id, index) => id ?? `gen_${index + 1}`));
      expect(events.slice(-2)).toEqual([
        { type: 'usage', inputTokens: 30, outputTokens: 12 },
        { type: 'done', finishReason: 'tool_calls' },
      ]);
    });

    it('answers 401 with provider_auth, not retryable, keeping the provider message in details', async () => {
      server.reply(spec.errorReply(401));
      const error = await failure(create().complete(request()));
      expect(error).toMatchObject({ code: 'provider_auth', retryable: false, status: 401 });
      expect(error.providerMessage).toBeTruthy();
      expect(error.details).toMatchObject({ provider: spec.name, status: 401 });
    });

    it('answers 429 with provider_rate_limited, retryable after Retry-After', async () => {
      server.reply(spec.errorReply(429));
      const error = await failure(create().complete(request()));
      expect(error).toMatchObject({ code: 'provider_rate_limited', retryable: true, retryAfterSeconds: 7 });
    });

    it('answers 500 with provider_unavailable, retryable', async () => {
      server.reply(spec.errorReply(500));
      expect(await failure(create().complete(request()))).toMatchObject({ code: 'provider_unavailable', retryable: true, status: 500 });
    });

    it('answers provider_stream_cut when the stream stops before its terminal event', async () => {
      server.reply(spec.cutReply());
      const seen: ProviderEvent[] = [];
      const error = await failure(
        (async function* () {
          for await (const event of create().complete(request())) {
            seen.push(event);
            yield event;
          }
        })(),
      );
      expect(error).toMatchObject({ code: 'provider_stream_cut', retryable: true });
      expect(seen.some((event) => event.type === 'done')).toBe(false);
    });

    it('answers provider_timeout when the first byte is slower than timeoutSeconds', async () => {
      server.reply({ ...spec.textReply(), firstByteDelayMs: 5_000 });
      const error = await failure(create({ timeoutSeconds: 0.2 }).complete(request()));
      expect(error).toMatchObject({ code: 'provider_timeout', retryable: true });
    });

    it('answers provider_timeout when the stream stalls longer than streamTimeoutSeconds', async () => {
      server.reply({ ...spec.textReply(), stallBeforeLastMs: 5_000 });
      const error = await failure(create({ streamTimeoutSeconds: 0.2 }).complete(request()));
      expect(error.code).toBe('provider_timeout');
      expect(error.message).toMatch(/streamTimeoutSeconds/);
    });

    it('fails at once with provider_connection_refused, naming the address, when nothing listens on this machine', async () => {
      const url = server.url;
      await server.close();
      server = await WireServer.start();
      const error = await failure(spec.create(url, {}).complete(request()));
      expect(error).toMatchObject({ code: 'provider_connection_refused', retryable: false });
      expect(error.message).toContain(`Nothing is listening at ${new URL(url).origin}`);
    });

    it('stops at once when the signal aborts, with the signal reason', async () => {
      server.reply({ ...spec.textReply(), firstByteDelayMs: 5_000 });
      const controller = new AbortController();
      const outcome = collect(create().complete(request(controller.signal)));
      setTimeout(() => controller.abort(new Error('cancelled')), 50);
      await expect(outcome).rejects.toThrow('cancelled');
    });
  });
}
