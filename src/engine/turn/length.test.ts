import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../store/index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';
import { routerKit } from '../../../test/support/engine-router-kit.js';

const kit = trackedKits();

describe('an answer cut at the length limit', () => {
  it('is continued once, the continuation appended, and saved as one complete answer', async () => {
    const made = kit({
      completions: [
        { text: ['The parts are: bolt, ', 'nut, '], finishReason: 'length' },
        { when: { userTextContains: 'cut off at the length limit' }, text: ['washer.'] },
      ],
    });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'List the parts.' });
    expect(answer).toBe('The parts are: bolt, nut, washer.');
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done' });
    expect(done).not.toHaveProperty('truncated');
    // The continuation request holds the cut part as the assistant's and asks to go on.
    const continuation = made.provider!.requests[1]!;
    expect(continuation.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'The parts are: bolt, nut, ' },
      { role: 'user', content: expect.stringContaining('Continue it exactly where it stopped') },
    ]);
    const items = await made.store.listItems(done.thread_id);
    const texts = items.filter((item) => item.kind === 'assistant_text').map((item) => item.data);
    expect(texts).toEqual([
      { text: 'The parts are: bolt, nut, ', step: 1, truncated: true },
      { text: 'washer.', step: 2, continuation: true },
    ]);
    expect((await made.store.getTurn(done.turn_id))?.status).toBe('completed');
    // The next turn's model sees the answer as one message.
    await made.engine.ask({ actor: alice, threadId: done.thread_id, requestKey: key(), text: 'Thanks.' });
    const next = made.provider!.requests[2];
    expect(next?.messages).toContainEqual({ role: 'assistant', content: 'The parts are: bolt, nut, washer.' });
  });

  it('cut again, ends the turn with the text kept and marked truncated, on done and in the journal', async () => {
    const made = kit({
      completions: [
        { text: 'First half ', finishReason: 'length' },
        { text: 'and more', finishReason: 'length' },
      ],
    });
    const key1 = key();
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key1, text: 'Write a long report.' });
    expect(answer).toBe('First half and more');
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', truncated: true });
    expect(made.provider!.requests).toHaveLength(2);
    const items = await made.store.listItems(done.thread_id);
    const texts = items.filter((item) => item.kind === 'assistant_text').map((item) => item.data);
    expect(texts).toEqual([
      { text: 'First half ', step: 1, truncated: true },
      { text: 'and more', step: 2, truncated: true, continuation: true },
    ]);
    // Replayed from the journal, the turn still says so.
    const replayed = await made.engine.ask({ actor: alice, requestKey: key1, text: 'Write a long report.' });
    expect(replayed.events.at(-1)).toMatchObject({ type: 'done', truncated: true });
  });

  it('with tool calls, runs the calls as usual', async () => {
    const made = kit({
      completions: [
        { toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'bolt' } }], finishReason: 'length' },
        { when: { toolName: 'lookup' }, text: 'Part bolt has SKU-1.' },
      ],
    });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'Bolt SKU?' });
    expect(answer).toBe('Part bolt has SKU-1.');
    expect(events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'done']);
  });
});

describe('a router-run answer the model writes (answerWith model)', () => {
  it('cut at the length limit, ends the turn marked truncated', async () => {
    const made = routerKit(createMemoryStore(), { script: { completions: [{ text: 'Order 4411 is', finishReason: 'length' }] }, settings: { answerWith: 'model' } });
    try {
      const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'show me order 4411' });
      expect(answer).toBe('Order 4411 is');
      expect(events.at(-1)).toMatchObject({ type: 'done', truncated: true });
      const items = await made.store.listItems(events[0]!.thread_id);
      expect(items.findLast((item) => item.kind === 'assistant_text')?.data).toMatchObject({ text: 'Order 4411 is', truncated: true });
    } finally {
      await made.engine.close();
    }
  });
});
