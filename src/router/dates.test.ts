import { describe, expect, it } from 'vitest';
import { readDates } from './index.js';
import { demoRouter } from './test-support/demo-router.js';

const MONDAY = '2026-10-19T09:00:00+01:00';
const SUNDAY = '2026-10-25T20:00:00-03:00';
const MONTH_END = '2026-10-31T23:30:00-03:00';
const YEAR_END = '2026-12-31T10:00:00+01:00';

// [what the turn says, language, now, start, end]
const TABLE: readonly (readonly [string, 'en' | 'pt-BR', string, string, string])[] = [
  ['today', 'en', MONDAY, '2026-10-19T00:00:00+01:00', '2026-10-20T00:00:00+01:00'],
  ['tomorrow', 'en', MONDAY, '2026-10-20T00:00:00+01:00', '2026-10-21T00:00:00+01:00'],
  ['yesterday', 'en', MONDAY, '2026-10-18T00:00:00+01:00', '2026-10-19T00:00:00+01:00'],
  ['Monday', 'en', MONDAY, '2026-10-19T00:00:00+01:00', '2026-10-20T00:00:00+01:00'],
  ['Thursday', 'en', MONDAY, '2026-10-22T00:00:00+01:00', '2026-10-23T00:00:00+01:00'],
  ['next Monday', 'en', MONDAY, '2026-10-26T00:00:00+01:00', '2026-10-27T00:00:00+01:00'],
  ['this week', 'en', MONDAY, '2026-10-19T00:00:00+01:00', '2026-10-26T00:00:00+01:00'],
  ['last week', 'en', MONDAY, '2026-10-12T00:00:00+01:00', '2026-10-19T00:00:00+01:00'],
  ['this week', 'en', SUNDAY, '2026-10-19T00:00:00-03:00', '2026-10-26T00:00:00-03:00'],
  ['next week', 'en', SUNDAY, '2026-10-26T00:00:00-03:00', '2026-11-02T00:00:00-03:00'],
  ['Sunday', 'en', SUNDAY, '2026-10-25T00:00:00-03:00', '2026-10-26T00:00:00-03:00'],
  ['tomorrow', 'en', MONTH_END, '2026-11-01T00:00:00-03:00', '2026-11-02T00:00:00-03:00'],
  ['this month', 'en', MONTH_END, '2026-10-01T00:00:00-03:00', '2026-11-01T00:00:00-03:00'],
  ['next month', 'en', YEAR_END, '2027-01-01T00:00:00+01:00', '2027-02-01T00:00:00+01:00'],
  ['last month', 'en', '2026-01-15T10:00:00+01:00', '2025-12-01T00:00:00+01:00', '2026-01-01T00:00:00+01:00'],
  ['next day', 'en', MONTH_END, '2026-11-01T00:00:00-03:00', '2026-11-02T00:00:00-03:00'],
  ['Thursday morning', 'en', MONDAY, '2026-10-22T06:00:00+01:00', '2026-10-22T12:00:00+01:00'],
  ['Thursday afternoon', 'en', MONDAY, '2026-10-22T12:00:00+01:00', '2026-10-22T18:00:00+01:00'],
  ['Friday evening', 'en', MONDAY, '2026-10-23T18:00:00+01:00', '2026-10-24T00:00:00+01:00'],
  ['tomorrow at 3pm', 'en', MONTH_END, '2026-11-01T15:00:00-03:00', '2026-11-01T16:00:00-03:00'],
  ['15:00', 'en', MONDAY, '2026-10-19T15:00:00+01:00', '2026-10-19T16:00:00+01:00'],
  ['October 22 at 3pm', 'en', MONDAY, '2026-10-22T15:00:00+01:00', '2026-10-22T16:00:00+01:00'],
  ['hoje', 'pt-BR', SUNDAY, '2026-10-25T00:00:00-03:00', '2026-10-26T00:00:00-03:00'],
  ['amanhã', 'pt-BR', MONTH_END, '2026-11-01T00:00:00-03:00', '2026-11-02T00:00:00-03:00'],
  ['ontem', 'pt-BR', '2026-11-01T01:00:00-03:00', '2026-10-31T00:00:00-03:00', '2026-11-01T00:00:00-03:00'],
  ['depois de amanhã', 'pt-BR', SUNDAY, '2026-10-27T00:00:00-03:00', '2026-10-28T00:00:00-03:00'],
  ['quinta', 'pt-BR', MONDAY, '2026-10-22T00:00:00+01:00', '2026-10-23T00:00:00+01:00'],
  ['quinta-feira à tarde', 'pt-BR', MONDAY, '2026-10-22T12:00:00+01:00', '2026-10-22T18:00:00+01:00'],
  ['quinta que vem', 'pt-BR', '2026-10-22T09:00:00-03:00', '2026-10-29T00:00:00-03:00', '2026-10-30T00:00:00-03:00'],
  ['domingo', 'pt-BR', SUNDAY, '2026-10-25T00:00:00-03:00', '2026-10-26T00:00:00-03:00'],
  ['semana que vem', 'pt-BR', SUNDAY, '2026-10-26T00:00:00-03:00', '2026-11-02T00:00:00-03:00'],
  ['esta semana', 'pt-BR', MONDAY, '2026-10-19T00:00:00+01:00', '2026-10-26T00:00:00+01:00'],
  ['mês passado', 'pt-BR', '2026-01-10T09:00:00-03:00', '2025-12-01T00:00:00-03:00', '2026-01-01T00:00:00-03:00'],
  ['mes que vem', 'pt-BR', YEAR_END, '2027-01-01T00:00:00+01:00', '2027-02-01T00:00:00+01:00'],
  ['daqui a 3 dias', 'pt-BR', '2026-10-30T09:00:00-03:00', '2026-11-02T00:00:00-03:00', '2026-11-03T00:00:00-03:00'],
  ['amanhã às 15h', 'pt-BR', MONDAY, '2026-10-20T15:00:00+01:00', '2026-10-20T16:00:00+01:00'],
  ['15h30', 'pt-BR', MONDAY, '2026-10-19T15:30:00+01:00', '2026-10-19T16:30:00+01:00'],
  ['hoje de manhã', 'pt-BR', MONDAY, '2026-10-19T06:00:00+01:00', '2026-10-19T12:00:00+01:00'],
  ['sexta à noite', 'pt-BR', MONDAY, '2026-10-23T18:00:00+01:00', '2026-10-24T00:00:00+01:00'],
  ['22 de outubro', 'pt-BR', MONDAY, '2026-10-22T00:00:00+01:00', '2026-10-23T00:00:00+01:00'],
  ['dia 12', 'pt-BR', MONDAY, '2026-11-12T00:00:00+01:00', '2026-11-13T00:00:00+01:00'],
  ['sexta-feira 13', 'pt-BR', MONDAY, '2026-11-13T00:00:00+01:00', '2026-11-14T00:00:00+01:00'],
  ['em 2 semanas', 'pt-BR', MONDAY, '2026-11-02T00:00:00+01:00', '2026-11-03T00:00:00+01:00'],
  ['dois meses atrás', 'pt-BR', MONTH_END, '2026-08-31T00:00:00-03:00', '2026-09-01T00:00:00-03:00'],
  ['amanhã ao meio-dia', 'pt-BR', MONDAY, '2026-10-20T12:00:00+01:00', '2026-10-20T13:00:00+01:00'],
  ['amanhã às seis e meia da tarde', 'pt-BR', MONDAY, '2026-10-20T18:30:00+01:00', '2026-10-20T19:30:00+01:00'],
  ['in 2 weeks', 'en', MONDAY, '2026-11-02T00:00:00+01:00', '2026-11-03T00:00:00+01:00'],
  ['from Monday to Friday', 'en', MONDAY, '2026-10-19T00:00:00+01:00', '2026-10-24T00:00:00+01:00'],
  ['de ontem até amanhã', 'pt-BR', MONDAY, '2026-10-18T00:00:00+01:00', '2026-10-21T00:00:00+01:00'],
  ['tomorrow at noon', 'en', MONDAY, '2026-10-20T12:00:00+01:00', '2026-10-20T13:00:00+01:00'],
];

