import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoChatHost } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, parseConfig } from '../../src/server/index.js';
import type { ChatStack } from '../../src/server/index.js';
import { Client, openSocket, readSse, startServer } from './harness.js';
import type { Running } from './harness.js';
import { tempDir } from '../support/temp.js';

const alice = { 'x-plumb-user': 'alice' };

/** The demo as `npm start` serves it (router, host tools, no model), on a real server on loopback. */
async function routerServer(settings: Record<string, unknown> = {}): Promise<{ running: Running; stack: ChatStack; app: App }> {
  const app = await createDemoApp({ path: ':memory:' });
  const config = parseConfig({ store: ':memory:', rateLimit: { requests: 1000 }, ...settings });
  const stack = await createChatStack({ app, config, host: demoChatHost(app) });
  const running = await startServer(stack.engine, { rateLimit: { requests: 1000 }, ...settings }, {}, app);
  return { running, stack, app };
}

describe('the thread queue over HTTP, SSE and WebSocket', () => {
  let running: Running;
  let stack: ChatStack;
  let app: App;
  beforeAll(async () => {
    ({ running, stack, app } = await routerServer());
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await stack?.close();
    await app?.close();
  });

  it('queues a message sent over the socket while a confirmation waits, keeps the card answerable, and runs the message after it', async () => {
    const { socket, next, frames } = await openSocket(`${running.wsUrl}/chat/`, { headers: alice });
    socket.send(JSON.stringify({ type: 'message', text: 'charge order 4411 40.00', new_thread: true }));
    const confirm = await next('confirm_mutation');
    socket.send(JSON.stringify({ type: 'message', text: 'what is the balance of order 4411?' }));
    const queued = await next('queued');
    expect(queued).toMatchObject({ position: 1, text: 'what is the balance of order 4411?', thread_id: confirm.thread_id });
    socket.send(JSON.stringify({ type: 'confirm', confirmation_id: confirm.id, confirmed: true }));
    await next('done');
    expect(await next('unqueued')).toMatchObject({ queue_id: queued.queue_id, reason: 'started' });
    await next('done');
    const answers = frames.filter((frame) => frame.type === 'text_chunk').map((frame) => String(frame.content));
    expect(answers.at(-1)).toContain('14.00');
    socket.close();
  });

  it('edits, removes and sends now a queued message with frames, answering the queue after each change', async () => {
    const { socket, next } = await openSocket(`${running.wsUrl}/chat/`, { headers: alice });
    socket.send(JSON.stringify({ type: 'message', text: 'charge order 4412 10.00', new_thread: true }));
    const confirm = await next('confirm_mutation');
    socket.send(JSON.stringify({ type: 'message', text: 'list the parts' }));
    const first = await next('queued');
    socket.send(JSON.stringify({ type: 'message', text: 'which parts are made of steel?' }));
    const second = await next('queued');
    expect(second).toMatchObject({ position: 2 });
    socket.send(JSON.stringify({ type: 'queue_edit', queue_id: first.queue_id, text: 'which parts are made of aluminum?', expected_text: 'list the parts' }));
    expect(await next('queue')).toMatchObject({ thread_id: confirm.thread_id, queue: [{ id: first.queue_id, text: 'which parts are made of aluminum?', position: 1 }, { id: second.queue_id, position: 2 }] });
    socket.send(JSON.stringify({ type: 'queue_remove', queue_id: first.queue_id }));
    // The removed message's stream ends first, then the queue after the change.
    expect(await next('unqueued')).toMatchObject({ queue_id: first.queue_id, reason: 'removed' });
    expect(await next('queue')).toMatchObject({ queue: [{ id: second.queue_id }] });
    socket.send(JSON.stringify({ type: 'queue_remove', queue_id: first.queue_id }));
    expect(await next('error')).toMatchObject({ code: 'queued_message_unavailable' });
    socket.send(JSON.stringify({ type: 'queue_edit', queue_id: 5 }));
    expect(await next('error')).toMatchObject({ code: 'bad_event' });
    // Send now stops the turn waiting on its confirmation and runs the chosen message at once.
    socket.send(JSON.stringify({ type: 'queue_send_now', queue_id: second.queue_id }));
    expect(await next('queue')).toMatchObject({ queue: [{ id: second.queue_id, steer: true, position: 1 }] });
    expect(await next('unqueued')).toMatchObject({ queue_id: second.queue_id, reason: 'started' });
    await next('done');
    const turns = await stack.store.listTurns(confirm.thread_id as string);
    expect(turns.map((turn) => [turn.input, turn.status])).toEqual([['charge order 4412 10.00', 'cancelled'], ['which parts are made of steel?', 'completed']]);
    socket.send(JSON.stringify({ type: 'confirm', confirmation_id: confirm.id, confirmed: true }));
    expect(await next('error')).toMatchObject({ code: 'confirmation_unavailable' });
    socket.close();
  });

  it('answers a plain HTTP message to a busy thread at once with 202 and its place; the queue is read and changed over HTTP; SSE streams a queued message to its end', async () => {
    const client = await new Client(running.url, alice).withCsrf();
    const held = readSse(await client.post('/chat/stream/', { text: 'charge order 4413 5.00', new_thread: true }));
    const heldEvents = await held;
    const confirm = heldEvents.at(-1)!;
    expect(confirm.type).toBe('confirm_mutation');
    const thread = String(confirm.thread_id);
    const plain = await client.post('/chat/', { text: 'how many open tasks does Apollo have?', thread });
    expect(plain.status).toBe(202);
    const body = (await plain.json()) as { events: Record<string, unknown>[]; thread: string };
    expect(body.events).toEqual([expect.objectContaining({ type: 'queued', position: 1 })]);
    const queueId = String(body.events[0]!.queue_id);
    const streamed = client.post('/chat/stream/', { text: 'which parts are made of steel?', thread });
    const listed = (await (await client.fetch(`/chat/threads/${thread}/queue/`)).json()) as { queue: { id: string }[] };
    for (let i = 0; i < 100 && listed.queue.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      listed.queue = ((await (await client.fetch(`/chat/threads/${thread}/queue/`)).json()) as { queue: { id: string }[] }).queue;
    }
    expect(listed.queue.map((message) => message.id)[0]).toBe(queueId);
    const edited = await client.post('/chat/queue/edit/', { queue_id: queueId, text: 'how many tasks does Apollo have?' });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as { queue: { text: string }[] }).queue[0]).toMatchObject({ text: 'how many tasks does Apollo have?' });
    const stale = await client.post('/chat/queue/edit/', { queue_id: queueId, text: 'x', expected_text: 'not what it says' });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('queued_message_unavailable');
    expect((await client.post('/chat/queue/send-now/', { queue_id: 'nope' })).status).toBe(409);
    expect((await new Client(running.url, { 'x-plumb-user': 'bob' }).withCsrf().then((other) => other.post('/chat/queue/remove/', { queue_id: queueId }))).status).toBe(409);
    const confirmed = await client.post('/chat/confirm/', { confirmation_id: confirm.id, confirmed: false });
    expect(confirmed.status).toBe(200);
    const sse = await readSse(await streamed);
    expect(sse[0]).toMatchObject({ type: 'queued', position: 2 });
    expect(sse.map((event) => event.type)).toContain('unqueued');
    expect(sse.at(-1)).toMatchObject({ type: 'done' });
    const history = (await (await client.fetch(`/chat/threads/${thread}`)).json()) as { items: { kind: string; data: { text?: string } }[] };
    expect(history.items.filter((item) => item.kind === 'user_text').map((item) => item.data.text)).toEqual(['charge order 4413 5.00', 'how many tasks does Apollo have?', 'which parts are made of steel?']);
  });
});

