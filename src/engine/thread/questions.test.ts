import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedProvider } from '../../providers/index.js';
import { createMemoryStore, openSqliteStore } from '../../store/index.js';
import type { Store } from '../../store/index.js';
import { askUser, defineTool } from '../../tools/index.js';
import { collect, createEngine } from '../index.js';
import type { ChatEvent, Engine, QuestionEvent } from '../index.js';
import { alice, bob, key, makeKit, testTools } from '../../../test/support/engine-kit.js';
import type { Kit } from '../../../test/support/engine-kit.js';
import { tempDirEach } from '../../../test/support/temp.js';
import { routerKit } from '../../../test/support/engine-router-kit.js';

const dir = tempDirEach('plumb-questions-');
const kits: Kit[] = [];
const engines: Engine[] = [];
const stores: Store[] = [];
const routerKits: ReturnType<typeof routerKit>[] = [];
afterEach(async () => {
  for (const made of routerKits.splice(0)) await made.engine.close();
  for (const made of kits.splice(0)) await made.engine.close();
  for (const engine of engines.splice(0)) await engine.close();
  for (const store of stores.splice(0)) await store.close();
});

/** A host tool that asks which warehouse before it ships. */
const shipTool = defineTool({
  name: 'ship_order',
  description: 'Ships an order from a warehouse.',
  input: z.object({ order: z.string() }),
  effect: 'read',
  handler: (args) => askUser({ text: `Ship order ${args.order} from which warehouse?`, choices: [{ id: 'n', label: 'North' }, { id: 's', label: 'South' }], freeText: false, result: { order: args.order } }),
});

function kit(completions: unknown[], settings = {}): Kit {
  const log = { writes: [] as { name: string; input: unknown }[], reads: [] as string[] };
  const made = makeKit({ completions: completions as never }, settings, { tools: [...testTools(log), shipTool] });
  kits.push(made);
  return made;
}

const questionOf = (events: readonly ChatEvent[]): QuestionEvent => {
  const found = events.find((event): event is QuestionEvent => event.type === 'question');
  if (found === undefined) throw new Error('no question event');
  return found;
};

