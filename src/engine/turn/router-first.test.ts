import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userActor } from '../../core/index.js';
import { createRouter } from '../../router/index.js';
import type { CatalogueEntry } from '../../router/index.js';
import { defineTool } from '../../tools/index.js';
import { collect } from '../index.js';
import type { ConfirmMutationEvent } from '../index.js';
import type { RouterKit } from '../../../test/support/engine-router-kit.js';
import { SECRET, confirmOf, eventTypes as types, journalOf as journal, planOf, trackedRouterKits } from '../../../test/support/engine-router-kit.js';

const alice = userActor('alice', ['admin']);
let keys = 0;
const key = (): string => `router-req-${++keys}`;
const { kit } = trackedRouterKits();

describe('router-first turns: each outcome as events and journal items', () => {
  it('runs a read the router planned and answers it without a provider', async () => {
    const { engine, store, calls } = kit();
    const { events, answer } = await engine.ask({ actor: alice, requestKey: key(), text: 'show me order 4411' });
    expect(types(events)).toEqual(['plan', 'tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(planOf(events)).toMatchObject({ outcome: 'run', language: 'en', steps: [{ kind: 'tool', tool: 'get_order', arguments: { order_id: '4411' } }] });
    expect(calls).toEqual([{ name: 'get_order', args: { order_id: '4411' } }]);
    expect(answer).toContain('4411');
    expect(answer).toContain('40.00');
    const threadId = events[0]!.thread_id;
    expect(await journal(store, threadId)).toEqual(['user_text', 'plan:run/run', 'tool_call:get_order', 'tool_result:get_order', 'assistant_text']);
    const turns = await store.listTurns(threadId);
    expect(turns[0]).toMatchObject({ status: 'completed' });
  });

  it('answers an ask with its question, and reads the next turn as the reply', async () => {
    const { engine, store, calls } = kit();
    const first = await engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411' });
    expect(types(first.events)).toEqual(['plan', 'question', 'text_chunk', 'done']);
    expect(planOf(first.events).outcome).toBe('ask');
    expect(first.answer).toContain('amount');
    const question = first.events.find((event) => event.type === 'question');
    expect(question).toMatchObject({ source: 'router', free_text: true, text: first.answer, id: `${first.events[0]!.turn_id}.q0` });
    const threadId = first.events[0]!.thread_id;
    expect(await journal(store, threadId)).toEqual(['user_text', 'plan:ask/ask', 'question', 'assistant_text']);

    const reply = await engine.ask({ actor: alice, threadId, requestKey: key(), text: '40.00' });
    // The reply is bound to the question it answers, in the journal.
    const answer = (await store.listItems(threadId)).find((item) => item.kind === 'answer');
    expect(answer).toMatchObject({ turnId: reply.events[0]!.turn_id, data: { questionId: question?.type === 'question' ? question.id : '', text: '40.00', via: 'message' } });
    expect(planOf(reply.events)).toMatchObject({ outcome: 'run', steps: [{ tool: 'charge_card', arguments: { amount: '40.00', order_id: '4411' } }] });
    expect(types(reply.events)).toEqual(['plan', 'tool_call', 'confirm_mutation']);
    expect(confirmOf(reply.events)).toMatchObject({ mutation: 'charge_card', input: { amount: '40.00', order_id: '4411' } });
    expect(calls).toEqual([]);
  });

  it('answers a declined turn with its reasons and runs nothing', async () => {
    const { engine, store, calls } = kit();
    const { events, answer } = await engine.ask({ actor: alice, requestKey: key(), text: 'send the receipt for order 4411 to #general' });
    expect(types(events)).toEqual(['plan', 'text_chunk', 'done']);
    expect(planOf(events).outcome).toBe('declined');
    expect(answer).toContain('#general');
    expect(calls).toEqual([]);
    expect(await journal(store, events[0]!.thread_id)).toEqual(['user_text', 'plan:declined/declined', 'assistant_text']);
  });

  it('asks to rephrase an unread turn first, then refuses saying what it can do, without a provider and without no_provider', async () => {
    const { engine, store } = kit();
    const first = await engine.ask({ actor: alice, requestKey: key(), text: 'tell me a joke' });
    expect(types(first.events)).toEqual(['plan', 'text_chunk', 'done']);
    expect(planOf(first.events).outcome).toBe('unread');
    expect(first.answer).toContain('show me order 4411');
    const threadId = first.events[0]!.thread_id;
    const second = await engine.ask({ actor: alice, threadId, requestKey: key(), text: 'tell me a poem' });
    expect(types(second.events)).toEqual(['plan', 'text_chunk', 'done']);
    expect(second.answer).toContain('This is not something I can read');
    expect(await journal(store, threadId)).toEqual(['user_text', 'plan:unread/rephrase', 'assistant_text', 'user_text', 'plan:unread/refuse', 'assistant_text']);
  });

  it('replays a repeated request key with its plan event', async () => {
    const { engine } = kit();
    const requestKey = key();
    const first = await engine.ask({ actor: alice, requestKey, text: 'show me order 4411' });
    const again = await engine.ask({ actor: alice, requestKey, text: 'show me order 4411' });
    expect(types(again.events)).toEqual(types(first.events));
    expect(planOf(again.events)).toEqual(planOf(first.events));
  });
});

describe('the language of a thread', () => {
  it('reads a thread in the language the sender chose, and answers in it', async () => {
    const { engine, calls } = kit();
    const { events, answer } = await engine.ask({ actor: alice, requestKey: key(), text: 'mostre o pedido 4411', language: 'pt-BR' });
    expect(planOf(events)).toMatchObject({ outcome: 'run', language: 'pt-BR', steps: [{ tool: 'get_order', arguments: { order_id: '4411' } }] });
    expect(calls).toEqual([{ name: 'get_order', args: { order_id: '4411' } }]);
    expect(answer).toContain('4411');
  });

  it('refuses a language the router does not read with bad_message', async () => {
    const { engine } = kit();
    const { events } = await engine.ask({ actor: alice, requestKey: key(), text: 'muéstrame el pedido 4411', language: 'es' });
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'bad_message' })]);
  });
});

