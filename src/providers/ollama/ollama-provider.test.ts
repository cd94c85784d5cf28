import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaProvider, fromOllamaMessages, toOllamaMessages } from '../index.js';
import { HISTORY, TOOLS, collect, describeWireProvider } from '../test-support/wire-suite.js';
import { WireServer, ndjson, straddle } from '../test-support/wire-server.js';

const NDJSON_HEADERS = { 'content-type': 'application/x-ndjson' };
const at = '2026-11-30T01:00:00.000Z';
const part = (message: object) => ({ model: 'gemma4:e4b', created_at: at, message: { role: 'assistant', content: '', ...message }, done: false });
const last = (input: number, output: number, reason = 'stop') => ({
  model: 'gemma4:e4b',
  created_at: at,
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: reason,
  total_duration: 1_000_000,
  prompt_eval_count: input,
  eval_count: output,
});

describeWireProvider({
  name: 'ollama',
  create: (baseUrl, extra) => createOllamaProvider({ baseUrl, ...extra }),
  textReply: () => ({ headers: NDJSON_HEADERS, chunks: straddle(ndjson(part({ content: 'Hello' }), part({ content: ' world' }), last(11, 7))) }),
  // Ollama sends each call whole (arguments as an object) and no ids; the records themselves are
  // split across writes so that the line splitter has to reassemble them.
  toolCallsReply: () => ({
    headers: NDJSON_HEADERS,
    chunks: straddle(
      ndjson(
        part({ tool_calls: [{ function: { name: 'lookup_part', arguments: { sku: 'A-1' } } }] }),
        part({ tool_calls: [{ function: { name: 'query', arguments: { manager: 'Part', limit: 5 } } }] }),
        last(30, 12),
      ),
    ),
  }),
  errorReply: (status) => ({
    status,
    headers: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '7' } : {}) },
    chunks: [JSON.stringify({ error: status === 401 ? 'unauthorized' : status === 429 ? 'too many requests' : 'llama runner process has terminated' })],
  }),
  cutReply: () => ({ headers: NDJSON_HEADERS, chunks: ndjson(part({ content: 'Hel' })), destroy: true }),
  callIds: [undefined, undefined],
});

