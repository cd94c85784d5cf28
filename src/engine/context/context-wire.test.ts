import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../store/index.js';
import type { Store } from '../../store/index.js';
import { WIRE_FIXTURES } from '../../providers/test-support/wire-fixtures.js';
import { WireServer, sse } from '../../providers/test-support/wire-server.js';
import type { WireReply } from '../../providers/test-support/wire-server.js';
import { createEngine } from '../engine.js';
import type { Engine } from '../engine.js';
import { alice, key } from '../../../test/support/engine-kit.js';

const openai = WIRE_FIXTURES.find((fixture) => fixture.name === 'openai')!;

/** What an OpenAI-compatible server answers when the prompt is longer than the model's context. */
const overflow: WireReply = {
  status: 400,
  headers: { 'content-type': 'application/json' },
  chunks: [JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9731 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } })],
};

/** Text chunks ending with `finish_reason: length`: cut at the output limit. */
function cut(chunks: readonly string[]): WireReply {
  return {
    headers: { 'content-type': 'text/event-stream' },
    chunks: sse(
      ...chunks.map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
      { choices: [{ index: 0, delta: {}, finish_reason: 'length' }] },
      { choices: [], usage: { prompt_tokens: 50, completion_tokens: 16 } },
      '[DONE]',
    ),
  };
}

interface SentMessage {
  readonly role: string;
  readonly content: string | null;
}
const sent = (server: WireServer, index: number): SentMessage[] => (server.requests[index]!.body as { messages: SentMessage[] }).messages;

/** The engine over the OpenAI wire format on loopback: overflow recovery and the length limit. */
describe('context limits over the openai wire format', () => {
  let server: WireServer;
  let engine: Engine | undefined;
  let store: Store;

  const start = (): Engine => {
    store = createMemoryStore();
    engine = createEngine({ store, tools: [], provider: openai.create(server.url, { newId: () => 'gen_1', timeoutSeconds: 30 }), settings: { retry: { backoffMs: [1], jitter: 0 } } });
    return engine;
  };
  /** A thread of two answered turns, for a third to overflow in. */
  const twoTurns = async (): Promise<string> => {
    server.reply(openai.text(['First answer.'], [10, 2]), openai.text(['Second answer.'], [20, 2]));
    const first = await engine!.ask({ actor: alice, requestKey: key(), text: 'first question' });
    const threadId = first.events[0]!.thread_id;
    await engine!.ask({ actor: alice, threadId, requestKey: key(), text: 'second question' });
    return threadId;
  };

  beforeEach(async () => {
    server = await WireServer.start();
  });
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    await server.close();
  });

  it('compacts the history after a context-overflow error and sends the round once more', async () => {
    start();
    const threadId = await twoTurns();
    server.reply(overflow, openai.text(['The summary.'], [30, 5]), openai.text(['Third answer.'], [40, 3]));
    const third = await engine!.ask({ actor: alice, threadId, requestKey: key(), text: 'third question' });
    expect(third.answer).toBe('Third answer.');
    expect(third.events.at(-1)).toMatchObject({ type: 'done', usage: { input_tokens: 70, output_tokens: 8 } });
    expect(server.requests).toHaveLength(5);
    // The summary request read the turns before this one; the retried request holds the summary instead of them.
    expect(JSON.stringify(sent(server, 3))).toContain('User: first question');
    const retried = sent(server, 4);
    expect(retried[1]).toEqual({ role: 'system', content: 'Summary of the earlier conversation:\nThe summary.' });
    expect(retried.slice(2).map((message) => message.content)).toEqual(['third question']);
    expect(await store.getThread(threadId)).toMatchObject({ summary: 'The summary.' });
  });

  it('fails the turn with provider_context_too_long when the compacted request overflows again', async () => {
    start();
    const threadId = await twoTurns();
    server.reply(overflow, openai.text(['The summary.'], [30, 5]), overflow, openai.text(['never'], [1, 1]));
    const third = await engine!.ask({ actor: alice, threadId, requestKey: key(), text: 'third question' });
    expect(third.events.at(-1)).toMatchObject({ type: 'error', code: 'provider_context_too_long' });
    expect(server.requests).toHaveLength(5);
    expect((await store.getTurn(third.events[0]!.turn_id))?.status).toBe('failed');
  });

  it('fails at once when a first message alone overflows: there is nothing to compact', async () => {
    start();
    server.reply(overflow, openai.text(['never'], [1, 1]));
    const only = await engine!.ask({ actor: alice, requestKey: key(), text: 'a very long question' });
    expect(only.events.at(-1)).toMatchObject({ type: 'error', code: 'provider_context_too_long' });
    expect(server.requests).toHaveLength(1);
  });

  it('continues an answer cut at the length limit once, and saves the whole', async () => {
    start();
    server.reply(cut(['Bolts, nuts ']), openai.text(['and washers.'], [60, 3]));
    const result = await engine!.ask({ actor: alice, requestKey: key(), text: 'What is in stock?' });
    expect(result.answer).toBe('Bolts, nuts and washers.');
    expect(result.events.at(-1)).not.toHaveProperty('truncated');
    expect(sent(server, 1).slice(-2)).toEqual([
      { role: 'assistant', content: 'Bolts, nuts ' },
      { role: 'user', content: expect.stringContaining('cut off at the length limit') },
    ]);
  });

  it('ends a turn cut twice at the length limit as truncated', async () => {
    start();
    server.reply(cut(['Bolts, nuts ']), cut(['and wash']));
    const result = await engine!.ask({ actor: alice, requestKey: key(), text: 'What is in stock?' });
    expect(result.answer).toBe('Bolts, nuts and wash');
    const done = result.events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', truncated: true });
    const items = await store.listItems(done.thread_id);
    expect(items.filter((item) => item.kind === 'assistant_text').every((item) => (item.data as { truncated?: boolean }).truncated === true)).toBe(true);
    expect(server.requests).toHaveLength(2);
  });
});