describe('the queue past its bound', () => {
  let running: Running;
  let stack: ChatStack;
  let app: App;
  beforeAll(async () => {
    ({ running, stack, app } = await routerServer({ maxQueuedMessages: 0 }));
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await stack?.close();
    await app?.close();
  });

  it('refuses a message while its confirmation waits with confirmation_pending, over the socket', async () => {
    const { socket, next } = await openSocket(`${running.wsUrl}/chat/`, { headers: alice });
    socket.send(JSON.stringify({ type: 'message', text: 'charge order 4411 40.00', new_thread: true }));
    const confirm = await next('confirm_mutation');
    socket.send(JSON.stringify({ type: 'message', text: 'something else' }));
    expect(await next('error')).toMatchObject({ code: 'confirmation_pending' });
    socket.send(JSON.stringify({ type: 'confirm', confirmation_id: confirm.id, confirmed: false }));
    await next('done');
    socket.close();
  });
});

describe('questions over HTTP and WebSocket', () => {
  let running: Running;
  let stack: ChatStack;
  let app: App;
  let model: { running: Running; stack: ChatStack; app: App };
  const dir = tempDir();
  beforeAll(async () => {
    ({ running, stack, app } = await routerServer());
    const script = join(dir.path, 'ask.json');
    writeFileSync(
      script,
      JSON.stringify({
        completions: [
          { when: { toolResultContains: 'answer' }, text: 'Aluminum, then.', repeat: true },
          { toolCalls: [{ id: 'q1', name: 'ask_user', arguments: { question: 'Which material?', choices: ['Steel', 'Aluminum'], allow_free_text: false } }], repeat: true, when: { userTextContains: 'pick' } },
        ],
      }),
    );
    const modelApp = await createDemoApp({ path: ':memory:' });
    const config = parseConfig({ store: ':memory:', provider: `scripted:${script}`, router: 'off', askUserTool: true, rateLimit: { requests: 1000 } });
    const modelStack = await createChatStack({ app: modelApp, config });
    model = { running: await startServer(modelStack.engine, { rateLimit: { requests: 1000 } }, {}, modelApp), stack: modelStack, app: modelApp };
  }, 60_000);
  afterAll(async () => {
    for (const server of [{ running, stack, app }, model]) {
      await server?.running?.close();
      await server?.stack?.close();
      await server?.app?.close();
    }
    dir.remove();
  });

  it("answers the router's question over HTTP: the reply binds to it and runs the plan it completes", async () => {
    const client = await new Client(running.url, alice).withCsrf();
    const asked = (await (await client.post('/chat/', { text: 'charge order 4411', new_thread: true })).json()) as { events: Record<string, unknown>[] };
    const question = asked.events.find((event) => event.type === 'question')!;
    expect(question).toMatchObject({ source: 'router', free_text: true });
    const bad = await client.post('/chat/answer/', { question_id: question.id });
    expect(bad.status).toBe(400);
    const answered = (await (await client.post('/chat/answer/', { question_id: question.id, text: '40.00' })).json()) as { events: Record<string, unknown>[] };
    expect(answered.events.find((event) => event.type === 'plan')).toMatchObject({ outcome: 'run' });
    expect(answered.events.at(-1)).toMatchObject({ type: 'confirm_mutation', input: { amount: '40.00', order_id: '4411' } });
    const twice = (await (await client.post('/chat/answer/', { question_id: question.id, text: '40.00' })).json()) as { events: Record<string, unknown>[] };
    expect(twice.events).toEqual([expect.objectContaining({ type: 'error', code: 'question_unavailable' })]);
  });

  it("pauses a model's turn on its ask_user question and resumes it with the answer from a socket frame", async () => {
    const { socket, next } = await openSocket(`${model.running.wsUrl}/chat/`, { headers: alice });
    socket.send(JSON.stringify({ type: 'message', text: 'pick a material', new_thread: true }));
    const question = await next('question');
    expect(question).toMatchObject({ source: 'model', free_text: false, choices: [{ label: 'Steel' }, { label: 'Aluminum' }] });
    socket.send(JSON.stringify({ type: 'answer', question_id: question.id, text: 'Copper' }));
    expect(await next('error')).toMatchObject({ code: 'bad_answer' });
    socket.send(JSON.stringify({ type: 'answer', question_id: question.id, choice: 'c2' }));
    expect(await next('tool_result')).toMatchObject({ id: 'q1', result: { answer: 'Aluminum', choice: 'c2' } });
    expect(await next('text_chunk')).toMatchObject({ content: 'Aluminum, then.' });
    await next('done');
    socket.send(JSON.stringify({ type: 'answer', question_id: 'who-knows' }));
    expect(await next('error')).toMatchObject({ code: 'bad_event' });
    socket.close();
  });
});