describe('ollama request', () => {
  let server: WireServer;
  beforeEach(async () => {
    server = await WireServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the documented /api/chat body: object arguments, tool_name on results, num_predict', async () => {
    server.reply({ headers: NDJSON_HEADERS, chunks: ndjson(last(1, 1)) });
    const provider = createOllamaProvider({ baseUrl: server.url, model: 'qwen3:4b' });
    await collect(provider.complete({ messages: HISTORY, tools: TOOLS, maxOutputTokens: 256, signal: new AbortController().signal }));
    const [sent] = server.requests;
    expect(sent?.path).toBe('/api/chat');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.body).toEqual({
      model: 'qwen3:4b',
      stream: true,
      options: { num_predict: 256 },
      messages: [
        { role: 'system', content: 'Answer only from tool results.' },
        { role: 'user', content: 'What does part A-1 cost?' },
        { role: 'assistant', content: 'Looking it up.', tool_calls: [{ id: 'call_a', function: { name: 'lookup_part', arguments: { sku: 'A-1' } } }] },
        { role: 'tool', content: '{"sku":"A-1","price":"12.50"}', tool_name: 'lookup_part', tool_call_id: 'call_a' },
        { role: 'assistant', content: 'It costs 12.50.' },
        { role: 'user', content: 'And how many are in stock?' },
      ],
      tools: TOOLS.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    });
  });

  it('maps history to /api/chat and back without loss', () => {
    expect(fromOllamaMessages(toOllamaMessages(HISTORY), () => 'unused')).toEqual(HISTORY);
  });

  it('defaults to gemma4:e4b on 127.0.0.1:11434 and validates the base URL', () => {
    const provider = createOllamaProvider();
    expect(provider.model).toBe('gemma4:e4b');
    expect(provider.describe().baseUrl).toBe('http://127.0.0.1:11434');
    expect(provider.checkConfiguration()).toEqual([]);
    for (const baseUrl of ['localhost:11434', 'file:///tmp/socket', 'http://', 'not a url']) {
      expect(() => createOllamaProvider({ baseUrl })).toThrowError(expect.objectContaining({ code: 'provider_config_invalid' }));
    }
  });

  it('classifies an error line inside the stream and a missing model (404)', async () => {
    server.reply(
      { headers: NDJSON_HEADERS, chunks: ndjson(part({ content: 'Hi' }), { error: 'an error was encountered while running the model' }) },
      { status: 404, headers: { 'content-type': 'application/json' }, chunks: ['{"error":"model \\"gemma9\\" not found, try pulling it first"}'] },
    );
    const provider = createOllamaProvider({ baseUrl: server.url });
    const request = { messages: HISTORY, tools: [], signal: new AbortController().signal };
    await expect(collect(provider.complete(request))).rejects.toMatchObject({ code: 'provider_unavailable' });
    await expect(collect(provider.complete(request))).rejects.toMatchObject({ code: 'provider_invalid_request', retryable: false, providerMessage: expect.stringContaining('not found') });
  });

  it('reads a JSON tool call written as text when parseTextToolCalls is on (small local models)', async () => {
    // A recorded-style fixture (written by hand, not captured from a live model here) of what small
    // local models without reliable native tool calling tend to answer, e.g. llama3.2:3b or
    // gemma3-class models served without a tool template: a fenced JSON object instead of a call.
    const fenced = '```json\n{"name": "lookup_part", "arguments": {"sku": "A-1"}}\n```';
    server.reply(
      { headers: NDJSON_HEADERS, chunks: ndjson(part({ content: fenced.slice(0, 12) }), part({ content: fenced.slice(12) }), last(9, 20)) },
      { headers: NDJSON_HEADERS, chunks: ndjson(part({ content: fenced.slice(0, 12) }), part({ content: fenced.slice(12) }), last(9, 20)) },
    );
    const request = { messages: HISTORY, tools: TOOLS, signal: new AbortController().signal };
    const on = await collect(createOllamaProvider({ baseUrl: server.url, parseTextToolCalls: true, newId: () => 'text_call' }).complete(request));
    expect(on).toEqual([
      { type: 'usage', inputTokens: 9, outputTokens: 20 },
      { type: 'tool_call', id: 'text_call', name: 'lookup_part', arguments: '{"sku":"A-1"}' },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
    const off = await collect(createOllamaProvider({ baseUrl: server.url }).complete(request));
    expect(off.filter((event) => event.type === 'text').map((event) => event.text).join('')).toBe(fenced);
  });
});

/** A loopback port nothing listens on: one that was just free. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

describe('ollama not running', () => {
  it('fails at once, not retryable, naming the URL and saying to start ollama serve', async () => {
    const port = await closedPort();
    for (const host of ['127.0.0.1', 'localhost']) {
      const provider = createOllamaProvider({ baseUrl: `http://${host}:${port}` });
      const failure = collect(provider.complete({ messages: HISTORY, tools: [], signal: new AbortController().signal }));
      await expect(failure).rejects.toMatchObject({
        code: 'provider_connection_refused',
        retryable: false,
        message: `Nothing is listening at http://${host}:${port} for the ollama provider (connection refused). Is \`ollama serve\` running? Or set providerConfig.baseUrl (--base-url) to where it listens.`,
      });
    }
  });

  it('keeps a failure to reach a remote address retryable, naming the address', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 203.0.113.9:443'), { code: 'ECONNREFUSED' }) });
    const provider = createOllamaProvider({ baseUrl: 'https://203.0.113.9', fetch: () => Promise.reject(refused) });
    await expect(collect(provider.complete({ messages: HISTORY, tools: [], signal: new AbortController().signal }))).rejects.toMatchObject({
      code: 'provider_network',
      retryable: true,
      message: 'Could not reach the ollama provider at https://203.0.113.9: connect ECONNREFUSED 203.0.113.9:443.',
    });
  });
});
