/**
 * A comparator said after its value ("born in 2000 or later", "50 km or more", "5 or more plots",
 * "a partir de 2000", "até 2010", "pelo menos 5"), on a community garden that is not the demo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { openInMemory } from './test-support/host-apps.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };
const Gardener = defineManager({ name: 'Gardener', fields: { fullName: 'string', bornYear: 'integer', joinedOn: 'date', town: 'string' }, chatExposed: true, permissions: open });
const Book = defineManager({ name: 'Book', fields: { title: 'string', publishedYear: 'integer' }, chatExposed: true, permissions: open });
const Plot = defineManager({
  name: 'Plot',
  fields: { code: 'string', areaM2: 'integer', distanceKm: 'float', beds: 'integer' },
  relations: { gardener: { kind: 'one', target: 'Gardener' } },
  chatExposed: true,
  permissions: open,
});

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(
    defineHost({
      managers: [Gardener, Plot, Book],
      seed: [
        { manager: 'Gardener', rows: [{ id: 1, fullName: 'Ada Moss', bornYear: 1999, joinedOn: '2019-03-01', town: 'Leeds' }, { id: 2, fullName: 'Ben Reed', bornYear: 2003, joinedOn: '2024-05-02', town: 'York' }] },
        { manager: 'Book', rows: [{ id: 1, title: 'Growing Greens', publishedYear: 2004 }] },
        { manager: 'Plot', rows: [{ id: 1, code: 'A1', areaM2: 40, distanceKm: 1.5, beds: 4, gardener: 1 }, { id: 2, code: 'B2', areaM2: 75, distanceKm: 6, beds: 8, gardener: 2 }] },
      ],
    }),
  );
  reader = await createAppReader({ app: opened.app, hostTools: [], rulebook: { compute: true }, secret: 'comparators-after-secret-0123456789' });
});
afterAll(async () => opened.close());

function plan(turn: string, language: Language = 'en'): TurnPlan {
  return reader.router().plan(turn, { language, context: { now: '2026-12-01T09:00:00Z' } });
}
const filters = (p: TurnPlan): unknown => (p.outcome === 'run' ? (p.steps[0]?.selection.arguments as { filters?: unknown }).filters : p.outcome);

describe('comparators after their value', () => {
  it('reads "or later", "or earlier" after a year as an inclusive bound on the year field', () => {
    expect(filters(plan('gardeners born in 2000 or later'))).toEqual({ bornYear__gte: 2000 });
    expect(filters(plan('which gardeners were born in 2000 or earlier?'))).toEqual({ bornYear__lte: 2000 });
    expect(filters(plan('livros publicados de 2000 em diante', 'pt-BR'))).toEqual({ publishedYear__gte: 2000 });
    expect(filters(plan('livros publicados em 2000 ou antes', 'pt-BR'))).toEqual({ publishedYear__lte: 2000 });
    expect(filters(plan('livros publicados a partir de 2000', 'pt-BR'))).toEqual({ publishedYear__gte: 2000 });
    expect(filters(plan('livros publicados até 2010', 'pt-BR'))).toEqual({ publishedYear__lte: 2010 });
  });

  it('reads a year after a date field the same way, on the whole year', () => {
    expect(filters(plan('gardeners who joined in 2020 or later'))).toEqual({ joinedOn__gte: '2020-01-01' });
    expect(filters(plan('gardeners who joined in 2020 or earlier'))).toEqual({ joinedOn__lt: '2021-01-01' });
  });

  it('reads "or more", "or less" after a number, with the field before it, its unit between or the field after it', () => {
    expect(filters(plan('plots with an area of 50 or more'))).toEqual({ areaM2__gte: 50 });
    expect(filters(plan('plots 5 km or more away'))).toEqual('unread');
    expect(filters(plan('plots with a distance of 5 kilometres or more'))).toEqual({ distanceKm__gte: 5 });
    expect(filters(plan('plots with 6 or more beds'))).toEqual({ beds__gte: 6 });
    expect(filters(plan('plots with 6 beds or fewer'))).toEqual({ beds__lte: 6 });
    expect(filters(plan('livros de 2000 ou mais páginas', 'pt-BR'))).toBe('unread');
  });

  it('keeps the comparators said before their value', () => {
    expect(filters(plan('plots with at least 5 beds'))).toEqual({ beds__gte: 5 });
    expect(filters(plan('plots with no more than 5 beds'))).toEqual({ beds__lte: 5 });
    expect(filters(plan('gardeners born from 2000'))).toEqual({ bornYear__gte: 2000 });
  });

  it('leaves a comparator after a value with no number, or after a bound already said, unread', () => {
    expect(filters(plan('plots with beds or more'))).toBe('unread');
    expect(filters(plan('gardeners born before 2000 or later'))).toBe('unread');
  });
});
