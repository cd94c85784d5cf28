/**
 * `npm run bench -- providers [runs]`: adapter cost per streamed event — splitting the wire format
 * (eventsource-parser for SSE, lines for NDJSON), JSON.parse, and mapping to Plumb events — for a
 * 10,000-record stream per provider, fed in 4 KiB network-sized chunks. Target: ≤ 5 µs per event.
 */
import { AnthropicDecoder, GeminiDecoder, OllamaDecoder, OpenAiDecoder } from '../src/providers/index.js';
import type { ProviderEvent, StreamDecoder } from '../src/providers/index.js';
import { NdjsonSplitter, SseSplitter } from '../src/providers/http/wire-records.js';
import type { Benchmark } from './harness.js';
import { machineLine, printTable, summarize } from './harness.js';

const EVENTS = 10_000;
const CHUNK = 4096;

interface Case {
  readonly name: string;
  readonly framing: 'sse' | 'ndjson';
  readonly wire: string;
  decoder(): StreamDecoder;
}

const words = ['The ', 'part ', 'A-1 ', 'costs ', '12.50 ', 'and ', 'there ', 'are ', '42 ', 'in ', 'stock. '];
const word = (i: number): string => words[i % words.length] ?? 'x ';
const sse = (data: unknown, event?: string): string => `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const ndjson = (data: unknown): string => `${JSON.stringify(data)}\n`;

/** 10,000 records: mostly text deltas, with two tool calls whose arguments arrive in fragments. */
function openAiWire(): string {
  const parts: string[] = [];
  const chunk = (delta: object, finish: string | null = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-mini', choices: [{ index: 0, delta, finish_reason: finish }] });
  const fragments = 1000;
  for (let i = 0; i < EVENTS - fragments - 3; i++) parts.push(sse(chunk({ content: word(i) })));
  parts.push(sse(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'query', arguments: '{"q":"' } }] })));
  for (let i = 0; i < fragments - 1; i++) parts.push(sse(chunk({ tool_calls: [{ index: i % 2, function: { arguments: 'ab' } }] })));
  parts.push(sse(chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'query', arguments: '' } }] })));
  parts.push(sse(chunk({}, 'tool_calls')));
  parts.push(sse({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 10, completion_tokens: 10 } }));
  parts.push(sse('[DONE]'));
  return parts.join('');
}

function anthropicWire(): string {
  const parts: string[] = [];
  const ev = (type: string, data: object) => sse({ type, ...data }, type);
  parts.push(ev('message_start', { message: { id: 'msg', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 10, output_tokens: 1 } } }));
  parts.push(ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
  const fragments = 1000;
  for (let i = 0; i < EVENTS - fragments - 8; i++) parts.push(ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: word(i) } }));
  parts.push(ev('content_block_stop', { index: 0 }));
  parts.push(ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_a', name: 'query', input: {} } }));
  for (let i = 0; i < fragments; i++) parts.push(ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: i === 0 ? '{"q":"' : i === fragments - 1 ? '"}' : 'ab' } }));
  parts.push(ev('content_block_stop', { index: 1 }));
  parts.push(ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 10 } }));
  parts.push(ev('message_stop', {}));
  return parts.join('');
}

function ollamaWire(): string {
  const parts: string[] = [];
  const part = (message: object) => ({ model: 'gemma4:e4b', created_at: '2026-11-30T01:00:00.000Z', message: { role: 'assistant', content: '', ...message }, done: false });
  for (let i = 0; i < EVENTS - 3; i++) parts.push(ndjson(part({ content: word(i) })));
  parts.push(ndjson(part({ tool_calls: [{ function: { name: 'query', arguments: { q: 'ab' } } }] })));
  parts.push(ndjson(part({ tool_calls: [{ function: { name: 'query', arguments: { q: 'cd' } } }] })));
  parts.push(ndjson({ model: 'gemma4:e4b', created_at: '2026-11-30T01:00:00.000Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 10, eval_count: 10 }));
  return parts.join('');
}

function geminiWire(): string {
  const parts: string[] = [];
  const reply = (p: object[], finishReason?: string) => ({ candidates: [{ content: { role: 'model', parts: p }, ...(finishReason === undefined ? {} : { finishReason }), index: 0 }], modelVersion: 'gemini-2.5-flash' });
  for (let i = 0; i < EVENTS - 2; i++) parts.push(sse(reply([{ text: word(i) }])));
  parts.push(sse(reply([{ functionCall: { name: 'query', args: { q: 'ab' } } }])));
  parts.push(sse({ ...reply([{ functionCall: { name: 'query', args: { q: 'cd' } } }], 'STOP'), usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10 } }));
  return parts.join('');
}

function chunks(wire: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < wire.length; at += CHUNK) out.push(wire.slice(at, at + CHUNK));
  return out;
}

/** Feeds the whole stream through splitter + decoder; returns the number of Plumb events produced. */
function decodeAll(testCase: Case, pieces: readonly string[]): number {
  const splitter = testCase.framing === 'sse' ? new SseSplitter() : new NdjsonSplitter();
  const decoder = testCase.decoder();
  const out: ProviderEvent[] = [];
  let produced = 0;
  for (const piece of pieces) {
    for (const record of splitter.feed(piece)) {
      decoder.push(record.data, record.event, out);
      produced += out.length;
      out.length = 0;
    }
  }
  for (const record of splitter.end()) decoder.push(record.data, record.event, out);
  decoder.end(out);
  produced += out.length;
  if (!decoder.finished) throw new Error(`${testCase.name}: the benchmark stream did not finish`);
  return produced;
}

/** The floor: splitting and JSON.parse only, no mapping. */
function parseOnly(testCase: Case, pieces: readonly string[]): number {
  const splitter = testCase.framing === 'sse' ? new SseSplitter() : new NdjsonSplitter();
  let parsed = 0;
  for (const piece of pieces) {
    for (const record of splitter.feed(piece)) {
      if (record.data !== '[DONE]') JSON.parse(record.data);
      parsed += 1;
    }
  }
  return parsed;
}

function timeRuns(runs: number, fn: () => unknown): number[] {
  for (let i = 0; i < 5; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(((performance.now() - start) * 1000) / EVENTS);
  }
  return samples;
}

const benchmark: Benchmark = {
  name: 'providers',
  async run(args) {
    const runs = Number(args[0] ?? 30);
    const newId = (): string => 'call_bench';
    const cases: Case[] = [
      { name: 'OpenAI-compatible (SSE)', framing: 'sse', wire: openAiWire(), decoder: () => new OpenAiDecoder(newId) },
      { name: 'Anthropic (SSE)', framing: 'sse', wire: anthropicWire(), decoder: () => new AnthropicDecoder(newId) },
      { name: 'Ollama (NDJSON)', framing: 'ndjson', wire: ollamaWire(), decoder: () => new OllamaDecoder(newId) },
      { name: 'Gemini (SSE)', framing: 'sse', wire: geminiWire(), decoder: () => new GeminiDecoder(newId) },
    ];
    console.log(machineLine());
    const rows: (string | number)[][] = [];
    for (const testCase of cases) {
      const pieces = chunks(testCase.wire);
      const produced = decodeAll(testCase, pieces);
      const full = summarize(timeRuns(runs, () => decodeAll(testCase, pieces)));
      const floor = summarize(timeRuns(runs, () => parseOnly(testCase, pieces)));
      rows.push([testCase.name, EVENTS, produced, full.median, full.p99, floor.median, full.median <= 5 ? 'yes' : 'NO']);
    }
    printTable(
      `Provider adapters: cost per streamed event (${EVENTS.toLocaleString('en')} wire records, 4 KiB chunks, median of ${runs} runs)`,
      ['adapter', 'wire records', 'Plumb events out', 'median µs/record', 'p99 µs/record', 'split + JSON.parse only µs/record', '≤ 5 µs'],
      rows,
    );
    await Promise.resolve();
  },
};

export default benchmark;