describe('a plan whose question other reads can answer', () => {
  const idOf = (name: string) => ({ type: 'object', properties: { [name]: { type: 'string' } }, required: [name] });
  const shop: CatalogueEntry[] = [
    { name: 'find_customer', description: 'Find a customer by name.', parameters: idOf('name'), effect: 'read', outputs: { identity: 'id' } },
    { name: 'latest_order', description: "A customer's latest order.", parameters: idOf('customer_id'), effect: 'read', outputs: { identity: 'id' } },
    { name: 'cancel_order', description: 'Cancel an order.', parameters: idOf('order_id'), effect: 'write' },
  ];
  const vocabulary = `settings: { language: en }
languages:
  en:
    tools:
      cancel_order: { triggers: [cancel the order, cancel order, cancel], label: cancel the order }
    parameters:
      order_id: { cues: [order number, order no], label: order }
      name: { cues: [named, called], label: name }
`;

  it('makes the look-up reads, then runs the completed plan', async () => {
    const log: { name: string; args: unknown }[] = [];
    const tools = [
      defineTool({ name: 'find_customer', description: 'Find a customer by name.', input: z.object({ name: z.string() }), effect: 'read', handler: (args) => (log.push({ name: 'find_customer', args }), { id: 'c-7', name: args.name }) }),
      defineTool({ name: 'latest_order', description: "A customer's latest order.", input: z.object({ customer_id: z.string() }), effect: 'read', handler: (args) => (log.push({ name: 'latest_order', args }), { id: 'o-9' }) }),
      defineTool({ name: 'cancel_order', description: 'Cancel an order.', input: z.object({ order_id: z.string() }), effect: 'write', handler: (args) => (log.push({ name: 'cancel_order', args }), { cancelled: args.order_id }) }),
    ];
    const router = createRouter({ catalogue: shop, vocabulary, secret: SECRET });
    const made = kit({ router, extra: { tools } });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'cancel the latest order of the customer named Ana Lima' });
    expect(types(events)).toEqual(['plan', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'plan', 'tool_call', 'confirm_mutation']);
    expect(events.filter((event) => event.type === 'plan').map((event) => event.outcome)).toEqual(['ask', 'run']);
    expect(confirmOf(events)).toMatchObject({ mutation: 'cancel_order', input: { order_id: 'o-9' } });
    await collect(made.engine.confirm({ actor: alice, confirmationId: confirmOf(events).id, confirmed: true }));
    expect(log).toEqual([
      { name: 'find_customer', args: { name: 'Ana Lima' } },
      { name: 'latest_order', args: { customer_id: 'c-7' } },
      { name: 'cancel_order', args: { order_id: 'o-9' } },
    ]);
  });
});

