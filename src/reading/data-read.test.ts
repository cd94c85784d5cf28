import { describe, expect, it } from 'vitest';
import { demoCatalogue, demoRulebookYaml, demoVocabularyYaml } from '../demo/router/index.js';
import type { CatalogueEntry, Language, Router, RulebookInput, TurnPlan } from '../router/index.js';
import { createRouter, loadCatalogue, loadRulebook, loadVocabulary, mergeVocabularies, runCompute, sessionFromJSON } from '../router/index.js';
import { generatedDataWords, readEntries } from './test-support/read-entries.js';
import { SECRET } from '../../test/support/demo-router.js';
import { createDataReader } from './index.js';

const dataReader = createDataReader();

const NOW = { now: '2026-10-19T09:00:00+01:00' };

function readingRouter(rulebook: Partial<RulebookInput> = {}, extraValues: Record<string, Record<string, string[]>> = {}): Router {
  const { digest: _digest, ...base } = loadRulebook(demoRulebookYaml);
  const generated = { languages: { en: { data: { ...generatedDataWords, values: { ...generatedDataWords.values, ...extraValues } } }, 'pt-BR': { data: { values: { ...generatedDataWords.values, ...extraValues } } } } };
  return createRouter({
    dataReader,
    catalogue: [...demoCatalogue, ...readEntries],
    rulebook: { ...base, compute: true, ...rulebook },
    vocabulary: mergeVocabularies(generated, demoVocabularyYaml),
    secret: SECRET,
  });
}

function read(turn: string, language: Language = 'en', router = readingRouter()): TurnPlan {
  return router.plan(turn, { language, context: NOW });
}

function calls(plan: TurnPlan): { tool: string | null; arguments: unknown }[] {
  return plan.steps.filter((s) => s.kind === 'tool').map((s) => ({ tool: s.selection.tool, arguments: s.selection.arguments }));
}

const partFields = ['id', 'name', 'sku', 'unitPrice', 'stock'];

