import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { APICallError } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createAiSdkProvider } from '../index.js';
import { HISTORY, TOOLS, collect, failure } from '../test-support/wire-suite.js';

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

function model(chunks: LanguageModelV3StreamPart[], options: { initialDelayInMs?: number } = {}) {
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId: 'mock-1',
    doStream: async () => Promise.resolve({ stream: simulateReadableStream({ chunks, initialDelayInMs: options.initialDelayInMs ?? 0, chunkDelayInMs: 0 }) }),
  });
}

const request = (signal = new AbortController().signal) => ({ messages: HISTORY, tools: TOOLS, maxOutputTokens: 99, signal });

describe('AI SDK language model (v3) as a provider', () => {
  it('streams text, tool calls, usage and done from the model stream parts', async () => {
    const mock = model([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hello' },
      { type: 'text-delta', id: 't', delta: ' world' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', id: 'c1', toolName: 'lookup_part' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"sku":' },
      { type: 'tool-input-delta', id: 'c1', delta: '"A-1"}' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup_part', input: '{"sku":"A-1"}' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'query', input: '{"manager":"Part","limit":5}' },
      { type: 'finish', usage: usage(30, 12), finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
    const provider = createAiSdkProvider(mock);
    expect(provider.model).toBe('mock/mock-1');
    expect(await collect(provider.complete(request()))).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' world' },
      { type: 'tool_call', id: 'c1', name: 'lookup_part', arguments: '{"sku":"A-1"}' },
      { type: 'tool_call', id: 'c2', name: 'query', arguments: '{"manager":"Part","limit":5}' },
      { type: 'usage', inputTokens: 30, outputTokens: 12 },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
  });

  it('passes the history as a v3 prompt, the tools as function tools, and the output limit', async () => {
    const mock = model([{ type: 'finish', usage: usage(1, 1), finishReason: { unified: 'stop', raw: 'stop' } }]);
    await collect(createAiSdkProvider(mock).complete(request()));
    const [call] = mock.doStreamCalls;
    expect(call?.maxOutputTokens).toBe(99);
    expect(call?.abortSignal).toBeInstanceOf(AbortSignal);
    expect(call?.tools).toEqual(TOOLS.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.parameters })));
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'Answer only from tool results.' },
      { role: 'user', content: [{ type: 'text', text: 'What does part A-1 cost?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking it up.' },
          { type: 'tool-call', toolCallId: 'call_a', toolName: 'lookup_part', input: { sku: 'A-1' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_a', toolName: 'lookup_part', output: { type: 'json', value: { sku: 'A-1', price: '12.50' } } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It costs 12.50.' }] },
      { role: 'user', content: [{ type: 'text', text: 'And how many are in stock?' }] },
    ]);
  });

  it('classifies an APICallError by its status and Retry-After', async () => {
    const mock = new MockLanguageModelV3({
      doStream: () =>
        Promise.reject(
          new APICallError({ message: 'Too Many Requests', url: 'https://x', requestBodyValues: {}, statusCode: 429, responseHeaders: { 'retry-after': '7' }, responseBody: '{"error":{"message":"slow down"}}' }),
        ),
    });
    expect(await failure(createAiSdkProvider(mock).complete(request()))).toMatchObject({ code: 'provider_rate_limited', retryable: true, retryAfterSeconds: 7, providerMessage: 'slow down' });
  });

  it('classifies an error stream part and a stream without finish', async () => {
    const broken = model([
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'error', error: new APICallError({ message: 'Overloaded', url: 'https://x', requestBodyValues: {}, statusCode: 529 }) },
    ]);
    expect(await failure(createAiSdkProvider(broken).complete(request()))).toMatchObject({ code: 'provider_unavailable', retryable: true });
    const cut = model([{ type: 'text-delta', id: 't', delta: 'Hi' }]);
    expect(await failure(createAiSdkProvider(cut).complete(request()))).toMatchObject({ code: 'provider_stream_cut' });
  });

  it('applies timeoutSeconds to a model that is slow to start', async () => {
    const slow = model([{ type: 'finish', usage: usage(1, 1), finishReason: { unified: 'stop', raw: 'stop' } }], { initialDelayInMs: 5_000 });
    expect(await failure(createAiSdkProvider(slow, { timeoutSeconds: 0.1 }).complete(request()))).toMatchObject({ code: 'provider_timeout' });
  });

  it('refuses an object that is not a v3 language model', () => {
    expect(() => createAiSdkProvider({ specificationVersion: 'v2', provider: 'old', modelId: 'm', doStream: () => undefined } as never)).toThrowError(
      expect.objectContaining({ code: 'provider_config_invalid', message: expect.stringContaining("'v2'") }),
    );
  });

  it('keeps provider metadata on a call and sends it back as providerOptions', async () => {
    const metadata = { google: { thoughtSignature: 'sig-1' } };
    const mock = model([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup_part', input: '{"sku":"A-1"}', providerMetadata: metadata },
      { type: 'finish', usage: usage(1, 1), finishReason: { unified: 'tool-calls', raw: undefined } },
    ]);
    const provider = createAiSdkProvider(mock);
    const events = await collect(provider.complete(request()));
    const call = events.find((event) => event.type === 'tool_call');
    expect(call).toMatchObject({ id: 'c1', providerData: { aiSdkProviderMetadata: metadata } });
    const next = model([{ type: 'finish', usage: usage(1, 1), finishReason: { unified: 'stop', raw: undefined } }]);
    const toolCalls = call?.type === 'tool_call' && call.providerData !== undefined ? [{ id: call.id, name: call.name, arguments: call.arguments, providerData: call.providerData }] : [];
    await collect(createAiSdkProvider(next).complete({ ...request(), messages: [{ role: 'assistant', content: '', toolCalls }] }));
    expect(next.doStreamCalls[0]?.prompt[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup_part', input: { sku: 'A-1' }, providerOptions: metadata }],
    });
  });
});