describe('router-first writes', () => {
  async function chargePending(made: RouterKit): Promise<{ threadId: string; confirmation: ConfirmMutationEvent }> {
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411 40.00' });
    return { threadId: events[0]!.thread_id, confirmation: confirmOf(events) };
  }

  it('runs an approved write with the exact arguments of the plan, then answers', async () => {
    const made = kit();
    const { threadId, confirmation } = await chargePending(made);
    expect(confirmation.message).toContain('40.00');
    const resumed = await collect(made.engine.confirm({ actor: alice, confirmationId: confirmation.id, confirmed: true }));
    expect(types(resumed.events)).toEqual(['tool_result', 'text_chunk', 'done']);
    expect(made.calls).toEqual([{ name: 'charge_card', args: { order_id: '4411', amount: '40.00' } }]);
    expect(made.writesNoted()).toBe(1);
    expect(await journal(made.store, threadId)).toEqual([
      'user_text',
      'plan:run/run',
      'tool_call:charge_card',
      'confirmation_request',
      'confirmation_resolution',
      'tool_result:charge_card',
      'assistant_text',
    ]);
    // The session recorded the write as run.
    const session = JSON.parse((await made.store.getThread(threadId))!.routerSession!) as { history: { kind: string; outcome: string | null }[] };
    expect(session.history.filter((entry) => entry.kind === 'ran').map((entry) => entry.outcome)).toEqual(['ran']);
  });

  it('does not run a rejected write, and says so', async () => {
    const made = kit();
    const { threadId, confirmation } = await chargePending(made);
    const resumed = await collect(made.engine.confirm({ actor: alice, confirmationId: confirmation.id, confirmed: false }));
    expect(types(resumed.events)).toEqual(['tool_result', 'text_chunk', 'done']);
    expect(resumed.events[0]).toMatchObject({ type: 'tool_result', result: { status: 'cancelled' } });
    expect(made.calls).toEqual([]);
    expect(made.writesNoted()).toBe(0);
    const session = JSON.parse((await made.store.getThread(threadId))!.routerSession!) as { history: { kind: string; outcome: string | null }[] };
    expect(session.history.filter((entry) => entry.kind === 'ran').map((entry) => entry.outcome)).toEqual(['failed']);
  });

  it('warns that the writes after an irreversible step cannot undo it, and runs the saga step by step', async () => {
    const made = kit();
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411 40.00 and then send the receipt to ana@example.com' });
    const charge = confirmOf(events);
    expect(charge.mutation).toBe('charge_card');
    expect(charge.message).toContain('cannot be undone');
    const second = await collect(made.engine.confirm({ actor: alice, confirmationId: charge.id, confirmed: true }));
    expect(types(second.events)).toEqual(['tool_result', 'tool_call', 'confirm_mutation']);
    const receipt = confirmOf(second.events);
    expect(receipt).toMatchObject({ mutation: 'send_receipt', input: { email: 'ana@example.com', order_id: '4411' } });
    expect(receipt.message).not.toContain('cannot be undone');
    const third = await collect(made.engine.confirm({ actor: alice, confirmationId: receipt.id, confirmed: true }));
    expect(types(third.events)).toEqual(['tool_result', 'text_chunk', 'done']);
    expect(made.calls).toEqual([
      { name: 'charge_card', args: { order_id: '4411', amount: '40.00' } },
      { name: 'send_receipt', args: { order_id: '4411', email: 'ana@example.com' } },
    ]);
  });

  it('gives a dependent step the identity of the result it depends on', async () => {
    const made = kit();
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'create a project called Alpha and then add a task "Kickoff" to it' });
    const project = confirmOf(events);
    expect(project).toMatchObject({ mutation: 'create_project', input: { name: 'Alpha' } });
    const next = await collect(made.engine.confirm({ actor: alice, confirmationId: project.id, confirmed: true }));
    const task = confirmOf(next.events);
    expect(task).toMatchObject({ mutation: 'add_task', input: { project_id: '12', title: 'Kickoff' } });
    await collect(made.engine.confirm({ actor: alice, confirmationId: task.id, confirmed: true }));
    expect(made.calls.map((call) => call.name)).toEqual(['create_project', 'add_task']);
    expect(made.calls[1]!.args).toEqual({ project_id: '12', title: 'Kickoff' });
  });

  it('holds router writes to maxMutationsPerMessage: 0 forbids them', async () => {
    const made = kit({ settings: { maxMutationsPerMessage: 0 } });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411 40.00' });
    expect(types(events)).toEqual(['plan', 'error']);
    expect(events.at(-1)).toMatchObject({ code: 'mutation_limit' });
    expect(made.calls).toEqual([]);
  });

  it('answers a write nobody confirmed in time without making it', async () => {
    let now = Date.UTC(2026, 9, 19, 9, 0, 0);
    const made = kit({ extra: { clock: () => now } });
    const { threadId } = await chargePending(made);
    now += 301_000;
    expect(await made.engine.expirePending()).toBe(1);
    const [turn] = await made.store.listTurns(threadId);
    expect(turn).toMatchObject({ status: 'completed' });
    expect(made.calls).toEqual([]);
    const kinds = (await made.store.listItems(threadId)).map((item) => item.kind);
    expect(kinds.slice(-3)).toEqual(['confirmation_resolution', 'tool_result', 'assistant_text']);
  });

  it('ends the turn with confirmation_required_transport when the caller cannot confirm', async () => {
    const made = kit();
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411 40.00', canConfirm: false });
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'confirmation_required_transport' });
    expect(events.some((event) => event.type === 'confirm_mutation')).toBe(false);
    const threadId = events[0]!.thread_id;
    const [turn] = await made.store.listTurns(threadId);
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'confirmation_required_transport' });
    expect(made.calls).toEqual([]);
  });
});
