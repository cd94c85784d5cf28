import { describe, expect, it } from 'vitest';
import { anonymous, userActor } from '../core/index.js';
import { argumentsMatch, containsFact, formatReport, metricsOf, parseDataset, runDataset } from './index.js';
import type { EvalCaseKit, EvalEngine } from './index.js';

type EvalEvent = { readonly type: string } & Readonly<Record<string, unknown>>;

/** A stand-in engine: each turn text has a script of events; a confirmation continues with the approved or rejected events. */
function scriptedKit(script: Record<string, { send: EvalEvent[]; approve?: EvalEvent[]; reject?: EvalEvent[] }>, log: string[]): EvalCaseKit {
  const engine: EvalEngine = {
    send(request) {
      log.push(`send ${request.text} ${request.threadId ?? 'new'}`);
      return stream(script[request.text]?.send ?? [{ type: 'error', code: 'no_script', message: request.text }]);
    },
    confirm(request) {
      log.push(`confirm ${request.confirmationId} ${request.confirmed}`);
      const entry = Object.values(script).find((item) => item.send.some((event) => event.type === 'confirm_mutation' && event.id === request.confirmationId));
      return stream((request.confirmed ? entry?.approve : entry?.reject) ?? []);
    },
  };
  return { engine, withModel: false, actor: (name) => (name === 'anonymous' ? anonymous : userActor(name, ['admin'])), close: () => Promise.resolve() };
}

async function* stream(events: readonly EvalEvent[]): AsyncIterable<EvalEvent> {
  for (const event of events) {
    await Promise.resolve();
    yield { thread_id: 't1', ...event };
  }
}

const dataset = parseDataset(`
name: tiny
now: '2026-11-30T10:00:00Z'
cases:
  - id: steel
    actor: alice
    language: en
    turns:
      - text: which parts are made of steel?
        kind: read
        expect: { outcome: run, calls: [{ tool: query_part, arguments: { filters: { material__name: Steel } } }], facts: [Bolt, Nut], absent: [Gear] }
  - id: charge
    actor: alice
    language: en
    turns:
      - text: charge order 4411
        kind: ask
        expect: { outcome: ask, calls: [], facts: [amount] }
      - text: '40.00'
        kind: write
        expect: { outcome: run, calls: [{ tool: charge_card, arguments: { order_id: '4411', amount: '40.00' } }], confirm: approve, facts: ['14.00'] }
  - id: unread
    actor: bob
    language: pt-BR
    turns:
      - { text: bom dia, kind: unread, mustBeUnread: true, expect: { outcome: unread } }
      - { text: olá, kind: unread, mustBeUnread: true, expect: { outcome: unread } }
      - text: quantas peças são de aço?
        kind: count
        expect: { outcome: run, calls: [{ tool: query_part, arguments: { filters: { material__name: Steel } } }], compute: count, facts: ['5'] }
`);

const plan = (outcome: string, steps: unknown[] = []): EvalEvent => ({ type: 'plan', outcome, language: 'en', steps });
const done: EvalEvent = { type: 'done', usage: { input_tokens: 0, output_tokens: 0 } };

describe('runDataset', () => {
  it('scores a turn correct when outcome, calls and facts all match, and wrong when the answer states a row it must leave out', async () => {
    const log: string[] = [];
    const script = {
      'which parts are made of steel?': {
        send: [plan('run'), { type: 'tool_call', id: 'c1', name: 'query_part', args: { fields: ['name'], filters: { material__name__iexact: 'steel' } } }, { type: 'tool_result', id: 'c1', name: 'query_part', result: {} }, { type: 'text_chunk', content: 'Parts: Bolt, Nut, Gear.' }, done],
      },
    };
    const results = await runDataset(dataset, { openCase: () => Promise.resolve(scriptedKit(script, log)), filter: (item) => item.id === 'steel' });
    expect(results).toHaveLength(1);
    expect(results[0]?.verdict).toBe('wrong');
    expect(results[0]?.reasons).toEqual(["answer states 'Gear', which it must not"]);
  });

  it('answers a confirmation as the turn expects, on the thread the first turn opened', async () => {
    const log: string[] = [];
    const script = {
      'charge order 4411': { send: [plan('ask'), { type: 'text_chunk', content: 'To charge card, which amount?' }, done] },
      '40.00': {
        send: [plan('run'), { type: 'tool_call', id: 'c2', name: 'charge_card', args: { order_id: '4411', amount: '40.00' } }, { type: 'confirm_mutation', id: 'k1', mutation: 'charge_card', input: {}, expires_at: '' }],
        approve: [{ type: 'tool_result', id: 'c2', name: 'charge_card', result: { balance: '14.00' } }, { type: 'text_chunk', content: 'Charged 40.00; the balance is 14.00.' }, done],
      },
    };
    const results = await runDataset(dataset, { openCase: () => Promise.resolve(scriptedKit(script, log)), filter: (item) => item.id === 'charge', confirmedTools: ['charge_card'] });
    expect(log).toEqual(['send charge order 4411 new', 'send 40.00 t1', 'confirm k1 true']);
    expect(results.map((result) => result.verdict)).toEqual(['correct', 'correct']);
    expect(results[1]?.observed.confirmations).toEqual([{ mutation: 'charge_card', input: {}, decision: 'approve' }]);
  });

  it('counts an unread turn as a coverage miss, an answered must-be-unread turn as wrong, and a count without its compute step as wrong', async () => {
    const log: string[] = [];
    const script = {
      'bom dia': { send: [plan('unread'), { type: 'text_chunk', content: 'Posso ler pedidos e peças.' }, done] },
      'olá': { send: [plan('run', [{ kind: 'tool', tool: 'query_part' }]), { type: 'tool_call', id: 'c3', name: 'query_part', args: {} }, done] },
      'quantas peças são de aço?': {
        send: [plan('run', [{ kind: 'tool', tool: 'query_part' }]), { type: 'tool_call', id: 'c4', name: 'query_part', args: { filters: { material__name: 'Steel' } } }, { type: 'text_chunk', content: '5 peças' }, done],
      },
    };
    const results = await runDataset(dataset, { openCase: () => Promise.resolve(scriptedKit(script, log)), filter: (item) => item.id === 'unread' });
    expect(results.map((result) => result.verdict)).toEqual(['unread', 'wrong', 'wrong']);
    expect(results[1]?.reasons[0]).toMatch(/must be unread/);
    expect(results[2]?.reasons).toEqual(['expected a count step in the plan, found none']);
    expect(results[2]?.afterFailure).toBe(true);
    const metrics = metricsOf(results);
    expect(metrics).toMatchObject({ turns: 3, meantAnswered: 1, answered: 2, correct: 0, mustBeUnread: 2, leftUnread: 1, unreadShare: 0.5 });
    expect(formatReport(results)).toContain('`unread#2` [ANSWERED, MUST BE UNREAD]');
  });

  it('reports a turn that ends with an error event as not answered, with the error, apart from unread turns', async () => {
    const log: string[] = [];
    const script = { 'which parts are made of steel?': { send: [plan('run'), { type: 'error', code: 'tool_failed', message: 'the database went away' }] } };
    const results = await runDataset(dataset, { openCase: () => Promise.resolve(scriptedKit(script, log)), filter: (item) => item.id === 'steel' });
    expect(results[0]).toMatchObject({ answered: false, verdict: 'missed', reasons: ['expected run, got error tool_failed: the database went away'] });
    expect(formatReport(results)).toContain('`steel#1` [ERROR, not answered]');
  });

  it('fails every turn of a case whose kit cannot open, with the error as the reason, and goes on', async () => {
    const results = await runDataset(dataset, {
      openCase: () => Promise.reject(new Error('no database')),
    });
    expect(results).toHaveLength(6);
    expect(results.every((result) => !result.answered)).toBe(true);
    expect(results[0]?.reasons).toEqual(['the case failed to run: no database']);
    expect(metricsOf(results).coverage).toBe(0);
  });
});

