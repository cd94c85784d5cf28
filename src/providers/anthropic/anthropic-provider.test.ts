import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider, fromAnthropicMessages, toAnthropicMessages } from '../index.js';
import { HISTORY, TOOLS, collect, describeWireProvider } from '../test-support/wire-suite.js';
import { WireServer, sse, straddle } from '../test-support/wire-server.js';

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'request-id': 'req_011' };
const ev = (type: string, data: object) => ({ event: type, data: { type, ...data } });
const start = (input: number) => ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-3-5-haiku-latest', content: [], stop_reason: null, usage: { input_tokens: input, output_tokens: 1 } } });
const stop = (reason: string, output: number) => [ev('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: output } }), ev('message_stop', {})];

describeWireProvider({
  name: 'anthropic',
  create: (baseUrl, extra) => createAnthropicProvider({ baseUrl, apiKey: 'sk-ant-test', ...extra }),
  textReply: () => ({
    headers: SSE_HEADERS,
    chunks: straddle(
      sse(
        start(11),
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ev('ping', {}),
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' world' } }),
        ev('content_block_stop', { index: 0 }),
        ...stop('end_turn', 7),
      ),
    ),
  }),
  toolCallsReply: () => ({
    headers: SSE_HEADERS,
    chunks: sse(
      start(30),
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_lookup', name: 'lookup_part', input: {} } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"sk' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: 'u": "A-1"}' } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_query', name: 'query', input: {} } }),
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"manager": "Part",' } }),
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: ' "limit": 5}' } }),
      ev('content_block_stop', { index: 1 }),
      ...stop('tool_use', 12),
    ),
  }),
  errorReply: (status) => ({
    status,
    headers: { 'content-type': 'application/json', 'request-id': 'req_011', ...(status === 429 ? { 'retry-after': '7' } : {}) },
    chunks: [
      JSON.stringify({
        type: 'error',
        error: { type: status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : 'api_error', message: status === 401 ? 'invalid x-api-key' : 'Number of requests has exceeded your rate limit' },
        request_id: 'req_011',
      }),
    ],
  }),
  cutReply: () => ({ headers: SSE_HEADERS, chunks: sse(start(5), ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hel' } })), destroy: true }),
  callIds: ['toolu_lookup', 'toolu_query'],
});

describe('anthropic request', () => {
  let server: WireServer;
  beforeEach(async () => {
    server = await WireServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the documented Messages body, x-api-key and anthropic-version', async () => {
    server.reply({ headers: SSE_HEADERS, chunks: sse(start(1), ...stop('end_turn', 1)) });
    const provider = createAnthropicProvider({ baseUrl: server.url, apiKey: 'sk-ant-test' });
    await collect(provider.complete({ messages: HISTORY, tools: TOOLS, signal: new AbortController().signal }));
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('sk-ant-test');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.body).toEqual({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 1024,
      stream: true,
      system: 'Answer only from tool results.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What does part A-1 cost?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking it up.' },
            { type: 'tool_use', id: 'call_a', name: 'lookup_part', input: { sku: 'A-1' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_a', content: '{"sku":"A-1","price":"12.50"}' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'It costs 12.50.' }] },
        { role: 'user', content: [{ type: 'text', text: 'And how many are in stock?' }] },
      ],
      tools: TOOLS.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
    });
  });

  it('groups parallel tool results in one user turn and flags error results', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'x', arguments: '{}' }, { id: 'b', name: 'y', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'a', name: 'x', result: { rows: 1 } },
      { role: 'tool', toolCallId: 'b', name: 'y', result: { error: { code: 'bad', message: 'no' } } },
    ]);
    expect(messages).toHaveLength(3);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: '{"rows":1}' },
      { type: 'tool_result', tool_use_id: 'b', content: '{"error":{"code":"bad","message":"no"}}', is_error: true },
    ]);
  });

  it('maps history to Messages and back without loss', () => {
    const { system, messages } = toAnthropicMessages(HISTORY);
    expect(fromAnthropicMessages(system, messages)).toEqual(HISTORY);
  });

  it('classifies an overloaded error event inside the stream as retryable provider_unavailable', async () => {
    server.reply({ headers: SSE_HEADERS, chunks: sse(start(1), ev('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })) });
    const provider = createAnthropicProvider({ baseUrl: server.url, apiKey: 'k' });
    await expect(collect(provider.complete({ messages: HISTORY, tools: [], signal: new AbortController().signal }))).rejects.toMatchObject({ code: 'provider_unavailable', retryable: true, status: 529 });
  });

  it('requires a key: from ANTHROPIC_API_KEY, else a check problem and provider_auth', async () => {
    expect(createAnthropicProvider({ env: { ANTHROPIC_API_KEY: 'k' } }).checkConfiguration()).toEqual([]);
    const missing = createAnthropicProvider({ env: {} });
    expect(missing.checkConfiguration()).toEqual([expect.objectContaining({ message: expect.stringContaining('ANTHROPIC_API_KEY') })]);
    await expect(collect(missing.complete({ messages: HISTORY, tools: [], signal: new AbortController().signal }))).rejects.toMatchObject({ code: 'provider_auth' });
  });
});