describe('the data-read pass', () => {
  it('reads a whole list with no filters', () => {
    for (const [turn, language] of [['show me all materials', 'en'], ['mostre todos os materiais', 'pt-BR']] as const) {
      const plan = read(turn, language);
      expect(plan.outcome).toBe('run');
      expect(calls(plan)).toEqual([{ tool: 'query_material', arguments: { fields: ['id', 'name', 'density'] } }]);
      expect(plan.steps[0]?.decidedBy).toBe('D1 read Material');
    }
  });

  it('filters through a relation by a value of the related manager', () => {
    for (const [turn, language] of [['which parts are made of steel?', 'en'], ['quais peças são de aço?', 'pt-BR']] as const) {
      const plan = read(turn, language);
      expect(plan.outcome).toBe('run');
      expect(calls(plan)).toEqual([{ tool: 'query_part', arguments: { fields: partFields, filters: { material__name: 'Steel' } } }]);
      expect(plan.steps[0]?.decidedBy).toBe('D1 read Part by material__name');
    }
  });

  it('walks two relations when a later-named manager lies on the path', () => {
    const plan = read('which projects use aluminium parts?');
    expect(calls(plan)).toEqual([{ tool: 'query_project', arguments: { fields: ['id', 'name', 'status', 'budget', 'owner'], filters: { parts__material__name: 'Aluminum' } } }]);
  });

  it('reads a comparator with its number, in both languages', () => {
    for (const [turn, language] of [['materials with density above 5', 'en'], ['materiais com densidade acima de 5', 'pt-BR'], ['materiais com densidade maior que 5,5', 'pt-BR']] as const) {
      const plan = read(turn, language);
      expect(plan.outcome).toBe('run');
      expect(calls(plan)[0]?.arguments).toEqual({ fields: ['id', 'name', 'density'], filters: { density__gt: turn.endsWith('5,5') ? 5.5 : 5 } });
    }
    expect(calls(read('parts with at least 1000 in stock'))[0]?.arguments).toEqual({ fields: partFields, filters: { stock__gte: 1000 } });
    expect(calls(read('materials with density between 2 and 5'))[0]?.arguments).toEqual({ fields: ['id', 'name', 'density'], filters: { density__gte: 2, density__lte: 5 } });
    expect(calls(read('parts with stock above 1,000'))[0]?.arguments).toEqual({ fields: partFields, filters: { stock__gt: 1000 } });
    expect(calls(read('peças com estoque acima de 1.000', 'pt-BR'))[0]?.arguments).toEqual({ fields: partFields, filters: { stock__gt: 1000 } });
    expect(read('materiais com densidade acima de 5.5', 'pt-BR').outcome).toBe('unread');
    expect(calls(read('parts with stock at most 100'))[0]?.arguments).toEqual({ fields: partFields, filters: { stock__lte: 100 } });
  });

  it('counts with a compute step over the read', () => {
    for (const [turn, language] of [['how many open tasks does Apollo have?', 'en'], ['quantas tarefas abertas o Apollo tem?', 'pt-BR']] as const) {
      const plan = read(turn, language);
      expect(plan.outcome).toBe('run');
      expect(calls(plan)).toEqual([{ tool: 'query_task', arguments: { fields: ['id', 'title', 'dueDate', 'done'], filters: { done: false, project__name: 'Apollo' } } }]);
      expect(plan.steps[1]).toMatchObject({ kind: 'compute', dependsOn: [0], compute: { operation: 'count', field: null }, decidedBy: 'C1 count' });
      expect(plan.steps).toHaveLength(2);
      const step = plan.steps[1];
      if (step === undefined) throw new Error('no compute step');
      expect(runCompute(step, [{ data: [{ id: '2' }], total_count: 4, has_more: true }])).toEqual({ value: '4' });
    }
  });

  it('reads a status word through a relation only when its manager is named', () => {
    expect(calls(read('parts of active projects'))[0]?.arguments).toEqual({ fields: partFields, filters: { projects__status: 'active' } });
    expect(read('open the parts list').outcome).toBe('unread');
    expect(read('show me active parts').outcome).toBe('unread');
  });

  it('reads a field named only to be shown after "their" or about rows a name picks', () => {
    expect(calls(read('show me the materials with their density'))[0]?.arguments).toEqual({ fields: ['id', 'name', 'density'] });
    // One attribute of rows a name picks: the identity, the name and the field asked for.
    const budget = read('what is the budget of the Apollo project?');
    expect(calls(budget)[0]?.arguments).toEqual({ fields: ['id', 'name', 'budget'], filters: { name: 'Apollo' } });
    expect(budget.steps[0]?.decidedBy).toBe('D1 read Project by name asking budget');
    expect(calls(read('what is the density of steel?'))[0]).toEqual({ tool: 'query_material', arguments: { fields: ['id', 'name', 'density'], filters: { name: 'Steel' } } });
    expect(read('parts with stock').outcome).toBe('unread');
    expect(read('projects with a budget').outcome).toBe('unread');
  });

  it('joins names of the subject itself said with "and" into __in, and leaves a lone singular to the host tools', () => {
    expect(calls(read('show me the projects Apollo and Mercury'))[0]?.arguments).toEqual({ fields: ['id', 'name', 'status', 'budget', 'owner'], filters: { name__in: ['Apollo', 'Mercury'] } });
    expect(read('show me order').steps[0]?.selection.tool).toBe('get_order');
    expect(read('show me the material').outcome).toBe('unread');
  });

  it("reads an English possessive as the word it marks", () => {
    expect(calls(read("show me Apollo's open tasks"))[0]?.arguments).toEqual({ fields: ['id', 'title', 'dueDate', 'done'], filters: { done: false, project__name: 'Apollo' } });
  });

  it('declines a count where the host runs no calculations', () => {
    const plan = read('how many tasks does Apollo have?', 'en', readingRouter({ compute: false }));
    expect(plan.outcome).toBe('declined');
    expect(plan.declinedBecause).toBe('compute off: how many is a calculation, and this host runs none');
  });

  it('joins values of one filter said with "or" into __in', () => {
    const plan = read('parts made of steel or aluminum');
    expect(calls(plan)[0]?.arguments).toEqual({ fields: partFields, filters: { material__name__in: ['Steel', 'Aluminum'] } });
    expect(calls(read('parts made of steel and aluminum'))).toEqual([]);
  });

  it('leaves near-misses to the generic planner, which leaves them unread', () => {
    for (const turn of ['which parts are cheap?', 'show me parts made of unobtainium', 'who is the best customer', 'parts not made of steel', 'show me steel', 'how many tasks does each project have', 'show me 5 parts']) {
      const plan = read(turn);
      expect(plan.outcome, turn).toBe('unread');
      expect(plan.steps.some((s) => s.selection.tool?.startsWith('query_') === true), turn).toBe(false);
    }
  });

  it('leaves host-tool turns to the host tools', () => {
    expect(calls(read('show me order 4411'))).toEqual([{ tool: 'get_order', arguments: { order_id: '4411' } }]);
    expect(calls(read('show me orders 4411 and 4412')).map((c) => c.tool)).toEqual(['get_order', 'get_order']);
    expect(calls(read('mostre os pedidos 4411 e 4412', 'pt-BR')).map((c) => c.tool)).toEqual(['get_order', 'get_order']);
    expect(calls(read('am I free on Thursday afternoon?')).map((c) => c.tool)).toEqual(['list_events']);
    expect(read('charge order 4411').steps[0]?.selection.tool).toBe('charge_card');
    expect(read('create a project called Alpha and then add a task to it').steps.map((s) => s.selection.tool)).toEqual(['create_project', 'add_task']);
  });

  it('yields nothing on a tie between two equally short paths', () => {
    const tie: CatalogueEntry = {
      name: 'query_thing', description: 'Read Thing rows.', effect: 'read', parameters: { type: 'object', properties: { fields: { type: 'array' }, filters: { type: 'object' } }, required: ['fields'] },
      reads: { manager: 'Thing', fields: ['id'], lookups: [
        { key: 'maker__name', manager: 'Material', field: 'name', type: 'string', through: ['maker'] },
        { key: 'base__name', manager: 'Material', field: 'name', type: 'string', through: ['base'] },
      ] },
    };
    const router = createRouter({ dataReader, catalogue: [tie], vocabulary: { languages: { en: { data: { managers: { Thing: ['things'] }, values: { 'Material.name': { Steel: ['steel'] } } } } } }, secret: SECRET });
    expect(router.plan('things made of steel').outcome).toBe('unread');
    expect(router.plan('show all things').steps[0]?.selection.tool).toBe('query_thing');
  });

  it('never lets generic selection choose a read or check-only entry', () => {
    const checkOnly: CatalogueEntry = { name: 'search_parts', description: 'Search parts.', effect: 'read', checkOnly: true, parameters: { type: 'object', properties: { q: { type: 'string' } } } };
    const router = createRouter({ dataReader, catalogue: [...demoCatalogue, ...readEntries, checkOnly], vocabulary: demoVocabularyYaml, secret: SECRET });
    expect(router.plan('search parts').outcome).toBe('unread');
    expect(router.plan('query material please').outcome).toBe('unread');
    const check = router.session().checkToolCall({ tool: 'search_parts', arguments: { q: 'bolt' } });
    expect(check.code).toBe('allowed');
    expect(router.session().checkToolCall({ tool: 'query_part', arguments: { fields: ['id'], filters: { material__name: 'Steel' } } }).code).toBe('allowed');
  });
});