describe('parseDataset', () => {
  it('answers eval_dataset_invalid naming the path of a must-be-unread turn expecting an answer', () => {
    const text = `name: x\nnow: '2026-11-30T10:00:00Z'\ncases:\n  - { id: a, actor: alice, language: en, turns: [{ text: hi, kind: read, mustBeUnread: true, expect: { outcome: run } }] }\n`;
    expect(() => parseDataset(text, 'x.yaml')).toThrow(expect.objectContaining({ code: 'eval_dataset_invalid', message: expect.stringContaining('cases.0.turns.0.mustBeUnread') }));
  });

  it('refuses two cases with one id and keys it does not know', () => {
    const text = `name: x\nnow: '2026-11-30T10:00:00Z'\ncases:\n  - { id: a, actor: alice, language: en, turns: [{ text: hi, kind: unread, expect: { outcome: unread } }] }\n  - { id: a, actor: bob, language: en, colour: red, turns: [{ text: hi, kind: unread, expect: { outcome: unread } }] }\n`;
    expect(() => parseDataset(text)).toThrow(/case id 'a' is used twice.*|colour/);
  });

  it('answers eval_dataset_unreadable for text that is not YAML', () => {
    expect(() => parseDataset('a: [1, 2', 'broken.yaml')).toThrow(expect.objectContaining({ code: 'eval_dataset_unreadable' }));
  });
});

describe('argumentsMatch', () => {
  it.each([
    [{ filters: { material__name: 'Steel' } }, { fields: ['name'], filters: { material__name__exact: 'Steel' } }, true],
    [{ filters: { material__name: 'Steel' } }, { filters: { material__name__iexact: 'steel' } }, true],
    [{ filters: { material__name: 'Steel' } }, { filters: { material__name: 'Steel', stock__gt: 1 } }, false],
    [{ filters: {} }, { fields: ['name'] }, true],
    [{ filters: {} }, { filters: { name: 'Bolt' } }, false],
    [{ filters: { unit_price__gt: 20 } }, { filters: { unitPrice__gt: '20' } }, true],
    [{ time_min: '2026-12-03T12:00:00Z' }, { time_min: '2026-12-03T12:00:00+00:00' }, true],
    [{ time_min: '2026-12-03T12:00:00Z' }, { time_min: '2026-12-03T12:00:00+01:00' }, false],
    [{ order_id: '4411' }, { order_id: '4412' }, false],
    [{ amount: '40.00' }, { order_id: '4411' }, false],
  ])('expected %j against %j → %s', (expected, actual, result) => {
    expect(argumentsMatch(expected, actual)).toBe(result);
  });
});

describe('containsFact', () => {
  it.each([
    ['4 open tasks', '4', true],
    ['orders 4411 and 4412', '4', false],
    ['Bearing costs 4.20', '4', false],
    ['There are 4.', '4', true],
    ['Bolts and nuts', 'Bolt', false],
    ['Customer visit: Ana Souza (10:00)', 'Customer visit: Ana Souza', true],
    ['total 74.00', '74.00', true],
  ])('%j states %j → %s', (answer, fact, result) => {
    expect(containsFact(answer, fact)).toBe(result);
  });
});
