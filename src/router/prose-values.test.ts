import { describe, expect, it } from 'vitest';
import type { CatalogueEntry } from './index.js';
import { createRouter } from './index.js';
import { SECRET } from '../../test/support/demo-router.js';

const forecast = (location: string, years: string, human: string): CatalogueEntry[] => [
  {
    name: 'forest_forecast',
    description: 'Forest growth forecast.',
    parameters: { type: 'object', properties: { [location]: { type: 'string' }, [years]: { type: 'integer' }, [human]: { type: 'boolean' } }, required: [location, years] },
    effect: 'read',
  },
];
const vocabulary = `settings:
  language: en
languages:
  en:
    tools:
      forest_forecast: { triggers: [forest forecast] }
  pt-BR:
    tools:
      forest_forecast: { triggers: [previsao da floresta] }
`;
const en = createRouter({ catalogue: forecast('location', 'years', 'include_human_impact'), vocabulary, secret: SECRET });
const pt = createRouter({ catalogue: forecast('local', 'anos', 'incluir_impacto_humano'), vocabulary, secret: SECRET });

describe('values written in prose', () => {
  it('reads a place after "in", a unit and a switch with its marker, in English', () => {
    const plan = en.plan('forest forecast in Yellowstone National Park for 5 years including human impact');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ include_human_impact: true, location: 'Yellowstone National Park', years: 5 });
  });

  it('reads a place after "em", a unit and a switch with its marker, in Portuguese', () => {
    const plan = pt.plan('previsão da floresta em São Paulo para 5 anos sem impacto humano', { language: 'pt-BR' });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ anos: 5, incluir_impacto_humano: false, local: 'São Paulo' });
  });

  it('reads "do not include" as no, and a place with its state or country', () => {
    const plan = en.plan('forest forecast in Portland, OR for 5 years if we do not include the impact of human activities');
    expect(plan.steps[0]?.selection.arguments).toEqual({ include_human_impact: false, location: 'Portland, OR', years: 5 });
  });

  it('takes no place from a list of places', () => {
    for (const turn of ['forest forecast in Paris, London and Rome for 5 years', 'forest forecast in Paris and in Rome for 5 years']) {
      const plan = en.plan(turn);
      expect(plan.outcome).not.toBe('run');
      expect(plan.steps[0]?.selection.arguments['location']).toBeUndefined();
    }
  });

  it('leaves a switch named with no marker unread', () => {
    const plan = en.plan('forest forecast in Yellowstone for 5 years, human impact');
    expect(plan.outcome).toBe('unread');
  });

  it('does not run when the turn names a date no parameter takes', () => {
    const plan = en.plan('forest forecast in Yellowstone for 5 years on March 1st 2023');
    expect(plan.outcome).toBe('unread');
    expect(plan.steps.at(-1)?.decidedBy).toMatch(/^U5 unplaced .*March 1st 2023/);
    const emPt = pt.plan('previsão da floresta em São Paulo para 5 anos amanhã', { language: 'pt-BR' });
    expect(emPt.outcome).toBe('unread');
  });
});

describe('a tool chosen by its named arguments (T3)', () => {
  const circle: CatalogueEntry[] = [
    { name: 'calculate_circle_dimensions', description: 'Area and circumference.', parameters: { type: 'object', properties: { radius: { type: 'integer' } }, required: ['radius'] }, effect: 'read' },
  ];
  const circulo: CatalogueEntry[] = [
    { name: 'medidas_do_circulo', description: 'Área e perímetro.', parameters: { type: 'object', properties: { raio: { type: 'integer' } }, required: ['raio'] }, effect: 'read' },
  ];

  it('runs the one tool the turn partly names when the turn names every required argument, in English', () => {
    const plan = createRouter({ catalogue: circle, secret: SECRET }).plan('Calculate the area and circumference of a circle with a radius of 5 units.');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.decidedBy).toBe('T3 named arguments');
    expect(plan.steps[0]?.selection.arguments).toEqual({ radius: 5 });
  });

  it('runs the one tool the turn partly names when the turn names every required argument, in Portuguese', () => {
    const plan = createRouter({ catalogue: circulo, secret: SECRET }).plan('qual a área de um círculo com raio de 5?', { language: 'pt-BR' });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ raio: 5 });
  });

  it('does not choose on a value that only fits by type', () => {
    const plan = createRouter({ catalogue: circle, secret: SECRET }).plan('what is the circumference of a circle 5 across');
    expect(plan.outcome).toBe('unread');
  });
});

