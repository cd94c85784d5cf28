import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, parseConfig } from '../../src/server/index.js';
import type { ChatStack } from '../../src/server/index.js';
import { Client, openSocket, readSse, startServer } from '../server/harness.js';
import type { Running } from '../server/harness.js';
import { tempDir } from '../support/temp.js';

type Json = Record<string, unknown>;

/** The roles' scripts: a plan of two reads and a difference, one executor per order, an answer citing all three. */
const plan = JSON.stringify({
  intent: 'read',
  tasks: [
    { id: 't1', goal: 'the total of order 4411', managers: ['Order'] },
    { id: 't2', goal: 'the total of order 4412', managers: ['Order'] },
    { id: 'c1', goal: 'the gap', dependsOn: ['t1', 't2'], calculation: { operation: 'difference', operands: [{ task: 't2', field: 'total' }, { task: 't1', field: 'total' }] } },
  ],
});
const scripts = {
  planner: { loop: true, completions: [{ when: { userTextContains: 'gap between' }, text: plan }, { when: { userTextContains: 'made up' }, text: 'no plan, only words' }] },
  executor: {
    loop: true,
    completions: ['4411', '4412'].flatMap((id) => [
      { when: { userTextContains: `order ${id}` }, toolCalls: [{ name: 'query', arguments: { manager: 'Order', filters: { id: Number(id) }, fields: ['id', 'total'] } }] },
      { when: { userTextContains: `order ${id}`, toolName: 'query' }, text: `Read order ${id}.` },
    ]),
  },
  synthesizer: { loop: true, completions: [{ text: JSON.stringify({ answer: 'Order 4412 (121.00) is 47.00 more than order 4411 (74.00).', evidence: ['e1', 'e2', 'c1'] }) }] },
  fallback: { loop: true, completions: [{ text: 'still no plan' }] },
  plain: { loop: true, completions: [{ text: 'The plain tool loop answered.' }] },
};

const question = 'For order 4411 and order 4412, work out the gap between their totals';

describe('planned turns over every transport', () => {
  const dir = tempDir();
  let app: App;
  let stack: ChatStack;
  let running: Running;

  beforeAll(async () => {
    for (const [role, script] of Object.entries(scripts)) writeFileSync(join(dir.path, `${role}.json`), JSON.stringify(script));
    const profile = (role: string) => ({ provider: `scripted:${join(dir.path, `${role}.json`)}`, trustGroup: 'local' });
    const config = parseConfig({
      provider: `scripted:${join(dir.path, 'plain.json')}`,
      store: ':memory:',
      rateLimit: { requests: 1000 },
      providerProfiles: { planner: profile('planner'), executor: profile('executor'), synthesizer: profile('synthesizer'), fallback: profile('fallback') },
      planned: { enabled: true, roles: { planner: 'planner', simpleExecutor: 'executor', complexExecutor: 'executor', synthesizer: 'synthesizer', fallback: 'fallback' } },
    });
    app = await createDemoApp({ path: ':memory:' });
    stack = await createChatStack({ app, config, cwd: dir.path });
    running = await startServer(stack.engine, { rateLimit: { requests: 1000 } }, {}, app);
  });
  afterAll(async () => {
    await running.close();
    await stack.close();
    await app.close();
    dir.remove();
  });

  function expectPlanned(events: readonly Json[]): void {
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('plan');
    const calls = events.filter((event) => event.type === 'tool_call');
    expect(calls.map((event) => event.task_id).sort()).toEqual(['t1', 't2']);
    expect(events.filter((event) => event.type === 'tool_result').every((event) => typeof event.task_id === 'string')).toBe(true);
    const statuses = events.filter((event) => event.type === 'task_status').map((event) => `${String(event.task_id)}:${String(event.status)}`);
    expect(statuses).toEqual(expect.arrayContaining(['t1:pending', 't2:pending', 'c1:pending', 't1:resolved', 't2:resolved', 'c1:resolved']));
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', coverage: { resolved: 3, total: 3, unresolved: [] } });
    expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
    const text = events.filter((event) => event.type === 'text_chunk').map((event) => event.content).join('');
    expect(text).toBe('Order 4412 (121.00) is 47.00 more than order 4411 (74.00).');
  }

  it('over POST /chat/', async () => {
    const client = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const body = (await (await client.post('/chat/', { text: question })).json()) as { events: Json[]; answer: string };
    expectPlanned(body.events);
    expect(body.answer).toContain('47.00');
  });

  it('over SSE', async () => {
    const client = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    expectPlanned(await readSse(await client.post('/chat/stream/', { text: question })));
  });

  it('over WebSocket', async () => {
    const { socket, frames, next } = await openSocket(`${running.wsUrl}/chat/`, { headers: { 'x-plumb-user': 'alice' } });
    socket.send(JSON.stringify({ type: 'message', text: question }));
    await next('done');
    socket.close();
    expectPlanned(frames.filter((frame) => typeof frame.turn_id === 'string'));
  });

  it('ends a turn whose plan never validates with invalid_plan and its stable message, over every transport', async () => {
    const client = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const turn = 'a made up question about the orders, compared every which way';
    const body = (await (await client.post('/chat/', { text: turn })).json()) as { events: Json[] };
    expect(body.events.at(-1)).toMatchObject({ type: 'error', code: 'invalid_plan', message: 'I could not prepare a safe plan for that request.' });
    expect(body.events.some((event) => event.type === 'tool_call')).toBe(false);
    const streamed = await readSse(await client.post('/chat/stream/', { text: turn }));
    expect(streamed.at(-1)).toMatchObject({ type: 'error', code: 'invalid_plan' });
  });

  it('writes each turn\'s diagnostics to the audit log, the planned record in it, none of the question', async () => {
    const records: Json[] = [];
    const audited = await startServer(stack.engine, { rateLimit: { requests: 1000 }, audit: { enabled: true, level: 'messages' } }, { audit: { logger: (record) => void records.push(record) } }, app);
    try {
      const client = await new Client(audited.url, { 'x-plumb-user': 'alice' }).withCsrf();
      await (await client.post('/chat/', { text: question })).json();
      const diagnostics = records.filter((record) => record.event === 'turn_diagnostics');
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({ actor: 'user:alice', status: 'completed', terminal: null, budgets: { reads: { used: 2 } }, planned: { event: 'planned_turn', coverage: { resolved: 3, total: 3 }, terminal: null } });
      expect(JSON.stringify(diagnostics[0])).not.toMatch(/4411|Order|gap between/);
    } finally {
      await audited.close();
    }
  });

  it('never plans a turn the router reads', async () => {
    const client = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const body = (await (await client.post('/chat/', { text: 'show me all materials' })).json()) as { events: Json[]; answer: string };
    expect(body.events[0]).toMatchObject({ type: 'plan', outcome: 'run' });
    expect(body.events.some((event) => event.type === 'task_status')).toBe(false);
    expect(body.answer).toContain('Steel');
  });
});

