import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSocket } from './server/harness.js';
import { startServe } from './support/serve-process.js';
import type { ServeProcess } from './support/serve-process.js';
import { tempDir } from './support/temp.js';

interface HttpTurn {
  readonly answer: string;
  readonly thread?: string;
  readonly events: readonly { type: string; [key: string]: unknown }[];
}

async function post(base: string, body: Record<string, unknown>, user?: string): Promise<Response> {
  // The token is bound to the session its response starts: both cookies go back.
  const issued = await fetch(`${base}/chat/csrf/`);
  const { token } = (await issued.json()) as { token: string };
  const cookie = issued.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  return fetch(`${base}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie, ...(user === undefined ? {} : { 'x-plumb-user': user }) },
    body: JSON.stringify(body),
  });
}

async function chat(base: string, text: string, user?: string, thread?: string, language?: string): Promise<HttpTurn> {
  const response = await post(base, { text, ...(thread === undefined ? {} : { thread }), ...(language === undefined ? {} : { language }) }, user);
  expect(response.status).toBe(200);
  return (await response.json()) as HttpTurn;
}

describe('router-first turns served by two plumb serve processes on one database (no model)', () => {
  const dir = tempDir();
  let first: ServeProcess;
  let second: ServeProcess;
  beforeAll(async () => {
    const config = join(dir.path, 'plumb.config.json');
    writeFileSync(config, JSON.stringify({ store: join(dir.path, 'chat.sqlite') }));
    const args = ['--demo', '--db', join(dir.path, 'demo.sqlite'), '--port', '0', '--config', config];
    // The embedded default, as `npm start` runs it: ready once it printed the three questions.
    first = await startServe(args, (output) => output.includes('3. '));
    second = await startServe(args, (output) => output.includes('3. '));
  }, 60_000);
  afterAll(() => {
    for (const served of [first, second]) if (served !== undefined && served.child.exitCode === null) served.child.kill('SIGKILL');
    dir.remove();
  });

  it('prints the console URL and the three questions to try', () => {
    expect(first.output()).toContain(`Open ${first.url}/console/ and try (no model configured: the router reads and answers on its own):`);
    expect(first.output()).toContain('1. which parts are made of steel?');
    expect(first.output()).toContain('2. how many open tasks does Apollo have?');
    expect(first.output()).toContain('3. charge order 4411\n');
    expect(first.output()).toContain('(sign in as alice or bob at the console');
  });

  it('answers a data question over HTTP from the rows, with the plan first', async () => {
    const turn = await chat(first.url, 'which parts are made of steel?');
    expect(turn.events.map((event) => event.type)).toEqual(['plan', 'tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(turn.events[0]).toMatchObject({ outcome: 'run', language: 'en' });
    expect(turn.events[1]).toMatchObject({ name: 'query_part', args: { filters: { material__name: 'Steel' } } });
    expect(turn.answer).toContain('5 parts where material is Steel:');
  });

  it.each([
    ['show me orders 4411 and 4412', 'en', 'bob', ['get_order', 'get_order'], ['Order 4411', 'total: 74.00', 'total: 121.00']],
    ['mostre os pedidos 4411 e 4412', 'pt-BR', 'bob', ['get_order', 'get_order'], ['Pedido 4411', 'total: 74,00']],
    ['what is the total of order 4411?', 'en', 'bob', ['get_order'], ['Order 4411 — total: 74.00']],
    ['quais peças são de aço?', 'pt-BR', undefined, ['query_part'], ['5 peças com material Steel']],
    ['how many open tasks does Apollo have?', 'en', undefined, ['query_task'], ['4 tasks (count of tasks where not done, project is Apollo).']],
  ] as const)('reads "%s" (%s) over HTTP', async (text, language, user, tools, facts) => {
    const turn = await chat(first.url, text, user, undefined, language);
    expect(turn.events[0]).toMatchObject({ type: 'plan', outcome: 'run', language });
    expect(turn.events.filter((event) => event.type === 'tool_call').map((event) => event.name)).toEqual(tools);
    for (const fact of facts) expect(turn.answer).toContain(fact);
  });

  it('never guesses the language: a Portuguese turn sent without one is read as English, and left unread', async () => {
    const turn = await chat(first.url, 'quais peças são de aço?');
    expect(turn.events[0]).toMatchObject({ type: 'plan', outcome: 'unread', language: 'en' });
  });

  it('refuses a language it has no grammar for with a 400 that names the choices', async () => {
    const response = await post(first.url, { text: 'mostra-me as peças', language: 'pt-PT' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'bad_request', message: `'language' must be one of 'en', 'pt-BR' (the language the router reads this turn in).` } });
  });

  it('continues the latest thread by default and starts a new one on new_thread', async () => {
    const first = await chat(second.url, 'show me all materials', 'bob');
    const again = await chat(second.url, 'materials with density above 5', 'bob');
    expect(again.thread).toBe(first.thread);
    const fresh = await (await post(second.url, { text: 'show me all materials', new_thread: true }, 'bob')).json() as HttpTurn;
    expect(fresh.thread).not.toBe(first.thread);
    const refused = await post(second.url, { text: 'show me all materials', new_thread: 'yes' }, 'bob');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: { code: 'bad_request', message: "'new_thread' must be true or false." } });
  });

  it('never guesses: a question it cannot read is refused with what it can do', async () => {
    const turn = await chat(first.url, 'who is your best customer?', 'alice');
    expect(turn.events[0]).toMatchObject({ type: 'plan', outcome: 'unread' });
    expect(turn.events.some((event) => event.type === 'tool_call')).toBe(false);
    expect(turn.answer).not.toBe('');
  });

  it('asks for the amount on one process and runs the charge, confirmed over WebSocket, on the other', async () => {
    const asked = await chat(first.url, 'charge order 4411', 'alice');
    expect(asked.answer).toBe('To charge card, which amount?');
    expect(asked.thread).toBeDefined();
    const socket = await openSocket(`${second.url.replace('http', 'ws')}/chat/`, { headers: { 'x-plumb-user': 'alice' } });
    try {
      socket.socket.send(JSON.stringify({ type: 'message', text: '40.00', thread: asked.thread }));
      const plan = await socket.next('plan');
      expect(plan).toMatchObject({ outcome: 'run', thread_id: asked.thread });
      const held = await socket.next('confirm_mutation');
      expect(held).toMatchObject({ mutation: 'charge_card', input: { order_id: '4411', amount: '40.00' } });
      socket.socket.send(JSON.stringify({ type: 'confirm', confirmation_id: held.id, confirmed: true }));
      const result = await socket.next('tool_result');
      expect(result).toMatchObject({ name: 'charge_card', result: { status: 'charged', balance: '14.00' } });
      await socket.next('done');
      const answer = socket.frames.filter((frame) => frame.type === 'text_chunk').map((frame) => frame.content).join('');
      expect(answer).toContain('Charged 40.00 to order 4411.');
    } finally {
      socket.socket.close();
    }
    // The first process sees the charge the second made: same journal, same session.
    const { events } = await chat(first.url, 'what is the total of order 4411?', 'alice', asked.thread);
    const order = events.find((event) => event.type === 'tool_result')?.result as { paid: string; balance: string };
    expect(order).toMatchObject({ paid: '60.00', balance: '14.00' });
  });
});
