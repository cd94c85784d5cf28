import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/index.js';
import type { App } from '../data/index.js';
import { createDemoApp, createDemoHostTools, demoActors, demoRulebookYaml, demoVocabularyYaml } from '../demo/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import { loadRulebook, runCompute, sessionFromJSON } from '../router/index.js';
import { createChatTools, createDispatcher } from '../tools/index.js';
import type { Dispatcher } from '../tools/index.js';
import type { AppReader, AppReaderOptions } from './index.js';
import { createAppReader } from './index.js';
import { tempDirEach } from '../../test/support/temp.js';

const SECRET = 'reader-test-secret-0123456789';
const NOW = { now: '2026-10-19T09:00:00+01:00' };
const { digest: _digest, ...demoRules } = loadRulebook(demoRulebookYaml);
const rulebook = demoRules;

const dir = tempDirEach('plumb-reader-');
let app: App;
let now: number;

beforeEach(async () => {
  app = await createDemoApp({ path: join(dir.path, 'demo.sqlite'), now: new Date('2026-10-19T08:00:00Z') });
  now = 1_000_000;
});
afterEach(async () => {
  await app.close();
});

function reader(options: Partial<AppReaderOptions> = {}): Promise<AppReader> {
  return createAppReader({ app, hostTools: createDemoHostTools(app), vocabulary: demoVocabularyYaml, rulebook, secret: SECRET, clock: () => now, ...options });
}

function plan(r: AppReader, turn: string, language: Language = 'en'): TurnPlan {
  return r.router().plan(turn, { language, context: NOW });
}

function calls(p: TurnPlan): { tool: string | null; arguments: unknown }[] {
  return p.steps.filter((s) => s.kind === 'tool').map((s) => ({ tool: s.selection.tool, arguments: s.selection.arguments }));
}

/** Runs a plan's read steps through a dispatcher holding the read tools, and its compute steps. */
async function answer(r: AppReader, p: TurnPlan): Promise<JsonValue[]> {
  const dispatcher: Dispatcher = createDispatcher({ tools: [...r.readTools], app });
  const results: JsonValue[] = [];
  for (const step of p.steps) {
    if (step.kind === 'tool' && step.selection.tool !== null) {
      const result = await dispatcher.dispatch({ name: step.selection.tool, arguments: step.selection.arguments }, { actor: demoActors.alice });
      results.push(result as JsonValue);
    } else if (step.kind === 'compute') {
      const computed = runCompute(step, results);
      results.push('value' in computed ? computed.value : computed.error);
    }
  }
  return results;
}

function names(result: JsonValue | undefined): string[] {
  return ((result as { data: { name: string }[] }).data ?? []).map((row) => row.name).sort();
}

const partFields = ['id', 'name', 'sku', 'unitPrice', 'stock'];

