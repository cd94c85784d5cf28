import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider, fromOpenAiMessages, toOpenAiMessages } from '../index.js';
import { HISTORY, TOOLS, collect, describeWireProvider } from '../test-support/wire-suite.js';
import { WireServer, sse, straddle } from '../test-support/wire-server.js';

const SSE_HEADERS = { 'content-type': 'text/event-stream' };
const chunk = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  model: 'gpt-4.1-mini',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usage = (prompt: number, completion: number) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });

describeWireProvider({
  name: 'openai',
  create: (baseUrl, extra) => createOpenAiProvider({ baseUrl, apiKey: 'sk-test', ...extra }),
  textReply: () => ({
    headers: SSE_HEADERS,
    chunks: straddle(sse(chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hello' }), chunk({ content: ' world' }), chunk({}, 'stop'), usage(11, 7), '[DONE]')),
  }),
  toolCallsReply: () => ({
    headers: SSE_HEADERS,
    chunks: sse(
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_lookup', type: 'function', function: { name: 'lookup_part', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"sk' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_query', type: 'function', function: { name: 'query', arguments: '{"manager":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'u":"A-1"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"Part","limit":5}' } }] }),
      chunk({}, 'tool_calls'),
      usage(30, 12),
      '[DONE]',
    ),
  }),
  errorReply: (status) => ({
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_abc', ...(status === 429 ? { 'retry-after': '7' } : {}) },
    chunks: [JSON.stringify({ error: { message: status === 401 ? 'Incorrect API key provided: sk-test.' : 'Rate limit reached for gpt-4.1-mini', type: status === 401 ? 'invalid_request_error' : 'requests', code: status === 401 ? 'invalid_api_key' : 'rate_limit_exceeded' } })],
  }),
  cutReply: () => ({ headers: SSE_HEADERS, chunks: sse(chunk({ content: 'Hel' })), destroy: true }),
  callIds: ['call_lookup', 'call_query'],
});

describe('openai request', () => {
  let server: WireServer;
  beforeEach(async () => {
    server = await WireServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the documented Chat Completions body and bearer auth', async () => {
    server.reply({ headers: SSE_HEADERS, chunks: sse(chunk({ content: 'ok' }, 'stop'), '[DONE]') });
    const provider = createOpenAiProvider({ baseUrl: `${server.url}/v1`, apiKey: 'sk-test', model: 'qwen3:8b', maxTokens: 300 });
    await collect(provider.complete({ messages: HISTORY, tools: TOOLS, signal: new AbortController().signal }));
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toEqual({
      model: 'qwen3:8b',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 300,
      messages: [
        { role: 'system', content: 'Answer only from tool results.' },
        { role: 'user', content: 'What does part A-1 cost?' },
        { role: 'assistant', content: 'Looking it up.', tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'lookup_part', arguments: '{"sku":"A-1"}' } }] },
        { role: 'tool', tool_call_id: 'call_a', content: '{"sku":"A-1","price":"12.50"}' },
        { role: 'assistant', content: 'It costs 12.50.' },
        { role: 'user', content: 'And how many are in stock?' },
      ],
      tools: TOOLS.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    });
  });

  it('prefers the request maxOutputTokens and omits tools when there are none', async () => {
    server.reply({ headers: SSE_HEADERS, chunks: sse(chunk({ content: 'ok' }, 'stop'), '[DONE]') });
    const provider = createOpenAiProvider({ baseUrl: server.url, maxTokens: 300 });
    await collect(provider.complete({ messages: HISTORY, tools: [], maxOutputTokens: 64, signal: new AbortController().signal }));
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 64 });
    expect(server.requests[0]?.body).not.toHaveProperty('tools');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('maps history to Chat Completions messages and back without loss', () => {
    expect(fromOpenAiMessages(toOpenAiMessages(HISTORY))).toEqual(HISTORY);
  });

  it('reads the API key from OPENAI_API_KEY and reports a missing one for api.openai.com', async () => {
    expect(createOpenAiProvider({ env: {} }).checkConfiguration()).toEqual([expect.objectContaining({ code: 'provider_config_invalid', message: expect.stringContaining('OPENAI_API_KEY') })]);
    expect(createOpenAiProvider({ env: { OPENAI_API_KEY: 'sk-x' } }).checkConfiguration()).toEqual([]);
    expect(createOpenAiProvider({ env: {}, baseUrl: 'http://127.0.0.1:8000/v1' }).checkConfiguration()).toEqual([]);
    const missing = createOpenAiProvider({ env: {} });
    expect(missing.model).toBe('gpt-4.1-mini');
    await expect(collect(missing.complete({ messages: HISTORY, tools: [], signal: new AbortController().signal }))).rejects.toMatchObject({ code: 'provider_auth', retryable: false });
  });

  it('classifies an error record inside the stream', async () => {
    server.reply({ headers: SSE_HEADERS, chunks: sse(chunk({ content: 'Hi' }), { error: { message: 'The server had an error', type: 'server_error' } }) });
    const provider = createOpenAiProvider({ baseUrl: server.url });
    await expect(collect(provider.complete({ messages: HISTORY, tools: [], signal: new AbortController().signal }))).rejects.toMatchObject({ code: 'provider_unavailable', retryable: true });
  });

  it('rejects unknown settings and a non-http base URL with provider_config_invalid', () => {
    expect(() => createOpenAiProvider({ modle: 'x' } as never)).toThrowError(expect.objectContaining({ code: 'provider_config_invalid', message: expect.stringContaining("'modle'") }));
    expect(() => createOpenAiProvider({ baseUrl: 'ftp://example.com' })).toThrowError(expect.objectContaining({ code: 'provider_config_invalid' }));
  });
});

describe('openai provider description', () => {
  it('never reveals the API key when described or serialized', () => {
    const provider = createOpenAiProvider({ apiKey: 'sk-secret-123' });
    expect(provider.describe()).toMatchObject({ name: 'openai', model: 'gpt-4.1-mini', baseUrl: 'https://api.openai.com/v1', apiKeySource: 'apiKey' });
    expect(JSON.stringify(provider)).not.toContain('sk-secret-123');
    expect(JSON.stringify(provider.describe())).not.toContain('sk-secret-123');
  });
});
