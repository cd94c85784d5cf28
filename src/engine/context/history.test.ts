import { afterEach, describe, expect, it } from 'vitest';
import type { ItemRecord, ListItemsOptions, Store } from '../../store/index.js';
import { createMemoryStore } from '../../store/index.js';
import type { ChatMessage } from '../../providers/index.js';
import { selectContext, toMessages } from './history.js';
import { alice, key, makeKit } from '../../../test/support/engine-kit.js';
import type { Kit } from '../../../test/support/engine-kit.js';
import type { EngineSettingsInput } from '../settings.js';

const kits: Kit[] = [];
afterEach(async () => {
  for (const made of kits.splice(0)) await made.engine.close();
});

let ordinal = 0;
function item(turnId: string, kind: ItemRecord['kind'], data: Record<string, unknown>): ItemRecord {
  ordinal += 1;
  return { id: `i${ordinal}`, threadId: 't', turnId, ordinal, kind, data: data as ItemRecord['data'], createdAt: 0 };
}

/** A user text of about `tokens` tokens (the model-free estimate: four ASCII characters a token). */
function sized(label: string, tokens: number): string {
  return `${label} ${'word '.repeat(Math.round((tokens * 4) / 5))}`.trim();
}

/**
 * A small window, so that a few turns fill it: compaction past 4,000 tokens (half of 8,000), towards
 * 3,200 (the derived target), with summaries of at most 1,280 (the derived ceiling).
 */
const small: EngineSettingsInput = { contextWindowTokens: 8000, compactionThreshold: 0.5 };

const script = {
  completions: [
    { name: 'summary', when: { anyMessageContains: 'Summarize the conversation' }, repeat: true, text: 'SUMMARY' },
    { name: 'answer', repeat: true, text: 'ok' },
  ],
};

const userTexts = (messages: readonly ChatMessage[]): string[] => messages.filter((message) => message.role === 'user').map((message) => message.content);

async function thread(made: Kit, texts: readonly string[]): Promise<string> {
  const first = await made.engine.ask({ actor: alice, requestKey: key(), text: texts[0]! });
  const threadId = first.events[0]!.thread_id;
  for (const text of texts.slice(1)) await made.engine.ask({ actor: alice, threadId, requestKey: key(), text });
  return threadId;
}

describe('context selection', () => {
  const steps = () => [
    item('t1', 'user_text', { text: 'q1' }),
    item('t1', 'tool_call', { callId: 'a', name: 'lookup', arguments: '{}', effect: 'read', step: 1 }),
    item('t1', 'tool_call', { callId: 'b', name: 'lookup', arguments: '{}', effect: 'read', step: 1 }),
    item('t1', 'tool_result', { callId: 'a', name: 'lookup', result: 1 }),
    item('t1', 'tool_result', { callId: 'b', name: 'lookup', result: 2 }),
    item('t1', 'assistant_text', { text: 'a1', step: 2 }),
    item('t2', 'user_text', { text: 'q2' }),
  ];

  it('keeps the newest steps that fit the token budget, never splitting a step, and the current turn whole', () => {
    const items = steps();
    const one = () => 1;
    const fits = selectContext(items, 't2', 6, one);
    expect(fits.recent).toEqual(items.slice(1));
    expect(fits.prefix).toEqual(items.slice(0, 1));
    // A step of four items does not fit in what three tokens leave: it goes whole to the older part.
    const tight = selectContext(items, 't2', 3, one);
    expect(tight.recent).toEqual(items.slice(5));
    expect(selectContext(items, 't1', 0, one).prefix).toEqual([]);
  });

  it('keeps fewer messages when they are large, more when they are small', () => {
    const items = [...steps(), item('t2', 'assistant_text', { text: 'a2', step: 1 }), item('t3', 'user_text', { text: 'q3' })];
    const bigAnswers = (i: ItemRecord) => (i.kind === 'assistant_text' ? 500 : 10);
    expect(selectContext(items, 't3', 1000, () => 10).prefix).toEqual([]);
    expect(selectContext(items, 't3', 1000, bigAnswers).recent.map((i) => i.kind)).toEqual(['user_text', 'assistant_text', 'user_text']);
  });

  it('answers a call without a result so that every call has one', () => {
    const messages = toMessages([
      item('t1', 'user_text', { text: 'q' }),
      item('t1', 'tool_call', { callId: 'x', name: 'create_part', arguments: '{"name":"A"}', effect: 'write', step: 1 }),
      item('t2', 'user_text', { text: 'again' }),
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'create_part', arguments: '{"name":"A"}' }] },
      { role: 'tool', toolCallId: 'x', name: 'create_part', result: { error: { code: 'interrupted', message: expect.any(String) } } },
      { role: 'user', content: 'again' },
    ]);
  });

  it('gives an answer cut at the length limit and its continuation to the model as one message', () => {
    const messages = toMessages([
      item('t1', 'user_text', { text: 'q' }),
      item('t1', 'assistant_text', { text: 'Half of', step: 1, truncated: true }),
      item('t1', 'assistant_text', { text: ' the answer.', step: 2, continuation: true }),
      item('t2', 'user_text', { text: 'next' }),
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'Half of the answer.' },
      { role: 'user', content: 'next' },
    ]);
  });
});