describe('data questions in a conversation', () => {
  it('reads a data question asked while a question is open as a new turn, not as its answer', () => {
    const session = readingRouter().session();
    expect(session.read('charge order 4411', { context: NOW }).outcome).toBe('ask');
    const plan = session.read('materials with density above 5', { context: NOW });
    expect(calls(plan)).toEqual([{ tool: 'query_material', arguments: { fields: ['id', 'name', 'density'], filters: { density__gt: 5 } } }]);
    expect(session.read('show me order 4411', { context: NOW }).steps[0]?.selection.tool).toBe('get_order');
  });
});

describe('turns the router leaves to others', () => {
  it('leaves a question about reasons unread', () => {
    expect(read('why was order 4415 cancelled?').steps[0]?.decidedBy).toBe('U7 reason');
    expect(read('por que o pedido 4415 foi cancelado?', 'pt-BR').outcome).toBe('unread');
  });

  it('leaves a ranking unread (no read here orders or picks rows by rank), but not a bound', () => {
    expect(read('who is the customer with the most orders?').steps[0]?.decidedBy).toBe('U8 ranking');
    expect(read('show me the top 3 orders').outcome).toBe('unread');
    expect(read('qual é o cliente com mais pedidos?', 'pt-BR').steps[0]?.decidedBy).toBe('U8 ranking');
    expect(read('quais são os melhores materiais?', 'pt-BR').outcome).toBe('unread');
    expect(read('materials with density at most 5').outcome).toBe('run');
    expect(read('materiais com densidade de mais de 5', 'pt-BR').steps[0]?.decidedBy).not.toBe('U8 ranking');
  });

  it('takes a quoted reply as the text asked for, whatever words it holds', () => {
    const session = readingRouter().session();
    expect(session.read('add a task to project 1', { context: NOW }).outcome).toBe('ask');
    const reply = session.read('"Order bolts"', { context: NOW });
    expect(reply.steps[0]?.selection).toMatchObject({ tool: 'add_task', arguments: { project_id: '1', title: 'Order bolts' } });
  });
});

