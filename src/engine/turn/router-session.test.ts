import { describe, expect, it } from 'vitest';
import { PlumbError, userActor } from '../../core/index.js';
import { demoCatalogue } from '../../demo/index.js';
import type { Provider } from '../../providers/index.js';
import { createMemoryStore } from '../../store/index.js';
import { collect } from '../index.js';
import { confirmOf, demoRouter, eventTypes as types, journalOf as journal, planOf, trackedRouterKits } from '../../../test/support/engine-router-kit.js';

const alice = userActor('alice', ['admin']);
let keys = 0;
const key = (): string => `router-req-${++keys}`;
const { kit, sqlite, sqlitePath, closeOldestSqlite } = trackedRouterKits();

describe('the router session of a thread', () => {
  it('is kept across an engine restart on the same SQLite file', async () => {
    const path = sqlitePath();
    const first = kit({}, (await sqlite(path)));
    const asked = await first.engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411' });
    const threadId = asked.events[0]!.thread_id;
    await first.engine.close();
    await closeOldestSqlite();

    const second = kit({}, (await sqlite(path)));
    const reply = await second.engine.ask({ actor: alice, threadId, requestKey: key(), text: '40.00' });
    expect(planOf(reply.events)).toMatchObject({ outcome: 'run', steps: [{ tool: 'charge_card', arguments: { amount: '40.00', order_id: '4411' } }] });
    const resumed = await collect(second.engine.confirm({ actor: alice, confirmationId: confirmOf(reply.events).id, confirmed: true }));
    expect(resumed.events.at(-1)!.type).toBe('done');
    expect(second.calls).toEqual([{ name: 'charge_card', args: { order_id: '4411', amount: '40.00' } }]);
  });

  it('is read by a second engine on the same database', async () => {
    const path = sqlitePath();
    const one = kit({}, (await sqlite(path)));
    const other = kit({}, (await sqlite(path)));
    const asked = await one.engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411' });
    const threadId = asked.events[0]!.thread_id;
    const reply = await other.engine.ask({ actor: alice, threadId, requestKey: key(), text: '40.00' });
    expect(planOf(reply.events)).toMatchObject({ outcome: 'run', steps: [{ tool: 'charge_card' }] });
    // The confirmation is answered through the first engine: the pending write lives in the shared store.
    const resumed = await collect(one.engine.confirm({ actor: alice, confirmationId: confirmOf(reply.events).id, confirmed: true }));
    expect(types(resumed.events)).toEqual(['tool_result', 'text_chunk', 'done']);
    expect(one.calls).toEqual([{ name: 'charge_card', args: { order_id: '4411', amount: '40.00' } }]);
  });

  it('goes on from what the thread holds, not from a session an engine kept live, once another engine wrote it', async () => {
    const path = sqlitePath();
    const one = kit({}, (await sqlite(path)));
    const other = kit({}, (await sqlite(path)));
    const asked = await one.engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411' });
    expect(planOf(asked.events).outcome).toBe('ask');
    const threadId = asked.events[0]!.thread_id;
    // The other engine reads a new turn: the stored session no longer has the open question.
    expect(planOf((await other.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'show me order 4411' })).events).outcome).toBe('run');
    const reply = await one.engine.ask({ actor: alice, threadId, requestKey: key(), text: '40.00' });
    expect(planOf(reply.events).outcome).not.toBe('run');
    expect(one.calls).toEqual([]);
  });

  it('is rotated before a turn once its check history reached maxRouterSessionHistory, keeping its language', async () => {
    const made = kit({ settings: { maxRouterSessionHistory: 4 } });
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'mostre o pedido 4411', language: 'pt-BR' });
    const threadId = first.events[0]!.thread_id;
    const idOf = async (): Promise<string> => (JSON.parse((await made.store.getThread(threadId))!.routerSession!) as { sessionId: string }).sessionId;
    const before = await idOf();
    await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'mostre o pedido 4412' });
    expect(await idOf()).toBe(before);
    const third = await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'mostre o pedido 4413' });
    expect(planOf(third.events)).toMatchObject({ outcome: 'run', language: 'pt-BR' });
    expect(await idOf()).not.toBe(before);
    const notes = (await made.store.listItems(threadId)).filter((item) => item.kind === 'retry_marker' && (item.data as { event?: string }).event === 'router_session_rotated');
    expect(notes).toHaveLength(1);
  });

  it('is replaced, with a note in the journal, when the catalogue changed', async () => {
    const store = createMemoryStore();
    const first = kit({}, store);
    const asked = await first.engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411' });
    const threadId = asked.events[0]!.thread_id;
    await first.engine.close();
    const changed = demoRouter({}, demoCatalogue.filter((entry) => entry.name !== 'list_events'));
    const second = kit({ router: changed }, store);
    const { events, answer } = await second.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'show me order 4411' });
    expect(types(events)).toEqual(['plan', 'tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(answer).toContain('4411');
    const items = await store.listItems(threadId);
    expect(items.some((item) => item.kind === 'retry_marker' && (item.data as { event?: string }).event === 'router_session_replaced')).toBe(true);
    const saved = JSON.parse((await store.getThread(threadId))!.routerSession!) as { catalogue: { version: string } };
    expect(saved.catalogue.version).toBe(changed.catalogueVersion);
  });
});