describe('history by tokens', () => {
  it('keeps every message of a thread whose history fits, and few of one whose messages are large', async () => {
    const smallTalk = makeKit(script, small);
    const largeTalk = makeKit(script, small);
    kits.push(smallTalk, largeTalk);
    const turns = Array.from({ length: 10 }, (_, index) => index + 1);
    await thread(smallTalk, turns.map((turn) => `q${turn}`));
    await thread(largeTalk, turns.map((turn) => sized(`q${turn}`, 500)));
    const smallRequest = smallTalk.provider!.requests.at(-1)!;
    const largeRequest = largeTalk.provider!.requests.at(-1)!;
    expect(userTexts(smallRequest.messages)).toEqual(turns.map((turn) => `q${turn}`));
    expect(smallTalk.provider!.requests.some((request) => request.completion === 'summary')).toBe(false);
    const kept = userTexts(largeRequest.messages);
    // Compacted at the eighth turn down to about 1,500 tokens of recent messages (three turns), then two more turns.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(5);
    expect(kept.at(-1)).toMatch(/^q10 /);
    expect(largeRequest.messages[1]).toEqual({ role: 'system', content: 'Summary of the earlier conversation:\nSUMMARY' });
  });
});

describe('compaction', () => {
  it('summarizes the older part once the history passes the threshold, and the next request holds the summary', async () => {
    const made = makeKit(
      { completions: [{ name: 'summary', when: { anyMessageContains: 'Summarize the conversation' }, repeat: true, text: 'SUMMARY', usage: { inputTokens: 900, outputTokens: 10 } }, ...script.completions.slice(1)] },
      small,
    );
    kits.push(made);
    // Seven turns of about 500 tokens stay below 4,000; the eighth passes it.
    const threadId = await thread(made, Array.from({ length: 7 }, (_, index) => sized(`q${index + 1}`, 500)));
    expect(made.provider!.requests.some((request) => request.completion === 'summary')).toBe(false);
    expect(await made.store.getThread(threadId)).toMatchObject({ summary: null });
    const eighth = await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: sized('q8', 500) });
    expect(eighth.events.at(-1)).toMatchObject({ type: 'done', usage: { input_tokens: 900, output_tokens: 10 } });
    const requests = made.provider!.requests;
    expect(requests.at(-2)!.completion).toBe('summary');
    // The model's output capability is not known: no ceiling is sent (one above it would be refused), the summary is checked instead.
    expect(requests.at(-2)!.maxOutputTokens).toBeUndefined();
    expect(JSON.stringify(requests.at(-2)!.messages)).toContain('User: q1 ');
    const items = await made.store.listItems(threadId);
    const thread_ = await made.store.getThread(threadId);
    expect(thread_?.summary).toBe('SUMMARY');
    const marker = items.find((i) => i.id === thread_?.summaryThroughItemId)!;
    expect(items.filter((i) => i.kind === 'summary')).toEqual([expect.objectContaining({ data: expect.objectContaining({ text: 'SUMMARY', throughItemId: marker.id }) })]);
    const answer = requests.at(-1)!;
    const shown = items.filter((i) => i.ordinal > marker.ordinal && i.turnId !== eighth.events[0]!.turn_id).concat(items.filter((i) => i.turnId === eighth.events[0]!.turn_id && i.kind === 'user_text'));
    expect(answer.messages.slice(1)).toEqual([{ role: 'system', content: 'Summary of the earlier conversation:\nSUMMARY' }, ...toMessages(shown)]);
    // The summary and the recent part are near the target (3,200), far below the threshold.
    expect(userTexts(answer.messages).length).toBeLessThan(7);
  });

  it('extends the summary it has, and starts over from the whole thread when its marker is unknown', async () => {
    const made = makeKit(script, small);
    kits.push(made);
    const threadId = await thread(made, Array.from({ length: 14 }, (_, index) => sized(`q${index + 1}`, 500)));
    const summaries = made.provider!.requests.filter((request) => request.completion === 'summary');
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(summaries.at(-1)!.messages)).toContain('Earlier summary:\\nSUMMARY');
    expect(JSON.stringify(summaries.at(-1)!.messages)).not.toContain('User: q1 ');
    await made.store.updateThread(threadId, { summaryThroughItemId: 'gone' });
    const before = made.provider!.requests.length;
    await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: sized('q15', 500) });
    // The whole thread is more than one summary request holds: batches, each carrying the summary so far.
    const fresh = made.provider!.requests.slice(before).filter((request) => request.completion === 'summary');
    expect(fresh.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(fresh[0]!.messages)).not.toContain('Earlier summary');
    expect(JSON.stringify(fresh[0]!.messages)).toContain('User: q1 ');
  });

  it('compacts earlier when the provider reports more input tokens than estimated', async () => {
    // One turn of about 1,100 tokens and a second: far below 4,000 as estimated, above it as counted.
    const texts = [sized('q1', 1100), 'q2'];
    const estimated = makeKit(script, small);
    const counted = makeKit({ completions: [script.completions[0]!, { name: 'answer', repeat: true, text: 'ok', usage: { inputTokens: 5000, outputTokens: 1 } }] }, small);
    kits.push(estimated, counted);
    await thread(estimated, texts);
    await thread(counted, texts);
    expect(estimated.provider!.requests.map((request) => request.completion)).toEqual(['answer', 'answer']);
    expect(counted.provider!.requests.map((request) => request.completion)).toEqual(['answer', 'summary', 'answer']);
  });

  it('does nothing when nothing is old enough: a single turn larger than the threshold is sent whole', async () => {
    const made = makeKit(script, small);
    kits.push(made);
    const result = await made.engine.ask({ actor: alice, requestKey: key(), text: sized('huge', 5000) });
    expect(result.answer).toBe('ok');
    expect(made.provider!.requests.map((request) => request.completion)).toEqual(['answer']);
  });

  it('fits each request output to what the window leaves when the model capability is known', async () => {
    const made = makeKit(script, { ...small, modelMaxOutputTokens: 6000 });
    const fixed = makeKit(script, { ...small, maxOutputTokens: 700 });
    kits.push(made, fixed);
    await thread(made, ['short', sized('long', 2500)]);
    await thread(fixed, ['short', sized('long', 2500)]);
    const summarized = makeKit(script, { ...small, modelMaxOutputTokens: 1000 });
    kits.push(summarized);
    await thread(summarized, Array.from({ length: 8 }, (_, index) => sized(`q${index + 1}`, 500)));
    // A summary asks for its ceiling (1,280) within the model's capability.
    expect(summarized.provider!.requests.find((request) => request.completion === 'summary')?.maxOutputTokens).toBe(1000);
    const [first, second] = made.provider!.requests.map((request) => request.maxOutputTokens);
    // The first request leaves the whole capability; the second, with about 2,500 more tokens of input, what the window leaves.
    expect(first).toBe(6000);
    expect(second).toBeLessThan(6000);
    expect(second).toBeGreaterThan(4000);
    expect(fixed.provider!.requests.map((request) => request.maxOutputTokens)).toEqual([700, 700]);
  });
});

