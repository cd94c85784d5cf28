import { readUIMessageStream } from 'ai';
import type { UIMessage, UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlumbClient, isPlumbClientError, toUiMessageChunks } from '../../src/client/index.js';
import type { PlumbEvent, PlumbUiChunk } from '../../src/client/index.js';
import { startServe } from '../support/serve-process.js';
import type { ServeProcess } from '../support/serve-process.js';
import { tempDir } from '../support/temp.js';
import { join } from 'node:path';

// Every chunk the adapter writes is one of the AI SDK's own (a compile-time check).
const asSdkChunk = (chunk: PlumbUiChunk): UIMessageChunk => chunk;

async function collectEvents<Event>(events: AsyncIterable<Event>): Promise<Event[]> {
  const all: Event[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('plumb-agent/client against plumb serve', () => {
  const dir = tempDir('plumb-client-');
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe(['--demo', '--database', join(dir.path, 'demo.sqlite'), '--port', '0']);
  }, 60_000);
  afterAll(() => {
    serve?.child.kill('SIGTERM');
    dir.remove();
  });

  it('streams a turn over SSE, and resume replays the same turn by its request key', async () => {
    const client = createPlumbClient({ baseUrl: serve.url });
    const turn = client.stream({ text: 'which parts are made of steel?', newThread: true });
    const events = await collectEvents(turn);
    expect(events[0]?.type).toBe('plan');
    expect(events.at(-1)?.type).toBe('done');
    const replay = await collectEvents(client.resume({ text: 'which parts are made of steel?', requestKey: turn.requestKey }));
    expect(replay.map((event) => event.type)).toEqual(events.map((event) => event.type));
    expect(replay.at(-1)!.turn_id).toBe(events.at(-1)!.turn_id);
  });

  it('sends a whole turn, answers the router’s question in the same thread, and confirms a held write', async () => {
    const client = createPlumbClient({ baseUrl: serve.url, headers: { 'x-plumb-user': 'alice' } });
    const asked = await collectEvents(client.stream({ text: 'charge order 4411', newThread: true }));
    const plan = asked.find((event) => event.type === 'plan');
    expect(plan).toMatchObject({ outcome: 'ask' });
    const thread = asked.at(-1)!.thread_id;
    const answered = await collectEvents(client.answer(thread, '40.00'));
    const held = answered.find((event) => event.type === 'confirm_mutation');
    expect(held).toMatchObject({ mutation: 'charge_card', thread_id: thread });
    const resumed = await client.confirm(held!.type === 'confirm_mutation' ? held!.id : '', true);
    expect(resumed.events.map((event) => event.type)).toContain('tool_result');
    expect(resumed.events.at(-1)?.type).toBe('done');
    expect((await client.threads()).map((item) => item.id)).toContain(thread);
    expect((await client.thread(thread)).items.length).toBeGreaterThan(0);
    const whole = await client.send({ text: 'what is the total of order 4411?', thread });
    expect(whole.thread).toBe(thread);
    expect(whole.answer).toMatch(/4411/);
  });

  it('sends the page context with a turn: journaled with the message, supplemental context only noted, bad context refused with its code', async () => {
    const client = createPlumbClient({ baseUrl: serve.url, headers: { 'x-plumb-user': 'alice' } });
    const context = [{ kind: 'order', title: 'Order on screen', text: 'Order 4411, paid', value: '4411' }];
    const references = [{ kind: 'invoice', label: 'Invoice 9', text: 'Total 40.00', truncated: true }];
    const sent = await client.send({ text: 'what is the total of order 4411?', newThread: true, context, references, supplementalContext: 'Refunds tab open.', timeZone: 'Europe/Lisbon' });
    const items = (await client.thread(sent.thread!)).items;
    expect(items.find((item) => item.kind === 'user_text')?.data).toEqual({ text: 'what is the total of order 4411?', context: { references, items: context }, supplementalContext: true });
    expect(JSON.stringify(items)).not.toContain('Refunds tab open.');
    const refused = await client.send({ text: 'hi', context: [{ kind: 'order', title: '', text: 'x' }] }).catch((error: unknown) => error);
    expect(isPlumbClientError(refused) && [refused.code, refused.status]).toEqual(['invalid_context', 400]);
    const zone = await collectEvents(client.stream({ text: 'hi', timeZone: 'Nowhere/Else' })).catch((error: unknown) => error);
    expect(isPlumbClientError(zone) && zone.code).toBe('invalid_time_zone');
  });

  it('answers a refused request with the server’s code, and cancel and subscribe of a thread that is not yours with not_found', async () => {
    const client = createPlumbClient({ baseUrl: serve.url, headers: { 'x-plumb-user': 'mallory' } });
    const refused = await client.send({ text: 'hi' }).catch((error: unknown) => error);
    expect(isPlumbClientError(refused) && [refused.code, refused.status]).toEqual(['unauthenticated', 401]);
    await expect(createPlumbClient({ baseUrl: serve.url }).cancel('T1')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(collectEvents(createPlumbClient({ baseUrl: serve.url }).subscribe('T1') as AsyncIterable<PlumbEvent>)).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('uses the routes a host plugs in for cancel and subscribe, through the client’s own request', async () => {
    const seen: string[] = [];
    const client = createPlumbClient({
      baseUrl: serve.url,
      routes: {
        cancel: async (context, request) => {
          const response = await context.request(`threads/${request.thread}`, { method: 'GET' });
          seen.push(`cancel ${request.thread} ${request.mode} → ${response.status}`);
        },
        subscribe: async function* (context, request) {
          const response = await context.request(`threads/${request.thread}`, { method: 'GET' });
          seen.push(`subscribe ${request.thread} → ${response.status}`);
          yield { type: 'done', usage: { input_tokens: 0, output_tokens: 0 }, thread_id: request.thread, turn_id: 'U1', run_id: 'U1.r1' };
        },
      },
    });
    await client.cancel('T9', { mode: 'graceful' });
    expect(await collectEvents(client.subscribe('T9'))).toHaveLength(1);
    expect(seen).toEqual(['cancel T9 graceful → 404', 'subscribe T9 → 404']);
  });
});

describe('the UI message stream adapter', () => {
  const base = { thread_id: 'T1', turn_id: 'U1', run_id: 'U1.r1' };

  async function message(events: PlumbEvent[]): Promise<UIMessage> {
    const chunks: UIMessageChunk[] = [];
    for await (const chunk of toUiMessageChunks(events)) chunks.push(asSdkChunk(chunk));
    const stream = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    let last: UIMessage | undefined;
    for await (const value of readUIMessageStream({ stream })) last = value;
    return last!;
  }

  it('makes a turn one assistant message the SDK reads: tool rows, text and Plumb metadata', async () => {
    const result = await message([
      { ...base, type: 'tool_call', id: 'c1', name: 'query', args: { manager: 'Part' } },
      { ...base, type: 'tool_result', id: 'c1', name: 'query', result: { data: [{ name: 'Bolt' }] } },
      { ...base, type: 'tool_call', id: 'c2', name: 'query', args: { manager: 'Nope' } },
      { ...base, type: 'tool_result', id: 'c2', name: 'query', result: { error: { code: 'not_exposed', message: 'No such manager.' } } },
      { ...base, type: 'text_chunk', content: 'Bolt ' },
      { ...base, type: 'text_chunk', content: 'is steel.' },
      { ...base, type: 'done', usage: { input_tokens: 3, output_tokens: 4 } },
    ]);
    const parts = result.parts.filter((part) => part.type !== 'step-start');
    expect(parts).toEqual([
      expect.objectContaining({ type: 'dynamic-tool', toolName: 'query', toolCallId: 'c1', state: 'output-available', output: { data: [{ name: 'Bolt' }] } }),
      expect.objectContaining({ type: 'dynamic-tool', toolCallId: 'c2', state: 'output-error', errorText: 'not_exposed: No such manager.' }),
      expect.objectContaining({ type: 'text', text: 'Bolt is steel.' }),
    ]);
    expect(result.metadata).toEqual({ plumb: { threadId: 'T1', turnId: 'U1', usage: { inputTokens: 3, outputTokens: 4 } } });
  });

  it('puts an approval request on the held write’s tool row, with the sentence beside it', async () => {
    const result = await message([
      { ...base, type: 'tool_call', id: 'c1', name: 'charge_card', args: { order_id: '4411', amount: '40.00' } },
      { ...base, type: 'confirm_mutation', id: 'K1', mutation: 'charge_card', input: { order_id: '4411', amount: '40.00' }, expires_at: '2026-12-01T00:00:00Z', message: 'Charge card with amount 40.00 and order id 4411?' },
    ]);
    expect(result.parts).toContainEqual(expect.objectContaining({ type: 'dynamic-tool', toolCallId: 'c1', state: 'approval-requested', approval: { id: 'K1' } }));
    expect(result.parts).toContainEqual(expect.objectContaining({ type: 'data-plumb-confirmation', id: 'K1', data: expect.objectContaining({ message: 'Charge card with amount 40.00 and order id 4411?' }) }));
  });
});
