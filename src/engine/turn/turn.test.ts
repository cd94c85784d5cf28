import { describe, expect, it } from 'vitest';
import { anonymous } from '../../core/index.js';
import { collect, createEngine } from '../index.js';
import { createMemoryStore } from '../../store/index.js';
import { alice, bob, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

describe('one turn, end to end', () => {
  it('answers from a tool result: tool_call, tool_result, text, done with the usage of both rounds', async () => {
    const { engine, store } = kit({
      completions: [
        { toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'bolt' } }], usage: { inputTokens: 10, outputTokens: 2 } },
        { text: ['Part bolt ', 'has SKU-1.'], usage: { inputTokens: 20, outputTokens: 5 } },
      ],
    });
    const { events, answer } = await engine.ask({ actor: alice, requestKey: key(), text: 'What is the bolt SKU?' });
    expect(events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'text_chunk', 'done']);
    expect(events[0]).toMatchObject({ type: 'tool_call', id: 'c1', name: 'lookup', args: { q: 'bolt' } });
    expect(events[1]).toMatchObject({ type: 'tool_result', id: 'c1', result: { rows: [{ name: 'Part bolt', sku: 'SKU-1' }] } });
    expect(events[4]).toMatchObject({ type: 'done', usage: { input_tokens: 30, output_tokens: 7 } });
    expect(answer).toBe('Part bolt has SKU-1.');
    const threadId = events[0]!.thread_id;
    const turnId = events[0]!.turn_id;
    expect(events.every((event) => event.thread_id === threadId && event.turn_id === turnId)).toBe(true);
    const items = await store.listItems(threadId);
    expect(items.map((item) => item.kind)).toEqual(['user_text', 'tool_call', 'tool_result', 'assistant_text']);
    expect(await store.getTurn(turnId)).toMatchObject({ status: 'completed', usage: { inputTokens: 30, outputTokens: 7 } });
  });

  it('sends the system prompt, the history and the tool definitions to the provider', async () => {
    const { engine, provider } = kit({ completions: [{ text: 'Hi.' }, { text: 'Again.' }] }, { systemPrompt: 'Speak like a pirate.' });
    const first = await engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    await engine.ask({ actor: alice, threadId: first.events[0]!.thread_id, requestKey: key(), text: 'and again' });
    const request = provider!.requests[1]!;
    expect(request.messages[0]).toMatchObject({ role: 'system' });
    const system = request.messages[0]!.role === 'system' ? request.messages[0]!.content : '';
    expect(system).toContain('copy');
    expect(system).toContain('Speak like a pirate.');
    expect(request.messages.slice(1)).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: 'and again' },
    ]);
    expect(request.tools.map((tool) => tool.name)).toEqual(['lookup', 'create_part', 'touch']);
  });

  it('commits the user item before the model is asked', async () => {
    const { engine, store } = kit({ completions: [{ text: 'late', delayMs: 50 }] });
    const events = engine.send({ actor: alice, requestKey: 'k1', text: 'first' });
    const iterator = events[Symbol.asyncIterator]();
    const threadsBefore = await waitFor(async () => (await store.listThreads('user:alice'))[0]);
    const items = await waitFor(async () => {
      const listed = await store.listItems(threadsBefore.id);
      return listed.length > 0 ? listed : undefined;
    });
    expect(items[0]).toMatchObject({ kind: 'user_text', data: { text: 'first' } });
    const rest = await collect({ [Symbol.asyncIterator]: () => iterator });
    expect(rest.answer).toBe('late');
  });

  it('returns the same turn for a repeated request key, and request_conflict for other text', async () => {
    const { engine, store, provider } = kit({ completions: [{ text: 'Once.' }] });
    const first = await engine.ask({ actor: alice, requestKey: 'same', text: 'hello' });
    const again = await engine.ask({ actor: alice, requestKey: 'same', text: 'hello' });
    expect(again.answer).toBe('Once.');
    expect(again.events.at(-1)).toMatchObject({ type: 'done', turn_id: first.events[0]!.turn_id });
    expect(provider!.requests).toHaveLength(1);
    const conflict = await engine.ask({ actor: alice, requestKey: 'same', text: 'something else' });
    expect(conflict.events).toEqual([expect.objectContaining({ type: 'error', code: 'request_conflict' })]);
    expect((await store.listItems(first.events[0]!.thread_id)).filter((item) => item.kind === 'user_text')).toHaveLength(1);
  });

  it('answers turn_in_progress while the thread has an active turn and no queue (maxQueuedMessages: 0)', async () => {
    const { engine } = kit({ completions: [{ text: 'slow', delayMs: 100 }, { text: 'second' }] }, { maxQueuedMessages: 0 });
    const first = engine.send({ actor: alice, requestKey: key(), text: 'one' });
    const firstDone = collect(first);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await engine.ask({ actor: alice, requestKey: key(), text: 'two' });
    expect(second.events).toEqual([expect.objectContaining({ type: 'error', code: 'turn_in_progress' })]);
    expect((await firstDone).answer).toBe('slow');
  });

  it('continues the latest thread of a user, the session thread of a visitor, and refuses a visitor without a session', async () => {
    const { engine } = kit({ completions: [{ text: 'ok', repeat: true }] });
    const a1 = await engine.ask({ actor: alice, requestKey: key(), text: 'one' });
    const a2 = await engine.ask({ actor: alice, requestKey: key(), text: 'two' });
    expect(a2.events[0]!.thread_id).toBe(a1.events[0]!.thread_id);
    const visitor = { kind: 'anonymous', sessionKey: 's-1' } as const;
    const v1 = await engine.ask({ actor: visitor, requestKey: key(), text: 'hi' });
    expect(v1.events[0]!.thread_id).not.toBe(a1.events[0]!.thread_id);
    const v2 = await engine.ask({ actor: visitor, requestKey: key(), text: 'hi again' });
    expect(v2.events[0]!.thread_id).toBe(v1.events[0]!.thread_id);
    const nobody = await engine.ask({ actor: anonymous, requestKey: key(), text: 'hi' });
    expect(nobody.events).toEqual([expect.objectContaining({ type: 'error', code: 'session_required' })]);
  });

  it('scopes threads to their owner: another actor never sees or continues them', async () => {
    const { engine } = kit({ completions: [{ text: 'ok', repeat: true }] });
    const mine = await engine.ask({ actor: alice, requestKey: key(), text: 'secret plans' });
    const threadId = mine.events[0]!.thread_id;
    expect((await engine.threads.list(alice)).map((thread) => thread.id)).toEqual([threadId]);
    expect(await engine.threads.list(bob)).toEqual([]);
    await expect(engine.threads.view({ actor: bob, threadId })).rejects.toMatchObject({ code: 'thread_not_found' });
    await expect(engine.threads.history({ actor: bob, threadId })).rejects.toMatchObject({ code: 'thread_not_found' });
    await expect(engine.threads.delete({ actor: bob, threadId })).rejects.toMatchObject({ code: 'thread_not_found' });
    const intrusion = await engine.ask({ actor: bob, threadId, requestKey: key(), text: 'let me in' });
    expect(intrusion.events).toEqual([expect.objectContaining({ type: 'error', code: 'thread_not_found' })]);
    const view = await engine.threads.view({ actor: alice, threadId });
    expect(view.turns).toHaveLength(1);
    expect((await engine.threads.history({ actor: alice, threadId })).map((item) => item.kind)).toEqual(['user_text', 'assistant_text']);
    expect(await engine.threads.delete({ actor: alice, threadId })).toBe(true);
    expect(await engine.threads.list(alice)).toEqual([]);
  });

  it('ends a turn that needs the model with no_provider when none is configured', async () => {
    const { engine, store } = kit(undefined);
    const { events } = await engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'no_provider' })]);
    expect(await store.getTurn(events[0]!.turn_id)).toMatchObject({ status: 'failed', failureCode: 'no_provider' });
  });

  it('refuses blank text with bad_message', async () => {
    const { engine } = kit({ completions: [{ text: 'x' }] });
    const { events } = await engine.ask({ actor: alice, requestKey: key(), text: '   ' });
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'bad_message' })]);
  });

  it('finishes an accepted turn whose reader went away, with its items in the history', async () => {
    const { engine, store } = kit({
      completions: [{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'nut' } }], delayMs: 20 }, { text: 'Found the nut.' }],
    });
    const controller = new AbortController();
    const events = engine.send({ actor: alice, requestKey: key(), text: 'find nut', signal: controller.signal });
    const iterator = events[Symbol.asyncIterator]();
    controller.abort();
    expect((await iterator.next()).done).toBe(true);
    const thread = await waitFor(async () => (await store.listThreads('user:alice'))[0]);
    const turn = await waitFor(async () => {
      const [found] = await store.listTurns(thread.id);
      return found?.status === 'completed' ? found : undefined;
    });
    expect(turn.status).toBe('completed');
    expect((await store.listItems(thread.id)).map((item) => item.kind)).toEqual(['user_text', 'tool_call', 'tool_result', 'assistant_text']);
  });

  it('isolates a throwing hook listener and reports it to the error hook', async () => {
    const errors: string[] = [];
    const received: string[] = [];
    const engine = createEngine({
      store: createMemoryStore(),
      tools: [],
      provider: (await import('../../providers/index.js')).createScriptedProvider({ completions: [{ text: 'fine' }] }),
      hooks: {
        messageReceived: [
          () => {
            throw new Error('listener bug');
          },
          (payload) => {
            received.push(payload.text);
          },
        ],
        error: (payload) => {
          errors.push(payload.source);
        },
      },
    });
    const { answer } = await engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    await engine.close();
    expect(answer).toBe('fine');
    expect(received).toEqual(['hello']);
    expect(errors).toEqual(['hook:messageReceived']);
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition never held');
}