describe('planned settings at start', () => {
  it('refuses roles in two trust groups, naming the roles and groups', async () => {
    const app = await createDemoApp({ path: ':memory:' });
    try {
      const config = parseConfig({
        provider: 'ollama',
        providerProfiles: { local: { provider: 'ollama', trustGroup: 'local' }, cloud: { provider: 'openai', providerConfig: { apiKey: 'sk-x' }, trustGroup: 'cloud' } },
        planned: { enabled: true, roles: { planner: 'cloud', simpleExecutor: 'local', complexExecutor: 'local', synthesizer: 'local', fallback: 'local' } },
      });
      await expect(createChatStack({ app, config })).rejects.toMatchObject({ code: 'trust_group_mismatch', message: expect.stringMatching(/planner in 'cloud'; simpleExecutor, complexExecutor, synthesizer, fallback in 'local'/) });
    } finally {
      await app.close();
    }
  });

  it('refuses a role naming no profile, and planned without a plain provider', async () => {
    const app = await createDemoApp({ path: ':memory:' });
    try {
      const unknown = parseConfig({ provider: 'ollama', planned: { enabled: true, roles: { planner: 'big' } } });
      await expect(createChatStack({ app, config: unknown })).rejects.toMatchObject({ code: 'unknown_profile', message: expect.stringContaining("planner → 'big'") });
      const alone = parseConfig({ providerProfiles: { local: { provider: 'ollama' } }, planned: { enabled: true, roles: { planner: 'local', simpleExecutor: 'local', complexExecutor: 'local', synthesizer: 'local', fallback: 'local' } } });
      await expect(createChatStack({ app, config: alone })).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringContaining('planned.enabled needs provider') });
    } finally {
      await app.close();
    }
  });
});

describe('plumb check with planned reads', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('names an unknown profile, a trust group mismatch and a profile whose provider cannot be built, each with its code', async () => {
    const { runCli } = await import('../../src/cli/index.js');
    const check = async (settings: object): Promise<{ code: number; problems: { code: string; message: string }[] }> => {
      const file = join(dir.path, `check-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(settings));
      const out: string[] = [];
      const code = await runCli(['check', '--config', file, '--demo', '--db', ':memory:', '--json'], { stdout: (text) => void out.push(text), stderr: () => undefined });
      return { code, problems: (JSON.parse(out.join('')) as { problems: { code: string; message: string }[] }).problems };
    };
    const unknown = await check({ provider: 'ollama', planned: { enabled: true, roles: { synthesizer: 'large' } } });
    expect(unknown.code).toBe(1);
    expect(unknown.problems).toEqual([expect.objectContaining({ code: 'unknown_profile', message: expect.stringContaining("synthesizer → 'large'") })]);
    const split = await check({ provider: 'ollama', providerProfiles: { cloud: { provider: 'openai', providerConfig: { apiKey: 'sk-x' }, trustGroup: 'cloud' } }, planned: { enabled: true, roles: { planner: 'cloud' } } });
    expect(split.problems.map((problem) => problem.code)).toEqual(['trust_group_mismatch']);
    const broken = await check({ provider: 'ollama', providerProfiles: { odd: { provider: 'no-such-provider' } }, planned: { enabled: true, roles: { planner: 'odd', simpleExecutor: 'odd', complexExecutor: 'odd', synthesizer: 'odd', fallback: 'odd' } } });
    expect(broken.problems).toEqual([expect.objectContaining({ code: 'provider_load_failed', message: expect.stringMatching(/^providerProfiles\.odd: Unknown provider 'no-such-provider'/) })]);
    const fine = await check({ provider: 'ollama', planned: { enabled: true } });
    expect(fine).toMatchObject({ code: 0, problems: [] });
  });
});
