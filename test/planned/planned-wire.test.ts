import { afterEach, describe, expect, it } from 'vitest';
import { createDemoApp } from '../../src/demo/index.js';
import { collect, createEngine } from '../../src/engine/index.js';
import { createPlannedRunner, plannedManagers, plannedSettingsSchema } from '../../src/planned/index.js';
import { WIRE_FIXTURES } from '../../src/providers/test-support/wire-fixtures.js';
import { WireServer } from '../../src/providers/test-support/wire-server.js';
import { createMemoryStore } from '../../src/store/index.js';
import { createChatTools } from '../../src/tools/index.js';
import { demoActors } from '../../src/demo/index.js';

const plan = JSON.stringify({ intent: 'read', tasks: [{ id: 't1', goal: 'the total of order 4411', managers: ['Order'] }] });
const answer = JSON.stringify({ answer: 'Order 4411 totals 74.00.', evidence: ['e1'] });

/** Every provider adapter in every role of a planned turn, over its real wire format on loopback. */
describe.each(WIRE_FIXTURES)('a planned turn whose roles speak $name', (fixture) => {
  const servers: WireServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('plans, executes and synthesizes, with task ids, coverage and the usage of every role', async () => {
    const [planner, executor, synthesizer] = await Promise.all([WireServer.start(), WireServer.start(), WireServer.start()]);
    servers.push(planner, executor, synthesizer);
    planner.reply(fixture.text([plan.slice(0, 40), plan.slice(40)], [10, 5]));
    executor.reply(fixture.call('call_q', 'query', { manager: 'Order', filters: { id: 4411 }, fields: ['id', 'total'] }, [20, 6]), fixture.text(['Read order 4411.'], [30, 4]));
    synthesizer.reply(fixture.text([answer], [40, 8]));
    const app = await createDemoApp({ path: ':memory:' });
    const store = createMemoryStore();
    const models = { planner: fixture.create(planner.url), simpleExecutor: fixture.create(executor.url), complexExecutor: fixture.create(executor.url), synthesizer: fixture.create(synthesizer.url), fallback: fixture.create(planner.url) };
    const engine = createEngine({ app, store, tools: createChatTools(app).tools, planned: createPlannedRunner({ models, settings: plannedSettingsSchema.parse({ enabled: true }), managers: plannedManagers(app.managers) }) });
    try {
      const { events, answer: text } = await collect(engine.send({ actor: demoActors.alice, requestKey: 'k1', text: 'what is the total of order 4411, worked out with care' }));
      expect(text).toBe('Order 4411 totals 74.00.');
      expect(events.filter((event) => event.type === 'tool_call')).toEqual([expect.objectContaining({ name: 'query', task_id: 't1' })]);
      expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ task_id: 't1', result: { data: [{ id: '4411', total: '74.00' }] } });
      expect(events.at(-1)).toMatchObject({ type: 'done', usage: { input_tokens: 100, output_tokens: 23 }, coverage: { resolved: 1, total: 1 } });

      // The planner and the synthesizer are offered no tool; the executor only reads.
      for (const server of [planner, synthesizer]) expect(toolsOf(server.requests[0]!.body)).toEqual([]);
      const offered = toolsOf(executor.requests[0]!.body);
      expect(offered).toContain('query');
      expect(offered).not.toContain('mutate');
      expect(JSON.stringify(synthesizer.requests[0]!.body)).toContain('[e1]');
    } finally {
      await engine.close();
      await store.close();
      await app.close();
    }
  });
});

/** The tool names a request offers, in any of the four wire formats. */
function toolsOf(body: unknown): string[] {
  const tools = (body as { tools?: unknown[] }).tools ?? [];
  return tools.flatMap((tool) => {
    const entry = tool as { name?: string; function?: { name: string }; functionDeclarations?: { name: string }[] };
    if (entry.functionDeclarations !== undefined) return entry.functionDeclarations.map((declaration) => declaration.name);
    return [entry.function?.name ?? entry.name ?? ''];
  });
}