describe('a numeric range and a place before a noun', () => {
  const primes: CatalogueEntry[] = [
    { name: 'generate_prime', description: 'Prime numbers in a range.', parameters: { type: 'object', properties: { start: { type: 'integer' }, end: { type: 'integer' } }, required: ['start', 'end'] }, effect: 'read' },
  ];
  const primos: CatalogueEntry[] = [
    { name: 'gerar_primos', description: 'Números primos num intervalo.', parameters: { type: 'object', properties: { inicio: { type: 'integer' }, fim: { type: 'integer' } }, required: ['inicio', 'fim'] }, effect: 'read' },
  ];
  const events: CatalogueEntry[] = [
    { name: 'key_events', description: 'Key events of a country.', parameters: { type: 'object', properties: { country: { type: 'string' }, start_year: { type: 'integer' }, end_year: { type: 'integer' } }, required: ['country', 'start_year', 'end_year'] }, effect: 'read' },
  ];

  it('fills a start and an end from "from N to M", in English', () => {
    const plan = createRouter({ catalogue: primes, secret: SECRET }).plan('generate the prime numbers from 1 to 50');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ end: 50, start: 1 });
  });

  it('fills a start and an end from "de N a M", in Portuguese', () => {
    const plan = createRouter({ catalogue: primos, secret: SECRET }).plan('gerar primos de 10 a 20', { language: 'pt-BR' });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ fim: 20, inicio: 10 });
  });

  it('takes no place from a name that describes the noun after it', () => {
    const plan = createRouter({ catalogue: events, secret: SECRET }).plan('key events in German history from 1871 to 1945');
    expect(plan.outcome).toBe('ask');
    expect(plan.steps[0]?.selection.arguments).toEqual({ end_year: 1945, start_year: 1871 });
    expect(plan.steps[0]?.selection.missing).toEqual(['country']);
  });
});

describe('a plain string parameter named as a date', () => {
  const air: CatalogueEntry[] = [
    { name: 'air_quality', description: 'Air quality index.', parameters: { type: 'object', properties: { location: { type: 'string' }, date: { type: 'string' } }, required: ['location', 'date'] }, effect: 'read' },
  ];
  const ar: CatalogueEntry[] = [
    { name: 'qualidade_do_ar', description: 'Índice de qualidade do ar.', parameters: { type: 'object', properties: { cidade: { type: 'string' }, data: { type: 'string' } }, required: ['cidade', 'data'] }, effect: 'read' },
  ];

  it('takes a date typed in figures as typed when there is no clock', () => {
    const plan = createRouter({ catalogue: air, secret: SECRET }).plan('What is the air quality index in London 2022/08/16?');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ date: '2022/08/16', location: 'London' });
  });

  it('leaves a date in words unplaced with no clock, and takes its day with one', () => {
    const router = createRouter({ catalogue: air, secret: SECRET });
    expect(router.plan('air quality index in London tomorrow').outcome).toBe('unread');
    const plan = router.plan('air quality index in London, tomorrow', { context: { now: '2026-10-19T09:00:00+01:00' } });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ date: '2026-10-20', location: 'London' });
  });

  it('takes its day in Portuguese', () => {
    const plan = createRouter({ catalogue: ar, secret: SECRET }).plan('qualidade do ar amanhã em Curitiba', { language: 'pt-BR', context: { now: '2026-10-19T09:00:00-03:00' } });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ cidade: 'Curitiba', data: '2026-10-20' });
  });
});
