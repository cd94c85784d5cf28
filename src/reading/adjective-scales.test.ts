/**
 * The adjective table's scales beyond age, length, weight and size (height, distance, strength,
 * brightness, pay, seniority), matched by the words of a field's name and unit on a schema that is not
 * the demo; and on the fresh schemas, a scale no field carries stays unread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { fleetHost } from './test-support/fresh-hosts.js';
import { openInMemory } from './test-support/host-apps.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };
const Person = defineManager({ name: 'Person', fields: { fullName: 'string', heightCm: { type: 'integer', nullable: true }, birthDate: 'date' }, chatExposed: true, permissions: open });
const Beer = defineManager({ name: 'Beer', fields: { name: 'string', abvPct: 'float' }, chatExposed: true, permissions: open });
const Star = defineManager({ name: 'Star', fields: { name: 'string', magnitude: 'float', distanceLy: { type: 'float', nullable: true } }, chatExposed: true, permissions: open });
const Worker = defineManager({ name: 'Worker', fields: { fullName: 'string', hiredOn: 'date', hourlyRate: 'decimal' }, chatExposed: true, permissions: open });
const Telescope = defineManager({ name: 'Telescope', fields: { name: 'string', apertureMm: 'integer', commissionedOn: 'date' }, chatExposed: true, permissions: open });
const Tank = defineManager({ name: 'Tank', fields: { code: 'string', capacityL: 'integer' }, chatExposed: true, permissions: open });
const VOCABULARY = { languages: { 'pt-BR': { data: { managers: { Star: ['estrela', 'estrelas'], Beer: ['cerveja', 'cervejas'], Worker: ['trabalhador', 'trabalhadores'] } } } } };

let scales: OpenedApp;
let fleet: OpenedApp;
let reader: AppReader;
let fleetReader: AppReader;
beforeAll(async () => {
  scales = await openInMemory(defineHost({ managers: [Person, Beer, Star, Worker, Telescope, Tank] }));
  fleet = await openInMemory(fleetHost());
  reader = await createAppReader({ app: scales.app, hostTools: [], rulebook: { compute: true }, vocabulary: VOCABULARY, secret: 'adjective-scales-secret-0123456789' });
  fleetReader = await createAppReader({ app: fleet.app, hostTools: [], rulebook: { compute: true }, secret: 'adjective-scales-secret-0123456789' });
});
afterAll(async () => {
  await scales.close();
  await fleet.close();
});

function ranked(p: TurnPlan): { tool: string | undefined; operation: string | undefined; field: string | null | undefined } | null {
  if (p.outcome !== 'run') return null;
  const [read, compute] = p.steps;
  return { tool: read?.selection.tool ?? undefined, operation: compute?.compute?.operation, field: compute?.compute?.field };
}

describe('superlatives from the adjective table', () => {
  const cases: readonly (readonly [string, Language, string, 'top' | 'bottom', string])[] = [
    ['the tallest person', 'en', 'query_person', 'top', 'heightCm'],
    ['show the 3 tallest people', 'en', 'query_person', 'top', 'heightCm'],
    // No length field: "shortest" falls to the height.
    ['who is the shortest person?', 'en', 'query_person', 'bottom', 'heightCm'],
    ['qual é a pessoa mais alta?', 'pt-BR', 'query_person', 'top', 'heightCm'],
    ['a pessoa mais baixa', 'pt-BR', 'query_person', 'bottom', 'heightCm'],
    ['which beer is the strongest?', 'en', 'query_beer', 'top', 'abvPct'],
    ['the weakest beer', 'en', 'query_beer', 'bottom', 'abvPct'],
    ['qual é a cerveja mais forte?', 'pt-BR', 'query_beer', 'top', 'abvPct'],
    // A magnitude runs against brightness: the brightest has the lowest.
    ['what is the brightest star?', 'en', 'query_star', 'bottom', 'magnitude'],
    ['the faintest star', 'en', 'query_star', 'top', 'magnitude'],
    ['qual é a estrela mais brilhante?', 'pt-BR', 'query_star', 'bottom', 'magnitude'],
    ['the most distant star', 'en', 'query_star', 'top', 'distanceLy'],
    ['which star is the closest?', 'en', 'query_star', 'bottom', 'distanceLy'],
    ['a estrela mais próxima', 'pt-BR', 'query_star', 'bottom', 'distanceLy'],
    ['who is the longest-serving worker?', 'en', 'query_worker', 'bottom', 'hiredOn'],
    ['the best paid worker', 'en', 'query_worker', 'top', 'hourlyRate'],
    ['who is the lowest paid worker?', 'en', 'query_worker', 'bottom', 'hourlyRate'],
    ['o trabalhador mais bem pago', 'pt-BR', 'query_worker', 'top', 'hourlyRate'],
    // An aperture is a size; a date of commissioning one of making.
    ['what is the smallest telescope?', 'en', 'query_telescope', 'bottom', 'apertureMm'],
    ['which is the oldest telescope?', 'en', 'query_telescope', 'bottom', 'commissionedOn'],
    ['the first telescope', 'en', 'query_telescope', 'bottom', 'commissionedOn'],
    // "had" links as "has" does.
    ['which tank had the biggest capacity?', 'en', 'query_tank', 'top', 'capacityL'],
  ];
  it.each(cases)('%s (%s) ranks %s by %s %s', (turn, language, tool, operation, field) => {
    const p = reader.router().plan(turn, { language, context: { now: '2026-12-01T09:00:00Z' } });
    expect(ranked(p), turn).toEqual({ tool, operation, field });
  });

  it('reads a unit written out as its field ("litres")', () => {
    const plan = (turn: string): TurnPlan => reader.router().plan(turn, { language: 'en', context: { now: '2026-12-01T09:00:00Z' } });
    for (const turn of ['total litres of the tanks', 'total capacity across all tanks']) {
      const p = plan(turn);
      expect(`${turn}: ${p.outcome}`).toBe(`${turn}: run`);
      expect(p.steps[1]?.compute, turn).toMatchObject({ operation: 'sum', field: 'capacityL' });
    }
  });

  it('reads a measure noun as the one field that carries it, also after its manager ("average tank size")', () => {
    const plan = (turn: string): TurnPlan => reader.router().plan(turn, { language: 'en', context: { now: '2026-12-01T09:00:00Z' } });
    for (const [turn, op, field] of [['average tank size', 'average', 'capacityL'], ['the average size of the tanks', 'average', 'capacityL'], ['total person height', 'sum', 'heightCm']] as const) {
      const p = plan(turn);
      expect(`${turn}: ${p.outcome}`).toBe(`${turn}: run`);
      expect(p.steps[1]?.compute, turn).toMatchObject({ operation: op, field });
    }
    // A manager no field of which carries the measure: not read.
    expect(plan('average beer size').outcome).not.toBe('run');
  });

  it('leaves a scale no field of the subject carries unread, on a schema without it', () => {
    for (const turn of ['the tallest truck', 'the brightest driver', 'the strongest truck', 'the best paid driver']) {
      expect(fleetReader.router().plan(turn, { language: 'en', context: { now: '2026-12-01T09:00:00Z' } }).outcome, turn).not.toBe('run');
    }
    // The length scale still comes first where a length is there.
    expect(ranked(fleetReader.router().plan('the shortest trip', { language: 'en', context: { now: '2026-12-01T09:00:00Z' } }))).toEqual({ tool: 'query_trip', operation: 'bottom', field: 'distanceKm' });
  });
});
