import { afterEach, describe, expect, it } from 'vitest';
import type { ItemRecord, ListItemsOptions, Store } from '../store/index.js';
import { createMemoryStore } from '../store/index.js';
import { selectContext, toMessages } from './history.js';
import { alice, key, makeKit } from './test-support.js';
import type { Kit } from './test-support.js';

const kits: Kit[] = [];
afterEach(async () => {
  for (const made of kits.splice(0)) await made.engine.close();
});

let ordinal = 0;
function item(turnId: string, kind: ItemRecord['kind'], data: Record<string, unknown>): ItemRecord {
  ordinal += 1;
  return { id: `i${ordinal}`, threadId: 't', turnId, ordinal, kind, data: data as ItemRecord['data'], createdAt: 0 };
}

describe('context selection', () => {
  it('never separates a tool call from its results, and keeps the current turn whole', () => {
    const items = [
      item('t1', 'user_text', { text: 'q1' }),
      item('t1', 'tool_call', { callId: 'a', name: 'lookup', arguments: '{}', effect: 'read', step: 1 }),
      item('t1', 'tool_call', { callId: 'b', name: 'lookup', arguments: '{}', effect: 'read', step: 1 }),
      item('t1', 'tool_result', { callId: 'a', name: 'lookup', result: 1 }),
      item('t1', 'tool_result', { callId: 'b', name: 'lookup', result: 2 }),
      item('t1', 'assistant_text', { text: 'a1', step: 2 }),
      item('t2', 'user_text', { text: 'q2' }),
    ];
    const cut = selectContext(items, 't2', 4);
    expect(cut.recent.map((i) => i.id)).toEqual(['i2', 'i3', 'i4', 'i5', 'i6', 'i7']);
    expect(cut.prefix.map((i) => i.id)).toEqual(['i1']);
    const whole = selectContext(items, 't1', 1);
    expect(whole.prefix).toEqual([]);
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
});

describe('summarization', () => {
  const script = {
    completions: [
      { name: 'summary', when: { anyMessageContains: 'Summarize the conversation' }, repeat: true, text: 'SUMMARY', usage: { inputTokens: 100, outputTokens: 10 } },
      { name: 'answer', repeat: true, text: 'ok', usage: { inputTokens: 1, outputTokens: 1 } },
    ],
  };

  it('summarizes the older prefix, records the last item it covers, and counts its usage', async () => {
    const made = makeKit(script, { maxRecentMessages: 2, summarizeAfter: 2 });
    kits.push(made);
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'first question' });
    expect(first.events.at(-1)).toMatchObject({ usage: { input_tokens: 1, output_tokens: 1 } });
    const threadId = first.events[0]!.thread_id;
    const second = await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'second question' });
    expect(second.events.at(-1)).toMatchObject({ type: 'done', usage: { input_tokens: 101, output_tokens: 11 } });
    const items = await made.store.listItems(threadId);
    const thread = await made.store.getThread(threadId);
    expect(thread).toMatchObject({ summary: 'SUMMARY', summaryThroughItemId: items[0]!.id });
    expect(items.some((i) => i.kind === 'summary')).toBe(true);
    const answerRequest = made.provider!.requests.at(-1)!;
    expect(answerRequest.messages[1]).toEqual({ role: 'system', content: 'Summary of the earlier conversation:\nSUMMARY' });
    expect(answerRequest.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'second question' },
    ]);
  });

  it('extends a summary whose marker lies in the prefix, and regenerates one whose marker is missing', async () => {
    const made = makeKit(script, { maxRecentMessages: 2, summarizeAfter: 2 });
    kits.push(made);
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'q1' });
    const threadId = first.events[0]!.thread_id;
    await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'q2' });
    await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'q3' });
    const incremental = made.provider!.requests.filter((r) => r.completion === 'summary').at(-1)!;
    expect(JSON.stringify(incremental.messages)).toContain('Earlier summary');
    await made.store.updateThread(threadId, { summaryThroughItemId: 'gone' });
    await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'q4' });
    const fresh = made.provider!.requests.filter((r) => r.completion === 'summary').at(-1)!;
    expect(JSON.stringify(fresh.messages)).not.toContain('Earlier summary');
    expect(JSON.stringify(fresh.messages)).toContain('User: q1');
  });

  describe('on a long thread', () => {
    const looking = {
      completions: [
        { name: 'summary', when: { anyMessageContains: 'Summarize the conversation' }, repeat: true, text: 'SUMMARY', usage: { inputTokens: 100, outputTokens: 10 } },
        { name: 'answer', when: { toolName: 'lookup' }, repeat: true, text: 'ok', usage: { inputTokens: 1, outputTokens: 1 } },
        { name: 'look', repeat: true, toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'bolt' } }], usage: { inputTokens: 1, outputTokens: 1 } },
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

    /** A thread of 30 turns (a window of 3, summaries after 2), its thread reads recorded; `cached`: with the engine's thread tails. */
    async function thirtyTurns(cached = false) {
      const { store, reads } = recordingStore();
      const made = makeKit(looking, { maxRecentMessages: 3, summarizeAfter: 2, ...(cached ? {} : { threadTailCacheItems: 0 }) }, { store });
      kits.push(made);
      const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'q1' });
      const threadId = first.events[0]!.thread_id;
      for (let turn = 2; turn <= 30; turn++) await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: `q${turn}` });
      return { made, reads, threadId };
    }

    it('reads only the recent tail, and gives the model the window and summary the whole thread would', async () => {
      const { made, reads, threadId } = await thirtyTurns();
      expect(reads.at(-1)).toBeGreaterThan(0);
      const items = await made.store.listItems(threadId);
      // The window is fixed at the turn's first round, when the journal ended with the user's message.
      const answer = items.at(-1)!;
      const asked = items.find((item) => item.turnId === answer.turnId && item.kind === 'user_text')!;
      const window = selectContext(items.filter((item) => item.ordinal <= asked.ordinal), answer.turnId, 3);
      const shown = items.filter((item) => item.ordinal >= window.recent[0]!.ordinal && item !== answer);
      const request = made.provider!.requests.at(-1)!;
      expect(request.messages.slice(1)).toEqual([{ role: 'system', content: 'Summary of the earlier conversation:\nSUMMARY' }, ...toMessages(shown)]);
      const thread = await made.store.getThread(threadId);
      expect(thread?.summaryThroughItemId).toBe(window.prefix.at(-1)!.id);
    });

    it('gives a thread’s next turn the tail its last turn left, with the same context, and reads the store after a gap', async () => {
      const cached = await thirtyTurns(true);
      const uncached = await thirtyTurns();
      // A thread's first turn is not kept (most threads never get a second): the second turn reads
      // the thread back once, and every later one continues from what the engine kept.
      expect(cached.reads).toHaveLength(1);
      const contexts = (made: typeof cached.made) => made.provider!.requests.map((request) => request.messages.slice(1));
      expect(contexts(cached.made)).toEqual(contexts(uncached.made));
      // An item appended by someone else (another process, a tool of the host) is a gap: the tail is read again.
      const last = (await cached.made.store.listTurns(cached.threadId)).at(-1)!;
      await cached.made.store.appendItems(last.id, [{ kind: 'assistant_text', data: { text: 'added elsewhere' } }]);
      const before = cached.reads.length;
      await cached.made.engine.ask({ actor: alice, threadId: cached.threadId, requestKey: key(), text: 'q31' });
      expect(cached.reads.length).toBe(before + 1);
      expect(JSON.stringify(cached.made.provider!.requests.at(-1)!.messages)).toContain('added elsewhere');
    });

    it('reads the whole thread when the summary marker is not in the tail', async () => {
      const { made, reads, threadId } = await thirtyTurns();
      await made.store.updateThread(threadId, { summaryThroughItemId: 'gone' });
      await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'q31' });
      expect(reads.at(-1)).toBeUndefined();
      const fresh = made.provider!.requests.filter((r) => r.completion === 'summary').at(-1)!;
      expect(JSON.stringify(fresh.messages)).toContain('User: q1\\n');
    });
  });
});
