import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoSeed } from '../demo/index.js';
import { loadDataset } from './index.js';
import type { EvalDataset, EvalTurn } from './index.js';

const folder = join(import.meta.dirname, '..', '..', 'evals', 'datasets');
const file = join(folder, 'demo-default.yaml');

/** The questions issue 8 names; each must be a turn of the dataset (in that case's first turn or a reply). */
const issueQuestions = [
  'show me all materials',
  'which parts are made of steel?',
  'which projects use aluminum parts?',
  'materials with density above 5',
  'how many open tasks does Apollo have?',
  'show me orders 4411 and 4412',
  'what is the total of order 4411?',
  'am I free on Thursday afternoon?',
  'charge order 4411',
  '40.00',
  'create a project called Alpha and then add a task to it',
  'mostre todos os materiais',
  'quais peças são de aço?',
  'mostre os pedidos 4411 e 4412',
];

function turns(dataset: EvalDataset): { caseId: string; language: string; multi: boolean; turn: EvalTurn }[] {
  return dataset.cases.flatMap((item) => item.turns.map((turn) => ({ caseId: item.id, language: item.language, multi: item.turns.length > 1, turn })));
}

describe('the demo-default dataset', () => {
  it('holds at least 150 turns in English and Portuguese, single- and multi-turn, of every kind', async () => {
    const dataset = await loadDataset(file);
    const all = turns(dataset);
    expect(all.length).toBeGreaterThanOrEqual(150);
    expect(new Set(all.map((item) => item.language))).toEqual(new Set(['en', 'pt-BR']));
    expect(dataset.cases.some((item) => item.turns.length > 1)).toBe(true);
    expect(dataset.cases.some((item) => item.turns.length === 1)).toBe(true);
    expect(new Set(all.map((item) => item.turn.kind))).toEqual(new Set(['read', 'count', 'multi', 'date', 'write', 'ask', 'decline', 'unread']));
    expect(all.filter((item) => item.turn.mustBeUnread).length).toBeGreaterThanOrEqual(20);
    expect(all.filter((item) => item.turn.expect.confirm === 'reject').length).toBeGreaterThan(0);
    expect(new Set(dataset.cases.map((item) => item.actor))).toEqual(new Set(['alice', 'bob', 'anonymous']));
  });

  it("holds every question issue 8 names", async () => {
    const texts = new Set(turns(await loadDataset(file)).map((item) => item.turn.text));
    for (const question of issueQuestions) expect(texts.has(question), question).toBe(true);
  });
});

describe.each(['demo-default', 'demo-holdout'])('the %s dataset, against the seed', (name) => {
  const file = join(folder, `${name}.yaml`);

  it('expects, for every read of parts by material and of projects by their parts, exactly the rows the seed holds', async () => {
    const dataset = await loadDataset(file);
    const seed = Object.fromEntries(demoSeed(new Date(dataset.now)).map((batch) => [batch.manager, batch.rows])) as Record<string, Record<string, unknown>[]>;
    const materials = seed.Material ?? [];
    const parts = seed.Part ?? [];
    const projects = seed.Project ?? [];
    const materialId = (name: string): unknown => materials.find((row) => row.name === name)?.id;
    let checked = 0;
    for (const { turn } of turns(dataset)) {
      const call = turn.expect.calls?.[0];
      const filters = (call?.arguments.filters ?? {}) as Record<string, unknown>;
      if (turn.expect.compute !== undefined || call === undefined) continue;
      if (call.tool === 'query_part' && typeof filters.material__name === 'string' && Object.keys(filters).length === 1) {
        const names = parts.filter((row) => row.material === materialId(filters.material__name as string)).map((row) => row.name);
        expect(new Set(turn.expect.facts), turn.text).toEqual(new Set(names));
        checked++;
      }
      if (call.tool === 'query_project' && typeof filters.parts__material__name === 'string') {
        const ids = new Set(parts.filter((row) => row.material === materialId(filters.parts__material__name as string)).map((row) => row.id));
        const names = projects.filter((row) => (row.parts as number[]).some((id) => ids.has(id))).map((row) => row.name);
        expect(new Set(turn.expect.facts), turn.text).toEqual(new Set(names));
        expect(new Set([...turn.expect.facts, ...turn.expect.absent]), turn.text).toEqual(new Set(projects.map((row) => row.name)));
        checked++;
      }
      if (call.tool === 'query_material' && Object.keys(filters).length === 1 && ('density__gt' in filters || 'density__lt' in filters)) {
        const names = materials.filter((row) => ('density__gt' in filters ? (row.density as number) > Number(filters.density__gt) : (row.density as number) < Number(filters.density__lt))).map((row) => row.name);
        expect(new Set(turn.expect.facts), turn.text).toEqual(new Set(names));
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(name === 'demo-default' ? 20 : 5);
  });

  it('expects, for every count, the number of seed rows the read finds', async () => {
    const dataset = await loadDataset(file);
    const seed = Object.fromEntries(demoSeed(new Date(dataset.now)).map((batch) => [batch.manager, batch.rows])) as Record<string, Record<string, unknown>[]>;
    const manager: Record<string, string> = { query_material: 'Material', query_part: 'Part', query_project: 'Project', query_task: 'Task', query_order: 'Order' };
    const byName = (rows: Record<string, unknown>[] | undefined, name: unknown): unknown => rows?.find((row) => row.name === name)?.id;
    const keep = (row: Record<string, unknown>, key: string, value: unknown): boolean => {
      switch (key) {
        case 'material__name':
          return row.material === byName(seed.Material, value);
        case 'project__name':
          return row.project === byName(seed.Project, value);
        case 'parts__material__name': {
          const material = byName(seed.Material, value);
          return (row.parts as number[]).some((id) => seed.Part?.find((part) => part.id === id)?.material === material);
        }
        case 'density__gt':
          return (row.density as number) > Number(value);
        default:
          return row[key] === value;
      }
    };
    let checked = 0;
    for (const { turn } of turns(dataset)) {
      const call = turn.expect.calls?.[0];
      if (turn.expect.compute !== 'count' || call === undefined) continue;
      const filters = Object.entries((call.arguments.filters ?? {}) as Record<string, unknown>);
      const rows = (seed[manager[call.tool] ?? ''] ?? []).filter((row) => filters.every(([key, value]) => keep(row, key, value)));
      expect(turn.expect.facts, turn.text).toEqual([String(rows.length)]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(name === 'demo-default' ? 15 : 5);
  });
});