describe('router-first turns with a model configured', () => {
  it('sends the scripted provider only the turns the router deferred', async () => {
    const made = kit({ script: { completions: [{ text: 'Why did the part cross the road?' }] } });
    const read = await made.engine.ask({ actor: alice, requestKey: key(), text: 'show me order 4411' });
    expect(read.answer).toContain('4411');
    expect(made.provider!.requests).toHaveLength(0);
    const threadId = read.events[0]!.thread_id;
    const joke = await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'tell me a joke' });
    expect(planOf(joke.events).outcome).toBe('unread');
    expect(joke.answer).toBe('Why did the part cross the road?');
    expect(made.provider!.requests).toHaveLength(1);
    // The model sees the whole conversation, the router's turns included.
    expect(JSON.stringify(made.provider!.requests[0]!.messages)).toContain('show me order 4411');
    expect(await journal(made.store, threadId)).toEqual([
      'user_text',
      'plan:run/run',
      'tool_call:get_order',
      'tool_result:get_order',
      'assistant_text',
      'user_text',
      'plan:unread/model',
      'assistant_text',
    ]);
  });

  it('refuses a call the model proposes that the tool check refuses, without running it', async () => {
    const made = kit({
      script: {
        completions: [
          { toolCalls: [{ id: 'm1', name: 'send_receipt', arguments: { order_id: '4411', email: 'mallory@example.com' } }] },
          { when: { toolResultContains: 'tool_refused' }, text: 'I cannot send it there.' },
        ],
      },
    });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'please deal with the paperwork for my last purchase' });
    expect(planOf(events).outcome).toBe('unread');
    const result = events.find((event) => event.type === 'tool_result');
    expect(result).toMatchObject({ name: 'send_receipt', result: { error: { code: 'tool_refused' } } });
    expect(JSON.stringify(result)).toContain('mallory@example.com');
    expect(made.calls).toEqual([]);
    expect(answer).toBe('I cannot send it there.');
  });

  it('answers a model call whose arguments the check does not validate with invalid_arguments, without running it', async () => {
    const made = kit({
      script: {
        completions: [
          { toolCalls: [{ id: 'm1', name: 'get_order', arguments: { order_id: 'forty-four' } }] },
          { when: { toolResultContains: 'invalid_arguments' }, text: 'Which order number?' },
        ],
      },
    });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'what about my purchase from last spring' });
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ result: { error: { code: 'invalid_arguments' } } });
    expect(made.calls).toEqual([]);
    expect(answer).toBe('Which order number?');
  });

  it('lets the model write the answer over the router results with answerWith model, its tools disabled', async () => {
    const made = kit({ script: { completions: [{ text: 'Order 4411 is paid.' }] }, settings: { answerWith: 'model' } });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'show me order 4411' });
    expect(types(events)).toEqual(['plan', 'tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(answer).toBe('Order 4411 is paid.');
    const [request] = made.provider!.requests;
    expect(request!.tools).toEqual([]);
    expect(JSON.stringify(request!.messages)).toContain('ana@example.com');
  });

  it('runs the model loop alone with the router off', async () => {
    const made = kit({
      script: { completions: [{ toolCalls: [{ id: 'm1', name: 'get_order', arguments: { order_id: '4411' } }] }, { text: 'It is paid.' }] },
      settings: { router: 'off' },
    });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'show me order 4411' });
    expect(types(events)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(answer).toBe('It is paid.');
    expect(made.provider!.requests).toHaveLength(2);
    expect((await made.store.getThread(events[0]!.thread_id))!.routerSession).toBeNull();
  });

  it('refuses answerWith model without a provider when the engine is created', () => {
    expect(() => kit({ settings: { answerWith: 'model' } })).toThrow(/answerWith/);
  });
});

describe('a host budget refusing the turn', () => {
  it('passes rate_limited through with retry_after_seconds, not as chat_error', async () => {
    const refusing: Provider = {
      name: 'budgeted',
      model: 'm',
      checkConfiguration: () => [],
      async *complete() {
        await Promise.resolve();
        if (Date.now() > 0) throw new PlumbError('rate_limited', 'Chat token budget exhausted (per minute). Try again in 7 seconds.', { details: { retry_after_seconds: 7 } });
        yield { type: 'done', finishReason: 'stop' };
      },
    };
    const made = kit({ provider: refusing, settings: { router: 'off' } });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'rate_limited', retry_after_seconds: 7 });
    const [turn] = await made.store.listTurns(events[0]!.thread_id);
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'rate_limited' });
  });
});
