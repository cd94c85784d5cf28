import { describe, expect, it } from 'vitest';
import type { CatalogueEntry } from './index.js';
import { createRouter } from './index.js';
import { SECRET } from './test-support/demo-router.js';

const sales = (days: string, limit: string): CatalogueEntry[] => [
  { name: 'sales_report', description: 'Sales report.', parameters: { type: 'object', properties: { [days]: { type: 'integer' }, [limit]: { type: 'integer' } }, required: [days] }, effect: 'read' },
];
const vocabulary = `settings:
  language: en
languages:
  en:
    tools:
      sales_report: { triggers: [sales report] }
  pt-BR:
    tools:
      sales_report: { triggers: [relatorio de vendas] }
`;

describe('a number followed by its parameter\'s words, as a unit', () => {
  it('fills the parameter the words name, in English', () => {
    const router = createRouter({ catalogue: sales('days', 'limit'), vocabulary, secret: SECRET });
    const plan = router.plan('sales report for the last 30 days');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ days: 30 });
  });

  it('fills the parameter the words name, in Portuguese', () => {
    const router = createRouter({ catalogue: sales('dias', 'limite'), vocabulary, secret: SECRET });
    const plan = router.plan('relatório de vendas dos últimos 30 dias', { language: 'pt-BR' });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ dias: 30 });
  });

  it('takes the parameter whose words run longest after the number', () => {
    const catalogue: CatalogueEntry[] = [
      { name: 'light_travel_time', description: 'Time light takes to travel.', parameters: { type: 'object', properties: { distance_in_light_years: { type: 'integer' }, speed_of_light: { type: 'integer' } }, required: ['distance_in_light_years'] }, effect: 'read' },
    ];
    const plan = createRouter({ catalogue, secret: SECRET }).plan('light travel time from a star 4 light years away');
    expect(plan.steps[0]?.selection.arguments).toEqual({ distance_in_light_years: 4 });
  });

  it('guesses nothing when the words name two parameters equally', () => {
    const catalogue: CatalogueEntry[] = [
      { name: 'sales_report', description: 'Sales report.', parameters: { type: 'object', properties: { days_back: { type: 'integer' }, days_ahead: { type: 'integer' } }, required: ['days_back'] }, effect: 'read' },
    ];
    const plan = createRouter({ catalogue, vocabulary, secret: SECRET }).plan('sales report for 30 days');
    expect(plan.outcome).not.toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({});
  });
});
