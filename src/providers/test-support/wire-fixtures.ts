import type { AdapterSettings } from '../adapter-settings.js';
import { createAnthropicProvider, createGeminiProvider, createOllamaProvider, createOpenAiProvider } from '../index.js';
import type { Provider } from '../index.js';
import { ndjson, sse } from './wire-server.js';
import type { WireReply } from './wire-server.js';

/** Builds each provider's recorded-style replies for whole-engine tests. */
export interface WireFixtures {
  readonly name: string;
  create(baseUrl: string, extra?: AdapterSettings): Provider;
  /** One tool call (arguments split in two fragments where the format allows), then usage. */
  call(id: string, name: string, args: Record<string, unknown>, usage: readonly [number, number]): WireReply;
  /** Text chunks, then usage. */
  text(chunks: readonly string[], usage: readonly [number, number]): WireReply;
  error(status: number): WireReply;
  /** Some text, then the connection drops before the terminal record. */
  cut(text: string): WireReply;
}

const SSE = { 'content-type': 'text/event-stream' };
const NDJSON = { 'content-type': 'application/x-ndjson' };
const halves = (text: string): [string, string] => [text.slice(0, text.length >> 1), text.slice(text.length >> 1)];
const errorHeaders = (status: number) => ({ 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '1' } : {}) });

const openai: WireFixtures = {
  name: 'openai',
  create: (baseUrl, extra) => createOpenAiProvider({ baseUrl, apiKey: 'sk-test', ...extra }),
  call(id, name, args, [input, output]) {
    const [a, b] = halves(JSON.stringify(args));
    const chunk = (delta: object, finish: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] });
    return {
      headers: SSE,
      chunks: sse(
        chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: a } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: b } }] }),
        chunk({}, 'tool_calls'),
        { choices: [], usage: { prompt_tokens: input, completion_tokens: output } },
        '[DONE]',
      ),
    };
  },
  text(chunks, [input, output]) {
    return {
      headers: SSE,
      chunks: sse(
        ...chunks.map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        { choices: [], usage: { prompt_tokens: input, completion_tokens: output } },
        '[DONE]',
      ),
    };
  },
  error: (status) => ({ status, headers: errorHeaders(status), chunks: [JSON.stringify({ error: { message: `status ${status}`, type: 'error' } })] }),
  cut: (text) => ({ headers: SSE, chunks: sse({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }), destroy: true }),
};

const anthropicEvent = (type: string, data: object) => ({ event: type, data: { type, ...data } });
const anthropic: WireFixtures = {
  name: 'anthropic',
  create: (baseUrl, extra) => createAnthropicProvider({ baseUrl, apiKey: 'sk-ant-test', ...extra }),
  call(id, name, args, [input, output]) {
    const [a, b] = halves(JSON.stringify(args));
    return {
      headers: SSE,
      chunks: sse(
        anthropicEvent('message_start', { message: { usage: { input_tokens: input, output_tokens: 1 } } }),
        anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id, name, input: {} } }),
        anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: a } }),
        anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: b } }),
        anthropicEvent('content_block_stop', { index: 0 }),
        anthropicEvent('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: output } }),
        anthropicEvent('message_stop', {}),
      ),
    };
  },
  text(chunks, [input, output]) {
    return {
      headers: SSE,
      chunks: sse(
        anthropicEvent('message_start', { message: { usage: { input_tokens: input, output_tokens: 1 } } }),
        anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ...chunks.map((text) => anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
        anthropicEvent('content_block_stop', { index: 0 }),
        anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: output } }),
        anthropicEvent('message_stop', {}),
      ),
    };
  },
  error: (status) => ({ status, headers: errorHeaders(status), chunks: [JSON.stringify({ type: 'error', error: { type: 'api_error', message: `status ${status}` } })] }),
  cut: (text) => ({
    headers: SSE,
    chunks: sse(anthropicEvent('message_start', { message: { usage: { input_tokens: 1, output_tokens: 1 } } }), anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    destroy: true,
  }),
};

const ollamaPart = (message: object, done = false, extra: object = {}) => ({ model: 'm', created_at: '2026-11-30T00:00:00Z', message: { role: 'assistant', content: '', ...message }, done, ...extra });
const ollama: WireFixtures = {
  name: 'ollama',
  create: (baseUrl, extra) => createOllamaProvider({ baseUrl, ...extra }),
  call(_id, name, args, [input, output]) {
    return {
      headers: NDJSON,
      chunks: ndjson(ollamaPart({ tool_calls: [{ function: { name, arguments: args } }] }), ollamaPart({}, true, { done_reason: 'stop', prompt_eval_count: input, eval_count: output })),
    };
  },
  text(chunks, [input, output]) {
    return { headers: NDJSON, chunks: ndjson(...chunks.map((content) => ollamaPart({ content })), ollamaPart({}, true, { done_reason: 'stop', prompt_eval_count: input, eval_count: output })) };
  },
  error: (status) => ({ status, headers: errorHeaders(status), chunks: [JSON.stringify({ error: `status ${status}` })] }),
  cut: (text) => ({ headers: NDJSON, chunks: ndjson(ollamaPart({ content: text })), destroy: true }),
};

const geminiReply = (parts: object[], finishReason?: string, usage?: readonly [number, number]) => ({
  candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }) }],
  ...(usage === undefined ? {} : { usageMetadata: { promptTokenCount: usage[0], candidatesTokenCount: usage[1] } }),
});
const gemini: WireFixtures = {
  name: 'gemini',
  create: (baseUrl, extra) => createGeminiProvider({ baseUrl, apiKey: 'AIza-test', ...extra }),
  call(_id, name, args, usage) {
    return { headers: SSE, chunks: sse(geminiReply([{ functionCall: { name, args } }], 'STOP', usage)) };
  },
  text(chunks, usage) {
    return { headers: SSE, chunks: sse(...chunks.map((text, index) => geminiReply([{ text }], index === chunks.length - 1 ? 'STOP' : undefined, index === chunks.length - 1 ? usage : undefined))) };
  },
  error: (status) => ({ status, headers: errorHeaders(status), chunks: [JSON.stringify({ error: { code: status, message: `status ${status}`, status: 'ERROR' } })] }),
  cut: (text) => ({ headers: SSE, chunks: sse(geminiReply([{ text }])), destroy: true }),
};

export const WIRE_FIXTURES: readonly WireFixtures[] = [openai, anthropic, ollama, gemini];