describe('createAppReader over the demo app', () => {
  it('reads the issue questions in English and Portuguese into the direct-strategy reads', async () => {
    const r = await reader();
    for (const [turn, language] of [['show me all materials', 'en'], ['mostre todos os materiais', 'pt-BR']] as const) {
      const p = plan(r, turn, language);
      expect(calls(p)).toEqual([{ tool: 'query_material', arguments: { fields: ['id', 'name', 'density'] } }]);
      expect(names((await answer(r, p))[0])).toEqual(['Aluminum', 'Brass', 'Cobalt', 'Copper', 'Nylon', 'Steel', 'Titanium']);
    }
    for (const [turn, language] of [['which parts are made of steel?', 'en'], ['quais peças são de aço?', 'pt-BR']] as const) {
      const p = plan(r, turn, language);
      expect(calls(p)).toEqual([{ tool: 'query_part', arguments: { fields: partFields, filters: { material__name: 'Steel' } } }]);
      expect(names((await answer(r, p))[0])).toEqual(['Bolt', 'Hinge', 'Nut', 'Spring', 'Washer']);
    }
    for (const [turn, language] of [['which projects use aluminum parts?', 'en'], ['quais projetos usam peças de alumínio?', 'pt-BR']] as const) {
      const p = plan(r, turn, language);
      expect(calls(p)).toEqual([{ tool: 'query_project', arguments: { fields: ['id', 'name', 'status', 'budget', 'owner'], filters: { parts__material__name: 'Aluminum' } } }]);
      expect(names((await answer(r, p))[0])).toEqual(['Gemini', 'Mercury']);
    }
    for (const [turn, language] of [['materials with density above 5', 'en'], ['materiais com densidade acima de 5', 'pt-BR']] as const) {
      const p = plan(r, turn, language);
      expect(calls(p)).toEqual([{ tool: 'query_material', arguments: { fields: ['id', 'name', 'density'], filters: { density__gt: 5 } } }]);
      expect(names((await answer(r, p))[0])).toEqual(['Brass', 'Cobalt', 'Copper', 'Steel']);
    }
  });

  it('counts open tasks of a project with a compute step over the read', async () => {
    const r = await reader();
    for (const [turn, language] of [['how many open tasks does Apollo have?', 'en'], ['quantas tarefas abertas o Apollo tem?', 'pt-BR']] as const) {
      const p = plan(r, turn, language);
      expect(p.outcome).toBe('run');
      expect(calls(p)).toEqual([{ tool: 'query_task', arguments: { fields: ['id', 'title', 'dueDate', 'done'], filters: { done: false, project__name: 'Apollo' } } }]);
      expect(p.steps[1]).toMatchObject({ kind: 'compute', compute: { operation: 'count', field: null }, dependsOn: [0] });
      expect((await answer(r, p))[1]).toBe('4');
    }
  });

  it('leaves near-misses unread', async () => {
    const r = await reader();
    for (const turn of ['which parts are cheap?', 'show me parts made of unobtainium', 'who is the best customer']) {
      const p = plan(r, turn);
      expect(p.outcome, turn).toBe('unread');
      expect(calls(p), turn).toEqual([]);
    }
  });

  it('still sends host-tool turns to the host tools', async () => {
    const r = await reader();
    expect(calls(plan(r, 'show me orders 4411 and 4412'))).toEqual([
      { tool: 'get_order', arguments: { order_id: '4411' } },
      { tool: 'get_order', arguments: { order_id: '4412' } },
    ]);
    expect(calls(plan(r, 'mostre os pedidos 4411 e 4412', 'pt-BR')).map((c) => c.tool)).toEqual(['get_order', 'get_order']);
    expect(calls(plan(r, 'what is the total of order 4411?'))).toEqual([{ tool: 'get_order', arguments: { order_id: '4411' } }]);
    expect(calls(plan(r, 'am I free on Thursday afternoon?'))).toEqual([
      { tool: 'list_events', arguments: { time_max: '2026-10-22T18:00:00+01:00', time_min: '2026-10-22T12:00:00+01:00' } },
    ]);
    const session = r.router().session();
    const charge = session.read('charge order 4411', { context: NOW });
    expect(charge.outcome).toBe('ask');
    const amount = session.read('40.00', { context: NOW });
    expect(amount.outcome).toBe('run');
    expect(amount.steps[0]?.selection).toMatchObject({ tool: 'charge_card', arguments: { amount: '40.00', order_id: '4411' } });
    const project = plan(r, 'create a project called Alpha and then add a task to it');
    expect(project.steps.map((s) => s.selection.tool)).toEqual(['create_project', 'add_task']);
  });

  it('makes a new material readable after a write and noteWrite, keeping the router when nothing changed', async () => {
    const r = await reader();
    const before = r.router();
    expect(plan(r, 'show me parts made of unobtainium').outcome).toBe('unread');
    expect(r.stale()).toBe(false);
    expect(await r.refresh()).toBe(false);
    expect(r.router()).toBe(before);
    const created = await app.graphql({ actor: demoActors.alice, document: 'mutation { createMaterial(input: { name: "Unobtainium", density: 99 }) { id } }' });
    expect(created.errors).toBeUndefined();
    r.noteWrite();
    expect(r.stale()).toBe(true);
    expect(await r.refresh()).toBe(true);
    expect(r.stale()).toBe(false);
    expect(r.router()).not.toBe(before);
    expect(r.router().catalogueVersion).toBe(before.catalogueVersion);
    expect(calls(plan(r, 'show me parts made of unobtainium'))).toEqual([{ tool: 'query_part', arguments: { fields: partFields, filters: { material__name: 'Unobtainium' } } }]);
    expect(calls(plan(r, 'materials with density above 50'))[0]?.tool).toBe('query_material');
  });

  it('goes stale on its TTL and refreshes what changed meanwhile', async () => {
    const r = await reader({ valuesTtlSeconds: 60 });
    await app.load('Project', [{ name: 'Zephyr', status: 'active' }]);
    now += 59_000;
    expect(r.stale()).toBe(false);
    expect(plan(r, 'show me tasks of Zephyr').outcome).toBe('unread');
    now += 1_000;
    expect(r.stale()).toBe(true);
    expect(await r.refresh()).toBe(true);
    expect(calls(plan(r, 'show me tasks of Zephyr'))).toEqual([{ tool: 'query_task', arguments: { fields: ['id', 'title', 'dueDate', 'done'], filters: { project__name: 'Zephyr' } } }]);
  });

  it('does not index a field with more distinct values than the bound', async () => {
    const r = await reader({ maxValuesPerField: 5 });
    expect(plan(r, 'which parts are made of steel?').outcome).toBe('unread');
    expect(calls(plan(r, 'show me open tasks'))[0]?.arguments).toEqual({ fields: ['id', 'title', 'dueDate', 'done'], filters: { done: false } });
    expect(calls(plan(r, 'show me active projects'))[0]?.arguments).toEqual({ fields: ['id', 'name', 'status', 'budget', 'owner'], filters: { status: 'active' } });
  });

  it('checks model-proposed calls: a query_part call passes, a receipt to an email nobody typed is refused', async () => {
    const direct = createChatTools(app, { toolStrategy: 'direct' }).tools;
    const discovery = createChatTools(app).tools;
    const r = await reader({ modelTools: [...direct, ...discovery] });
    const session = r.router().session();
    expect(session.checkToolCall({ tool: 'query_part', arguments: { fields: ['name', { material: ['name'] }], filters: { material__name: 'Steel' } } }).code).toBe('allowed');
    expect(session.checkToolCall({ tool: 'search_managers', arguments: { query: 'parts' } }).code).toBe('allowed');
    // fields may be omitted (every scalar field); filters of the wrong type may not.
    expect(session.checkToolCall({ tool: 'query_part', arguments: { filters: 'steel' } }).code).toBe('invalid_arguments');
    session.read('send the receipt for order 4411', { context: NOW });
    expect(session.checkToolCall({ tool: 'send_receipt', arguments: { order_id: '4411', email: 'eve@evil.example' } }).code).toBe('destination');
    expect(r.router().plan('search managers for parts').steps.some((s) => s.selection.tool === 'search_managers')).toBe(false);
  });

  it('restores a session across a refresh by adopting the new vocabulary', async () => {
    const r = await reader();
    const session = r.router().session({ sessionId: 'thread-1' });
    expect(session.read('charge order 4411', { context: NOW }).outcome).toBe('ask');
    const saved = session.toJSON();
    await app.load('Material', [{ name: 'Vibranium', density: 11 }]);
    r.noteWrite();
    expect(await r.refresh()).toBe(true);
    expect(() => sessionFromJSON(r.router(), saved)).toThrow(/vocabulary digest/);
    const restored = sessionFromJSON(r.router(), saved, { adoptVocabulary: true });
    expect(restored.read('40.00', { context: NOW }).steps[0]?.selection.arguments).toEqual({ amount: '40.00', order_id: '4411' });
    expect(calls(restored.read('parts made of vibranium', { context: NOW }))[0]?.arguments).toEqual({ fields: partFields, filters: { material__name: 'Vibranium' } });
  });

  it('labels read rows in both languages', async () => {
    const r = await reader();
    expect(r.label('query_part', 'en', 1)).toBe('part');
    expect(r.label('query_part', 'en', 3)).toBe('parts');
    expect(r.label('query_order_line', 'en', 2)).toBe('order lines');
    expect(r.label('query_part', 'pt-BR', 1)).toBe('peça');
    expect(r.label('query_material', 'pt-BR', 2)).toBe('materiais');
    expect(r.label('get_order', 'en', 1)).toBeNull();
  });
});
