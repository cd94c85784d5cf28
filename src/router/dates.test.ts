import { describe, expect, it } from 'vitest';
import { readDates } from './index.js';
import { demoRouter } from '../../test/support/demo-router.js';

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
  ['tonight', 'en', MONDAY, '2026-10-19T18:00:00+01:00', '2026-10-20T00:00:00+01:00'],
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

describe('a day named with its month, then a day part', () => {
  const NOW = '2026-11-30T09:00:00Z';
  const AFTERNOON = ['2026-12-09T12:00:00+00:00', '2026-12-09T18:00:00+00:00'];
  const MORNING = ['2026-12-09T06:00:00+00:00', '2026-12-09T12:00:00+00:00'];
  // [what the turn says, language, start and end]
  const READS: readonly (readonly [string, 'en' | 'pt-BR', readonly string[]])[] = [
    ['no dia 9 de dezembro à tarde', 'pt-BR', AFTERNOON],
    ['dia 9 de dezembro à tarde', 'pt-BR', AFTERNOON],
    ['em 9 de dezembro de manhã', 'pt-BR', MORNING],
    ['on December 9 in the afternoon', 'en', AFTERNOON],
    ['on the 9th of December in the morning', 'en', MORNING],
    ['December 9th afternoon', 'en', AFTERNOON],
    ['Thursday in the afternoon', 'en', ['2026-12-03T12:00:00+00:00', '2026-12-03T18:00:00+00:00']],
    ['na quinta-feira à noite', 'pt-BR', ['2026-12-03T18:00:00+00:00', '2026-12-04T00:00:00+00:00']],
  ];
  for (const [text, language, period] of READS) {
    it(`reads "${text}" (${language}) as one period, ${period.join(' to ')}`, () => {
      const found = readDates(text, { now: NOW, language });
      expect(found).toHaveLength(1);
      expect([found[0]?.start, found[0]?.end]).toEqual(period);
      const plan = demoRouter().plan(language === 'en' ? `am I free ${text}?` : `estou livre ${text}?`, { language, context: { now: NOW } });
      expect(plan.outcome).toBe('run');
      expect(plan.steps[0]?.selection.arguments).toEqual({ time_min: period[0], time_max: period[1] });
    });
  }

  it('plans "estou livre no dia 9 de dezembro à tarde?" over that afternoon, not from the 9th to this afternoon', () => {
    const plan = demoRouter().plan('estou livre no dia 9 de dezembro à tarde?', { language: 'pt-BR', context: { now: NOW } });
    expect(plan.steps.map((s) => [s.selection.tool, s.selection.arguments])).toEqual([
      ['list_events', { time_min: '2026-12-09T12:00:00+00:00', time_max: '2026-12-09T18:00:00+00:00' }],
    ]);
  });

  it('keeps "dia 12" alone as that day of this month or the next', () => {
    expect(readDates('dia 9', { now: NOW, language: 'pt-BR' })).toEqual([{ text: 'dia 9', start: '2026-12-09T00:00:00+00:00', end: '2026-12-10T00:00:00+00:00', grain: 'day' }]);
  });

  it('reads a typed year, and no day a month does not have', () => {
    expect(readDates('December 9th, 2027', { now: NOW })[0]?.start).toBe('2027-12-09T00:00:00+00:00');
    expect(readDates('9 de dezembro de 2027', { now: NOW, language: 'pt-BR' })[0]?.start).toBe('2027-12-09T00:00:00+00:00');
    expect(readDates('February 30', { now: NOW }).map((d) => d.start)).not.toContain('2026-03-02T00:00:00+00:00');
  });
});

