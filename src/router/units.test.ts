import { describe, expect, it } from 'vitest';
import type { CatalogueEntry } from './index.js';
import { createRouter } from './index.js';
import { SECRET } from '../../test/support/demo-router.js';

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

  const party = (budget: string, deposit: string, guests: string): CatalogueEntry[] => [
    { name: 'plan_party', description: 'Plan a party.', parameters: { type: 'object', properties: { [budget]: { type: 'number' }, [deposit]: { type: 'number' }, [guests]: { type: 'integer' } }, required: [budget, deposit, guests] }, effect: 'read' },
  ];
  const partyWords = `settings:
  language: en
languages:
  en:
    tools:
      plan_party: { triggers: [plan a party] }
  pt-BR:
    tools:
      plan_party: { triggers: [planeje uma festa] }
`;

  it('reads an amount after a cue through its currency sign, with the guests as a unit, in English', () => {
    const plan = createRouter({ catalogue: party('budget', 'deposit', 'guests'), vocabulary: partyWords, secret: SECRET }).plan('plan a party with a budget of $3,000 and a deposit of $500 for 40 guests');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ budget: 3000, deposit: 500, guests: 40 });
  });

  it('reads an amount after a cue through its currency sign, with the guests as a unit, in Portuguese', () => {
    const plan = createRouter({ catalogue: party('orcamento', 'sinal', 'convidados'), vocabulary: partyWords, secret: SECRET }).plan('planeje uma festa com orçamento de R$ 3.000 e sinal de R$ 500 para 40 convidados', { language: 'pt-BR' });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ convidados: 40, orcamento: 3000, sinal: 500 });
  });
});