describe('questions to the person', () => {
  it("pauses a turn on a tool's question and resumes it with the answer as the call's result", async () => {
    const { engine, store, provider } = kit([{ toolCalls: [{ id: 's1', name: 'ship_order', arguments: { order: '4411' } }] }, { when: { toolResultContains: 'South' }, text: 'Shipping 4411 from South.' }]);
    const asked = await collect(engine.send({ actor: alice, requestKey: key(), text: 'ship 4411' }));
    expect(asked.events.map((event) => event.type)).toEqual(['tool_call', 'question']);
    const question = questionOf(asked.events);
    expect(question).toMatchObject({ source: 'tool', free_text: false, text: 'Ship order 4411 from which warehouse?', choices: [{ id: 'n', label: 'North', value: 'North' }, { id: 's', label: 'South', value: 'South' }] });
    expect(await store.getTurn(question.turn_id)).toMatchObject({ status: 'waiting' });
    const view = await engine.threads.state({ actor: alice, threadId: question.thread_id });
    expect(view.question).toMatchObject({ id: question.id, source: 'tool' });

    const refused = await collect(engine.answer({ actor: alice, questionId: question.id, text: 'East' }));
    expect(refused.events).toEqual([expect.objectContaining({ type: 'error', code: 'bad_answer' })]);
    const answered = await collect(engine.answer({ actor: alice, questionId: question.id, choice: 's' }));
    expect(answered.events.map((event) => event.type)).toEqual(['tool_result', 'text_chunk', 'done']);
    expect(answered.events[0]).toMatchObject({ id: 's1', result: { question: 'Ship order 4411 from which warehouse?', answer: 'South', choice: 's', result: { order: '4411' } } });
    expect(answered.answer).toBe('Shipping 4411 from South.');
    const toolMessage = provider!.requests[1]!.messages.find((message) => message.role === 'tool');
    expect(JSON.stringify(toolMessage)).toContain('South');
    const kinds = (await store.listItems(question.thread_id)).map((item) => item.kind);
    expect(kinds).toEqual(['user_text', 'tool_call', 'question', 'answer', 'tool_result', 'assistant_text']);
    const again = await collect(engine.answer({ actor: alice, questionId: question.id, choice: 'n' }));
    expect(again.events).toEqual([expect.objectContaining({ type: 'error', code: 'question_unavailable' })]);
  });

  it('offers the model ask_user (askUserTool) and takes a free-text answer', async () => {
    const { engine, provider } = kit(
      [{ toolCalls: [{ id: 'q1', name: 'ask_user', arguments: { question: 'Which colour?', choices: ['red', 'blue'] } }] }, { when: { toolResultContains: 'teal' }, text: 'Teal it is.' }],
      { askUserTool: true },
    );
    const asked = await collect(engine.send({ actor: alice, requestKey: key(), text: 'paint it' }));
    expect(provider!.requests[0]!.tools.map((tool) => tool.name)).toContain('ask_user');
    const question = questionOf(asked.events);
    expect(question).toMatchObject({ source: 'model', free_text: true, choices: [{ label: 'red' }, { label: 'blue' }] });
    const answered = await collect(engine.answer({ actor: alice, questionId: question.id, text: 'teal' }));
    expect(answered.answer).toBe('Teal it is.');
  });

  it("never lets another actor answer, and says question_unavailable as for an unknown one", async () => {
    const { engine } = kit([{ toolCalls: [{ id: 's1', name: 'ship_order', arguments: { order: '1' } }] }, { text: 'ok' }]);
    const question = questionOf((await collect(engine.send({ actor: alice, requestKey: key(), text: 'ship 1' }))).events);
    for (const questionId of [question.id, 'nonsense', `${question.turn_id}.q9.9`]) {
      const refused = await collect(engine.answer({ actor: bob, questionId, choice: 'n' }));
      expect(refused.events).toEqual([expect.objectContaining({ type: 'error', code: 'question_unavailable' })]);
    }
  });

  it('queues a message sent while a question waits and runs it once the question is answered', async () => {
    const { engine, store } = kit([{ toolCalls: [{ id: 's1', name: 'ship_order', arguments: { order: '7' } }] }, { text: 'Shipped.' }, { text: 'And the next one.' }]);
    const question = questionOf((await collect(engine.send({ actor: alice, requestKey: key(), text: 'ship 7' }))).events);
    const queued = engine.send({ actor: alice, threadId: question.thread_id, requestKey: key(), text: 'next please' });
    const iterator = queued[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'queued', position: 1 });
    expect((await engine.threads.state({ actor: alice, threadId: question.thread_id })).queue).toEqual([expect.objectContaining({ text: 'next please', position: 1 })]);
    expect((await collect(engine.answer({ actor: alice, questionId: question.id, choice: 'n' }))).answer).toBe('Shipped.');
    const rest: ChatEvent[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) rest.push(next.value);
    expect(rest.at(-1)).toMatchObject({ type: 'done' });
    expect((await store.listTurns(question.thread_id)).map((turn) => turn.status)).toEqual(['completed', 'completed']);
  });

  it('ends an open question with its cancelled turn', async () => {
    const { engine, store } = kit([{ toolCalls: [{ id: 's1', name: 'ship_order', arguments: { order: '9' } }] }]);
    const question = questionOf((await collect(engine.send({ actor: alice, requestKey: key(), text: 'ship 9' }))).events);
    const cancelled = await engine.cancel({ threadId: question.thread_id, mode: 'immediate', actor: alice });
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    const items = await store.listItems(question.thread_id);
    expect(items.find((item) => item.kind === 'answer')).toMatchObject({ data: { questionId: question.id, via: 'cancelled' } });
    expect(items.find((item) => item.kind === 'tool_result')).toMatchObject({ data: { callId: 's1', result: { status: 'cancelled', reason: 'turn_cancelled' } } });
    expect((await engine.threads.state({ actor: alice, threadId: question.thread_id })).question).toBeNull();
  });

  it('keeps a question across a restart and resumes the turn when it is answered there', async () => {
    const path = join(dir.path, 'questions.sqlite');
    const open = async (): Promise<Store> => {
      const store = await openSqliteStore({ path });
      stores.push(store);
      return store;
    };
    const engine = (store: Store, completions: unknown[]): Engine => {
      const made = createEngine({ store, tools: [shipTool], provider: createScriptedProvider({ completions: completions as never }), settings: { retry: { backoffMs: [1] } } });
      engines.push(made);
      return made;
    };
    const first = engine(await open(), [{ toolCalls: [{ id: 's1', name: 'ship_order', arguments: { order: '3' } }] }]);
    const question = questionOf((await collect(first.send({ actor: alice, requestKey: key(), text: 'ship 3' }))).events);
    await first.close();
    const second = engine(await open(), [{ text: 'Shipped from North after the restart.' }]);
    expect((await second.threads.state({ actor: alice, threadId: question.thread_id })).question).toMatchObject({ id: question.id });
    const answered = await collect(second.answer({ actor: alice, questionId: question.id, text: 'north' }));
    expect(answered.answer).toBe('Shipped from North after the restart.');
    expect(answered.events[0]).toMatchObject({ type: 'tool_result', result: { answer: 'North', choice: 'n' } });
  });
});

describe("the router's questions", () => {
  it('answers the router\'s ask through the same mechanism: the answer starts the reply, bound to the question asked', async () => {
    const made = routerKit(createMemoryStore());
    routerKits.push(made);
    const { engine, store } = made;
    const asked = await collect(engine.send({ actor: alice, requestKey: key(), text: 'charge order 4411' }));
    const question = questionOf(asked.events);
    expect(question).toMatchObject({ source: 'router', free_text: true });
    expect((await engine.threads.state({ actor: alice, threadId: question.thread_id })).question).toMatchObject({ id: question.id, source: 'router' });
    const reply = await collect(engine.answer({ actor: alice, questionId: question.id, text: '40.00' }));
    expect(reply.events.find((event) => event.type === 'plan')).toMatchObject({ outcome: 'run', steps: [{ tool: 'charge_card', arguments: { amount: '40.00', order_id: '4411' } }] });
    expect(reply.events.at(-1)).toMatchObject({ type: 'confirm_mutation' });
    const answer = (await store.listItems(question.thread_id)).find((item) => item.kind === 'answer');
    expect(answer).toMatchObject({ turnId: reply.events[0]!.turn_id, data: { questionId: question.id, text: '40.00', via: 'answer' } });
    expect((await collect(engine.answer({ actor: alice, questionId: question.id, text: '50.00' }))).events).toEqual([expect.objectContaining({ type: 'error', code: 'question_unavailable' })]);
  });
});