describe('the date table', () => {
  for (const [text, language, now, start, end] of TABLE) {
    it(`reads "${text}" (${language}) at ${now} as ${start} to ${end}`, () => {
      const [found, ...rest] = readDates(text, { now, language });
      expect(rest).toEqual([]);
      expect(found?.text).toBe(text);
      expect([found?.start, found?.end]).toEqual([start, end]);
    });
  }

  it('writes every time in the clock\'s offset', () => {
    for (const [text, language, now] of TABLE) {
      const offset = now.slice(-6);
      const [found] = readDates(text, { now, language });
      expect(found?.start?.endsWith(offset)).toBe(true);
      expect(found?.end?.endsWith(offset)).toBe(true);
    }
  });

  it('reads no time in a list of numbers', () => {
    expect(readDates('mostre os pedidos 5 e 45 e adicione a 2', { now: MONDAY, language: 'pt-BR' })).toEqual([]);
    const plan = demoRouter().plan('mostre os pedidos 5 e 45', { language: 'pt-BR', context: { now: MONDAY } });
    expect(plan.steps.map((s) => s.selection.arguments['order_id'])).toEqual(['5', '45']);
  });

  it('leaves the period open where there is no clock', () => {
    expect(readDates('Thursday afternoon')).toEqual([{ text: 'Thursday afternoon', start: null, end: null, grain: 'part' }]);
  });

  it('refuses a now without an offset', () => {
    expect(() => demoRouter().plan('what is on my calendar today', { context: { now: '2026-10-19T09:00:00' } })).toThrow(/RFC 3339/);
  });

  it('gives a start-and-end tool the bounds, in the plan', () => {
    const plan = demoRouter().plan('show my calendar next week', { context: { now: SUNDAY } });
    expect(plan.steps[0]?.selection.arguments).toEqual({ time_max: '2026-11-02T00:00:00-03:00', time_min: '2026-10-26T00:00:00-03:00' });
  });
});

describe('a month date followed by a day part', () => {
  it('reads "December 9 afternoon" as that afternoon, not the whole day', () => {
    expect(readDates('am I free December 9 afternoon?', { now: '2026-11-30T10:00:00+00:00' })).toEqual([
      { text: 'December 9 afternoon', start: '2026-12-09T12:00:00+00:00', end: '2026-12-09T18:00:00+00:00', grain: 'part' },
    ]);
  });
});
