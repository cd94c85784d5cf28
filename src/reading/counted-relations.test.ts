/**
 * Rows ranked by a count of related rows ("which bike has the most repairs?", "the workshop with the
 * fewest mechanics", "qual autor tem mais livros?"): through a foreign key, a many-to-many relation
 * or a join manager, and never the first of two relations to one manager — on a bicycle-repair
 * cooperative and a small library that are not the demo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import { runCompute } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { openInMemory } from './test-support/host-apps.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };
const Workshop = defineManager({ name: 'Workshop', fields: { name: 'string' }, chatExposed: true, permissions: open });
const Mechanic = defineManager({ name: 'Mechanic', fields: { fullName: 'string' }, relations: { workshop: { kind: 'one', target: 'Workshop' } }, chatExposed: true, permissions: open });
const Part = defineManager({ name: 'Part', fields: { name: 'string' }, chatExposed: true, permissions: open });
const Bike = defineManager({ name: 'Bike', fields: { serial: 'string' }, chatExposed: true, permissions: open });
const Repair = defineManager({
  name: 'Repair',
  fields: { summary: 'string' },
  relations: {
    bike: { kind: 'one', target: 'Bike' },
    mechanic: { kind: 'one', target: 'Mechanic', reverse: 'repairsDone' },
    inspector: { kind: 'one', target: 'Mechanic', nullable: true, reverse: 'repairsInspected' },
    parts: { kind: 'manyToMany', target: 'Part' },
  },
  chatExposed: true,
  permissions: open,
});
const Author = defineManager({ name: 'Author', fields: { name: 'string' }, chatExposed: true, permissions: open });
const Book = defineManager({ name: 'Book', fields: { title: 'string' }, relations: { author: { kind: 'one', target: 'Author' } }, chatExposed: true, permissions: open });

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(defineHost({ managers: [Workshop, Mechanic, Part, Bike, Repair, Author, Book] }));
  reader = await createAppReader({ app: opened.app, hostTools: [], rulebook: { compute: true }, secret: 'counted-relations-secret-0123456789' });
});
afterAll(async () => opened.close());

function plan(turn: string, language: Language = 'en'): TurnPlan {
  return reader.router().plan(turn, { language, context: { now: '2026-12-01T09:00:00Z' } });
}
const read = (p: TurnPlan): unknown => (p.outcome === 'run' ? (p.steps[0]?.selection.arguments as { fields?: unknown[] }).fields?.at(-1) : p.outcome);
const ranked = (p: TurnPlan): unknown => (p.outcome === 'run' ? p.steps[1]?.compute : p.outcome);

describe('rankings by a count of related rows', () => {
  it('reads "the most Y" through a relation the other way, with the related ids in the read', () => {
    const bikes = plan('which bike has the most repairs?');
    expect(read(bikes)).toEqual({ repairs: ['id'] });
    expect(ranked(bikes)).toEqual({ operation: 'top', field: 'repairs', rows: 1 });
    expect(bikes.steps[1]?.decidedBy).toBe('C1 top 1 count of repairs');
    expect(ranked(plan('the workshop with the fewest mechanics'))).toEqual({ operation: 'bottom', field: 'mechanics', rows: 1 });
    expect(ranked(plan('the 3 workshops with the most mechanics'))).toEqual({ operation: 'top', field: 'mechanics', rows: 3 });
    expect(ranked(plan('qual autor tem mais livros?', 'pt-BR'))).toEqual({ operation: 'top', field: 'books', rows: 1 });
    expect(ranked(plan('o autor com menos livros', 'pt-BR'))).toEqual({ operation: 'bottom', field: 'books', rows: 1 });
  });

  it('reads a many-to-many relation, and a join manager to the rows it links', () => {
    expect(read(plan('which repair has the most parts?'))).toEqual({ parts: ['id'] });
    expect(read(plan('which part has the most bikes?'))).toEqual({ repairs: [{ bike: ['id'] }] });
    // Two hops to many rows each (a bike's repairs' parts) would count links, not parts: not read.
    expect(plan('which bike has the most parts?').outcome).toBe('unread');
  });

  it('leaves two relations to one manager unread, naming both, never the first', () => {
    const mechanics = plan('which mechanic has the most repairs?');
    expect(mechanics.outcome).toBe('unread');
    expect(mechanics.steps[0]?.decidedBy).toBe('U15 two relations repairsDone, repairsInspected');
    expect(plan('which bike has the most mechanics?').outcome).toBe('unread');
    expect(plan('which part has the most mechanics?').outcome).toBe('unread');
  });

  it('counts distinct related rows, leaving out empty links', () => {
    const step = plan('which part has the most bikes?').steps[1];
    if (step === undefined) throw new Error('no ranking step');
    // Part 1 was fitted twice to bike 7 and once with no bike recorded; part 2 to bikes 7 and 8.
    const rows = { data: [{ id: '1', name: 'Chain', repairs: [{ bike: { id: '7' } }, { bike: { id: '7' } }, { bike: null }] }, { id: '2', name: 'Cable', repairs: [{ bike: { id: '7' } }, { bike: { id: '8' } }] }], total_count: 2 };
    expect(runCompute(step, [rows])).toEqual({ value: '2', picked: [{ step: 0, row: 1 }] });
    const direct = plan('which bike has the most repairs?').steps[1];
    if (direct === undefined) throw new Error('no ranking step');
    expect(runCompute(direct, [{ data: [{ id: '1', repairs: [{ id: '4' }, { id: '5' }] }, { id: '2', repairs: [] }], total_count: 2 }])).toEqual({ value: '2', picked: [{ step: 0, row: 0 }] });
  });
});
