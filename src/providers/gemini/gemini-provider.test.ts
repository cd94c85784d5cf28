import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiProvider, fromGeminiContents, toGeminiContents } from '../index.js';
import { HISTORY, TOOLS, collect, describeWireProvider } from '../test-support/wire-suite.js';
import { WireServer, sse, straddle } from '../test-support/wire-server.js';

const SSE_HEADERS = { 'content-type': 'text/event-stream' };
const reply = (parts: object[], finishReason?: string, usage?: [number, number]) => ({
  candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }), index: 0 }],
  ...(usage === undefined ? {} : { usageMetadata: { promptTokenCount: usage[0], candidatesTokenCount: usage[1], totalTokenCount: usage[0] + usage[1] } }),
  modelVersion: 'gemini-2.5-flash',
});

describeWireProvider({
  name: 'gemini',
  create: (baseUrl, extra) => createGeminiProvider({ baseUrl, apiKey: 'AIza-test', ...extra }),
  textReply: () => ({
    headers: SSE_HEADERS,
    chunks: straddle(sse(reply([{ text: 'Hello' }]), reply([{ text: ' world' }]), reply([{ text: '' }], 'STOP', [11, 7]))),
  }),
  // Gemini sends each functionCall whole; the records are split across writes.
  toolCallsReply: () => ({
    headers: SSE_HEADERS,
    chunks: straddle(
      sse(
        reply([{ functionCall: { name: 'lookup_part', args: { sku: 'A-1' } } }]),
        reply([{ functionCall: { name: 'query', args: { manager: 'Part', limit: 5 } } }], 'STOP', [30, 12]),
      ),
    ),
  }),
  errorReply: (status) => ({
    status,
    headers: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '7' } : {}) },
    chunks: [
      JSON.stringify({
        error: {
          code: status,
          message: status === 401 ? 'API key not valid. Please pass a valid API key.' : status === 429 ? 'Resource has been exhausted (e.g. check quota).' : 'Internal error encountered.',
          status: status === 401 ? 'UNAUTHENTICATED' : status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL',
        },
      }),
    ],
  }),
  cutReply: () => ({ headers: SSE_HEADERS, chunks: sse(reply([{ text: 'Hel' }])), destroy: true }),
  callIds: [undefined, undefined],
});

describe('gemini request', () => {
  let server: WireServer;
  beforeEach(async () => {
    server = await WireServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the documented streamGenerateContent body and x-goog-api-key', async () => {
    server.reply({ headers: SSE_HEADERS, chunks: sse(reply([{ text: 'ok' }], 'STOP', [1, 1])) });
    const provider = createGeminiProvider({ baseUrl: server.url, apiKey: 'AIza-test', maxTokens: 512 });
    await collect(provider.complete({ messages: HISTORY, tools: TOOLS, signal: new AbortController().signal }));
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(sent?.headers['x-goog-api-key']).toBe('AIza-test');
    expect(sent?.body).toEqual({
      systemInstruction: { parts: [{ text: 'Answer only from tool results.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'What does part A-1 cost?' }] },
        { role: 'model', parts: [{ text: 'Looking it up.' }, { functionCall: { id: 'call_a', name: 'lookup_part', args: { sku: 'A-1' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call_a', name: 'lookup_part', response: { sku: 'A-1', price: '12.50' } } }] },
        { role: 'model', parts: [{ text: 'It costs 12.50.' }] },
        { role: 'user', parts: [{ text: 'And how many are in stock?' }] },
      ],
      tools: [{ functionDeclarations: TOOLS.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }],
      generationConfig: { maxOutputTokens: 512 },
    });
  });

  it('maps history to contents and back without loss', () => {
    const { systemInstruction, contents } = toGeminiContents(HISTORY);
    expect(fromGeminiContents(systemInstruction, contents, () => 'unused')).toEqual(HISTORY);
  });

  it('takes the key from GEMINI_API_KEY, then GOOGLE_API_KEY', () => {
    expect(createGeminiProvider({ env: { GOOGLE_API_KEY: 'g' } }).describe().apiKeySource).toBe('GOOGLE_API_KEY');
    expect(createGeminiProvider({ env: { GOOGLE_API_KEY: 'g', GEMINI_API_KEY: 'm' } }).describe().apiKeySource).toBe('GEMINI_API_KEY');
    expect(createGeminiProvider({ env: {} }).checkConfiguration()).toEqual([expect.objectContaining({ message: expect.stringContaining('GEMINI_API_KEY') })]);
  });

  it('classifies a too-long prompt as provider_context_too_long, not retried', async () => {
    server.reply({
      status: 400,
      headers: { 'content-type': 'application/json' },
      chunks: [JSON.stringify([{ error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }])],
    });
    const provider = createGeminiProvider({ baseUrl: server.url, apiKey: 'k' });
    await expect(collect(provider.complete({ messages: HISTORY, tools: [], signal: new AbortController().signal }))).rejects.toMatchObject({ code: 'provider_context_too_long', retryable: false });
  });

  it('carries a thinking model\'s thoughtSignature from the call back into the next request', async () => {
    server.reply(
      { headers: SSE_HEADERS, chunks: sse(reply([{ functionCall: { name: 'lookup_part', args: { sku: 'A-1' } }, thoughtSignature: 'sig-123' }], 'STOP', [5, 2])) },
      { headers: SSE_HEADERS, chunks: sse(reply([{ text: 'ok' }], 'STOP', [1, 1])) },
    );
    const provider = createGeminiProvider({ baseUrl: server.url, apiKey: 'k', newId: () => 'g1' });
    const signal = new AbortController().signal;
    const events = await collect(provider.complete({ messages: HISTORY.slice(0, 2), tools: TOOLS, signal }));
    const call = events.find((event) => event.type === 'tool_call');
    expect(call).toEqual({ type: 'tool_call', id: 'g1', name: 'lookup_part', arguments: '{"sku":"A-1"}', providerData: { thoughtSignature: 'sig-123' } });
    const toolCalls = call?.type === 'tool_call' ? [{ id: call.id, name: call.name, arguments: call.arguments, ...(call.providerData ? { providerData: call.providerData } : {}) }] : [];
    await collect(
      provider.complete({
        messages: [...HISTORY.slice(0, 2), { role: 'assistant', content: '', toolCalls }, { role: 'tool', toolCallId: 'g1', name: 'lookup_part', result: { price: '1' } }],
        tools: TOOLS,
        signal,
      }),
    );
    expect((server.requests[1]?.body as { contents: unknown[] }).contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: 'g1', name: 'lookup_part', args: { sku: 'A-1' } }, thoughtSignature: 'sig-123' }],
    });
  });
});