describe('a period for a start-and-end tool', () => {
  const NOWS = ['2026-11-30T09:00:00Z', '2026-10-25T20:00:00-03:00', '2026-12-31T23:30:00+01:00', '2026-02-27T07:15:00+05:30'];
  const EN = [
    'today', 'tomorrow', 'yesterday', 'Thursday', 'next Monday', 'last Friday', 'this week', 'next week', 'last month', 'in 3 days',
    'December 9', 'December 9th', 'the 9th of December', '9 December', 'Dec 9 2026', 'December 9 in the afternoon', 'December 9 at 3pm',
    'on the 9th of December in the morning', 'tomorrow at 3pm', 'tomorrow from 3pm to 5pm', 'from tomorrow to Friday', 'from Friday to tomorrow',
    'tomorrow and Friday', 'Thursday in the afternoon', 'this afternoon', 'tonight', 'at 3pm', 'from 3pm to 5pm', 'tomorrow, in the morning',
    'Friday evening at 8pm', 'between December 1 and December 4', 'from December 4 to December 1', 'December 9 and tomorrow afternoon',
    'tomorrow at noon', 'yesterday morning and today', 'on Monday in the evening', 'at 11pm tomorrow', 'from 3pm to 5pm tomorrow',
    'from tomorrow at 3pm to 5pm', 'tomorrow at 3pm to 5pm', 'from 3pm to next week', 'Monday through Friday', 'at 9am until 5pm',
  ];
  const PT = [
    'hoje', 'amanhã', 'ontem', 'quinta', 'quinta que vem', 'semana que vem', 'mês passado', 'daqui a 3 dias', 'dia 9', 'dia 9 de dezembro',
    'no dia 9 de dezembro à tarde', 'em 9 de dezembro de manhã', '9 de dezembro às 15h', 'amanhã às 15h', 'amanhã das 15h às 17h',
    'de amanhã até sexta', 'de sexta até amanhã', 'amanhã e sexta', 'na quinta-feira à noite', 'hoje à tarde', 'às 15h',
    'entre 1 de dezembro e 4 de dezembro', 'dia 9 à tarde', 'sexta à noite às 20h', 'de 4 de dezembro até 1 de dezembro',
    'dia 9 de dezembro e amanhã à tarde', 'ontem de manhã e hoje', 'amanhã ao meio-dia', 'sexta-feira 13 de manhã',
    'das 15h às 17h de amanhã', 'das 10h às 11h', 'de segunda a sexta', 'das 17h às 15h', 'quinta durante a tarde',
  ];
  const turns: (readonly [string, 'en' | 'pt-BR'])[] = [
    ...EN.flatMap((d) => [[`show my calendar ${d}`, 'en'], [`am I free ${d}?`, 'en'], [`what is on my calendar ${d}`, 'en']] as const),
    ...PT.flatMap((d) => [[`mostre minha agenda ${d}`, 'pt-BR'], [`estou livre ${d}?`, 'pt-BR'], [`o que tenho na agenda ${d}`, 'pt-BR']] as const),
  ];

  it(`ends every planned period after it starts (${turns.length * NOWS.length} turns)`, () => {
    const router = demoRouter();
    let periods = 0;
    for (const now of NOWS) {
      for (const [turn, language] of turns) {
        const plan = router.plan(turn, { language, context: { now } });
        for (const step of plan.steps) {
          const { time_min: from, time_max: to } = step.selection.arguments;
          if (from === undefined && to === undefined) continue;
          expect(typeof from === 'string' && typeof to === 'string', `${turn} at ${now}`).toBe(true);
          expect(Date.parse(from as string) < Date.parse(to as string), `${turn} at ${now}: ${JSON.stringify(from)} to ${JSON.stringify(to)}`).toBe(true);
          periods++;
        }
      }
    }
    expect(periods).toBeGreaterThan(turns.length);
  });

  it('leaves unread two date phrases of different days that are no range, and a range that ends before it starts', () => {
    const now = '2026-11-30T09:00:00Z';
    for (const [turn, language] of [
      ['show my calendar tomorrow and Friday', 'en'],
      ['show my calendar from Friday to tomorrow', 'en'],
      ['am I free December 9 and tomorrow afternoon?', 'en'],
      ['mostre minha agenda de sexta até amanhã', 'pt-BR'],
      ['estou livre amanhã e sexta?', 'pt-BR'],
      ['mostre minha agenda de 4 de dezembro até 1 de dezembro', 'pt-BR'],
      ['show my calendar today for the afternoon', 'en'],
      ['show my calendar for today after 3pm', 'en'],
      ['mostre minha agenda de hoje para a tarde', 'pt-BR'],
    ] as const) {
      const plan = demoRouter().plan(turn, { language, context: { now } });
      expect(plan.outcome, turn).toBe('unread');
      expect(plan.steps.some((s) => s.kind === 'unread' && s.decidedBy.startsWith('U5 unplaced')), turn).toBe(true);
    }
  });
});

describe('ranges of times', () => {
  const NOW = '2026-11-30T09:00:00Z';

  it('ends "from 3pm to 5pm" at 5pm, not an hour after', () => {
    expect(readDates('from 3pm to 5pm', { now: NOW }).map((d) => [d.start, d.end, d.grain])).toEqual([['2026-11-30T15:00:00+00:00', '2026-11-30T17:00:00+00:00', 'range']]);
  });

  it('reads "9am until 5pm" and "Monday through Friday" as ranges with no opening word', () => {
    expect(readDates('today at 9am until 5pm', { now: NOW }).map((d) => [d.start, d.end])).toEqual([['2026-11-30T09:00:00+00:00', '2026-11-30T17:00:00+00:00']]);
    expect(readDates('Monday through Friday', { now: NOW }).map((d) => [d.start, d.end])).toEqual([['2026-11-30T00:00:00+00:00', '2026-12-05T00:00:00+00:00']]);
  });

  it('puts a range of times on the day written with it, before or after', () => {
    const TOMORROW = ['2026-12-01T15:00:00+00:00', '2026-12-01T17:00:00+00:00'];
    for (const [text, language] of [
      ['tomorrow from 3pm to 5pm', 'en'],
      ['from 3pm to 5pm tomorrow', 'en'],
      ['from tomorrow at 3pm to 5pm', 'en'],
      ['amanhã das 15h às 17h', 'pt-BR'],
      ['das 15h às 17h de amanhã', 'pt-BR'],
      ['amanhã, das 15h até 17h', 'pt-BR'],
    ] as const) {
      expect(readDates(text, { now: NOW, language }).map((d) => [d.text, d.start, d.end]), text).toEqual([[text, ...TOMORROW]]);
    }
    expect(readDates('das 10h às 11h', { now: NOW, language: 'pt-BR' }).map((d) => [d.start, d.end])).toEqual([['2026-11-30T10:00:00+00:00', '2026-11-30T11:00:00+00:00']]);
  });

  it('joins a day part written "during the afternoon" to its day', () => {
    const plan = demoRouter().plan('what is on my calendar on December 9 during the afternoon', { context: { now: NOW } });
    expect(plan.steps[0]?.selection.arguments).toEqual({ time_min: '2026-12-09T12:00:00+00:00', time_max: '2026-12-09T18:00:00+00:00' });
  });
});