describe('catalogue and vocabulary checks for data reads', () => {
  const base = readEntries[0] as CatalogueEntry;
  it.each([
    [{ ...base, effect: 'write' as const }, /has effect read/],
    [{ ...base, checkOnly: true }, /both a data read and check-only/],
    [{ ...base, reads: { manager: 'Material', fields: [], lookups: [] } }, /reads\.fields/],
    [{ ...base, reads: { manager: 'Material', fields: ['id'], lookups: [{ key: 'parts__name', manager: 'Part', field: 'name', type: 'string' as const, through: ['part'] }] } }, /through and field make 'part__name'/],
    [{ ...base, reads: { manager: 'Material', fields: ['id'], lookups: [{ key: 'name', manager: 'Material', field: 'name', type: 'colour' as never, through: [] }] } }, /type 'colour'/],
  ])('refuses a malformed read entry (%#)', (entry, message) => {
    expect(() => loadCatalogue([entry])).toThrow(message);
    try {
      loadCatalogue([entry]);
    } catch (error) {
      expect((error as { code: string }).code).toBe('router_invalid_catalogue');
    }
  });

  it('reads the data section folded and refuses a field key without its manager', () => {
    const vocabulary = loadVocabulary({ languages: { 'pt-BR': { data: { managers: { Part: ['Peças'] }, values: { 'Material.name': { Steel: ['Aço'] } } } } } });
    expect(vocabulary.words['pt-BR'].data.managers).toEqual({ Part: ['pecas'] });
    expect(vocabulary.words['pt-BR'].data.values).toEqual({ 'Material.name': { Steel: ['aco'] } });
    expect(() => loadVocabulary({ languages: { en: { data: { fields: { density: ['density'] } } } } })).toThrow(/Manager\.field/);
  });

  it('makes the data section part of the digest', () => {
    expect(loadVocabulary({ languages: { en: { data: { managers: { Part: ['parts'] } } } } }).digest).not.toBe(loadVocabulary({}).digest);
  });
});

describe('adopting a new vocabulary', () => {
  it('restores a session written against an older vocabulary only when asked to adopt it', () => {
    const before = readingRouter();
    const session = before.session({ sessionId: 's-1' });
    session.read('charge order 4411', { context: NOW });
    const saved = session.toJSON();
    const after = readingRouter({}, { 'Material.name': { Steel: [], Aluminum: [], Copper: [], Unobtainium: [] } });
    expect(after.vocabularyDigest).not.toBe(before.vocabularyDigest);
    expect(() => sessionFromJSON(after, saved)).toThrow(/vocabulary digest/);
    const adopted = sessionFromJSON(after, saved, { adoptVocabulary: true });
    expect(adopted.state().catalogue.vocabularyDigest).toBe(after.vocabularyDigest);
    const reply = adopted.read('40.00', { context: NOW });
    expect(reply.outcome).toBe('run');
    expect(reply.steps[0]?.selection.arguments).toEqual({ amount: '40.00', order_id: '4411' });
    expect(adopted.read('parts made of unobtainium').steps[0]?.selection.arguments).toEqual({ fields: partFields, filters: { material__name: 'Unobtainium' } });
  });
});