describe('on a long thread', () => {
  const looking = {
    completions: [
      { name: 'summary', when: { anyMessageContains: 'Summarize the conversation' }, repeat: true, text: 'SUMMARY' },
      { name: 'answer', when: { toolName: 'lookup' }, repeat: true, text: 'ok' },
      { name: 'look', repeat: true, toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'bolt' } }] },
    ],
  };
  /** A memory store that records how each thread read was bounded. */
  function recordingStore(): { store: Store; reads: (number | undefined)[] } {
    const inner = createMemoryStore();
    const reads: (number | undefined)[] = [];
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        if (property === 'listItems') {
          return (threadId: string, options?: ListItemsOptions) => {
            if (options?.turnId === undefined) reads.push(options?.afterOrdinal);
            return target.listItems(threadId, options);
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { store, reads };
  }

  /** A thread of 60 turns of four items each, compacted every few turns, its thread reads recorded; `cached`: with the engine's thread tails. */
  async function sixtyTurns(cached = false) {
    const { store, reads } = recordingStore();
    const made = makeKit(looking, { ...small, ...(cached ? {} : { threadTailCacheItems: 0 }) }, { store });
    kits.push(made);
    const threadId = await thread(made, Array.from({ length: 60 }, (_, index) => sized(`q${index + 1}`, 400)));
    return { made, reads, threadId };
  }

  it('reads only the recent tail, and gives the model the history since the summary the whole thread would', async () => {
    const { made, reads, threadId } = await sixtyTurns();
    expect(reads.at(-1)).toBeGreaterThan(0);
    const items = await made.store.listItems(threadId);
    const thread_ = await made.store.getThread(threadId);
    const marker = items.find((i) => i.id === thread_?.summaryThroughItemId)!;
    const answer = items.at(-1)!;
    const shown = items.filter((i) => i.ordinal > marker.ordinal && i !== answer);
    const request = made.provider!.requests.at(-1)!;
    expect(request.messages.slice(1)).toEqual([{ role: 'system', content: 'Summary of the earlier conversation:\nSUMMARY' }, ...toMessages(shown)]);
  });

  it('gives a thread’s next turn the tail its last turn left, with the same context, and reads the store after a gap', async () => {
    const cached = await sixtyTurns(true);
    const uncached = await sixtyTurns();
    // A thread's first turn is not kept (most threads never get a second): the second turn reads
    // the thread back once, and every later one continues from what the engine kept.
    expect(cached.reads).toHaveLength(1);
    const contexts = (made: typeof cached.made) => made.provider!.requests.map((request) => request.messages.slice(1));
    expect(contexts(cached.made)).toEqual(contexts(uncached.made));
    // An item appended by someone else (another process, a tool of the host) is a gap: the tail is read again.
    const last = (await cached.made.store.listTurns(cached.threadId)).at(-1)!;
    await cached.made.store.appendItems(last.id, [{ kind: 'assistant_text', data: { text: 'added elsewhere' } }]);
    const before = cached.reads.length;
    await cached.made.engine.ask({ actor: alice, threadId: cached.threadId, requestKey: key(), text: 'q61' });
    expect(cached.reads.length).toBe(before + 1);
    expect(JSON.stringify(cached.made.provider!.requests.at(-1)!.messages)).toContain('added elsewhere');
  });

  it('reads the whole thread when the summary marker is not in the tail', async () => {
    const { made, reads, threadId } = await sixtyTurns();
    await made.store.updateThread(threadId, { summaryThroughItemId: 'gone' });
    const before = made.provider!.requests.length;
    await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'q61' });
    expect(reads.at(-1)).toBeUndefined();
    const fresh = made.provider!.requests.slice(before).find((r) => r.completion === 'summary')!;
    expect(JSON.stringify(fresh.messages)).toContain('User: q1 ');
  });
});
