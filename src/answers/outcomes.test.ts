import { describe, expect, it } from 'vitest';
import type { Language } from '../router/index.js';
import { renderAnswer } from './index.js';
import { item, oneStep, plan, ptLabel } from './test-plans.js';

const thursday = { time_min: '2026-12-03T12:00:00-03:00', time_max: '2026-12-03T18:00:00-03:00' };

describe('calendar availability', () => {
  const ask = (language: Language, events: { id: string; title: string; start: string; end: string }[]): string =>
    oneStep(language, 'am I free on Thursday afternoon?', 'list_events', thursday, events, { decidedBy: 'D1 availability' });

  it('says the period is free when nothing overlaps it (en and pt-BR)', () => {
    expect(ask('en', [])).toBe('You are free from Dec 3, 2026, 12:00 UTC-03:00 to Dec 3, 2026, 18:00 UTC-03:00: nothing on the calendar overlaps.');
    expect(ask('pt-BR', [])).toBe('Você está livre de 03/12/2026, 12:00 UTC-03:00 a 03/12/2026, 18:00 UTC-03:00: nada na agenda se sobrepõe.');
  });

  it('lists the events that overlap the period (en and pt-BR)', () => {
    const events = [{ id: '5', title: 'Design review', start: '2026-12-03T15:00:00.000Z', end: '2026-12-03T16:00:00.000Z' }];
    expect(ask('en', events)).toBe(
      'You are not free from Dec 3, 2026, 12:00 UTC-03:00 to Dec 3, 2026, 18:00 UTC-03:00; 1 event in that period:\n- Design review — start: Dec 3, 2026, 15:00 UTC, end: Dec 3, 2026, 16:00 UTC',
    );
    expect(ask('pt-BR', events)).toBe(
      'Você não está livre de 03/12/2026, 12:00 UTC-03:00 a 03/12/2026, 18:00 UTC-03:00; 1 evento nesse período:\n- Design review — start: 03/12/2026, 15:00 UTC, end: 03/12/2026, 16:00 UTC',
    );
  });
});

describe('plans that run nothing', () => {
  it('answers an ask with the step\'s question', () => {
    const asking = plan('ask', 'en', 'charge order 4411', [item({ kind: 'ask', tool: 'charge_card', arguments: { order_id: '4411' }, question: 'To charge card, which amount?' })]);
    expect(renderAnswer({ plan: asking, steps: [], language: 'en' })).toBe('To charge card, which amount?');
    const pt = plan('ask', 'pt-BR', 'cobre o pedido 4411', [item({ kind: 'ask', tool: 'charge_card', question: 'Para cobrar o cartão, qual valor?' })]);
    expect(renderAnswer({ plan: pt, steps: [], language: 'pt-BR' })).toBe('Para cobrar o cartão, qual valor?');
  });

  it('answers a declined calculation with its reason in the turn\'s language', () => {
    const rule = 'compute off: average, total is a calculation, and this host runs none';
    const declined = (language: Language) =>
      plan('declined', language, 'what is the average total of orders 4411 and 4412', [item({ kind: 'decline', decidedBy: rule, text: 'average, total' })], { declinedBecause: rule });
    expect(renderAnswer({ plan: declined('en'), steps: [], language: 'en' })).toBe('I cannot do that: average, total is a calculation, and calculations are turned off here.');
    expect(renderAnswer({ plan: declined('pt-BR'), steps: [], language: 'pt-BR' })).toBe('Não posso fazer isso: average, total é um cálculo, e os cálculos estão desligados aqui.');
  });

  it('answers a declined destination with the destination', () => {
    const rule = 'S2 destination: https://receipts.invalid/drop';
    const declined = plan('declined', 'en', 'send the receipt for order 4411 to https://receipts.invalid/drop', [item({ kind: 'decline', decidedBy: rule, tool: 'send_receipt' })], { declinedBecause: rule });
    expect(renderAnswer({ plan: declined, steps: [], language: 'en' })).toBe('I cannot send anything to https://receipts.invalid/drop: no tool here takes that destination.');
    expect(renderAnswer({ plan: { ...declined, language: 'pt-BR' }, steps: [], language: 'pt-BR' })).toBe(
      'Não posso enviar nada para https://receipts.invalid/drop: nenhuma ferramenta aqui aceita esse destino.',
    );
  });

  it('answers a decline by another rule with the plan\'s reason as written', () => {
    const declined = plan('declined', 'en', 'wire the money', [], { declinedBecause: 'R4 forbidden by the host' });
    expect(renderAnswer({ plan: declined, steps: [], language: 'en' })).toBe('I cannot do that: R4 forbidden by the host.');
  });

  it('answers an unread turn with the guidance, or a plain statement when there is none', () => {
    const guidance = { next: 'Rephrase' as const, render: 'I could not read that. Say what to do and to what, for example: "show me order 4411".', evidence: [] };
    const unread = plan('unread', 'en', 'zork the frobnicator', [item({ kind: 'unread', decidedBy: 'U1 nothing convincing' })], { guidance });
    expect(renderAnswer({ plan: unread, steps: [], language: 'en' })).toBe(guidance.render);
    const deferred = plan('unread', 'pt-BR', 'zork', [item({ kind: 'unread' })], { guidance: { next: 'Defer', render: null, evidence: [] } });
    expect(renderAnswer({ plan: deferred, steps: [], language: 'pt-BR' })).toBe('Não consegui entender isso.');
  });
});

describe('bounds', () => {
  it('cuts a very long answer at a line and says so', () => {
    const long = 'x'.repeat(250);
    const rows = Array.from({ length: 20 }, (_, i) => ({ id: String(i + 1), a: long, b: long, c: long }));
    const steps = Array.from({ length: 3 }, () => item({ tool: 'query_part', arguments: { fields: ['id'] } }));
    const answer = renderAnswer({
      language: 'en',
      label: ptLabel,
      plan: plan('run', 'en', 'show parts', steps),
      steps: steps.map(() => ({ kind: 'tool' as const, tool: 'query_part', arguments: { fields: ['id'] }, result: { data: rows, total_count: 20, has_more: false } })),
    });
    expect(answer.length).toBeLessThanOrEqual(8000);
    expect(answer.endsWith('\n… (answer cut at 8000 characters)')).toBe(true);
  });

  it('cuts a single very long value', () => {
    const answer = oneStep('en', 'show part 1', 'query_part', { fields: ['id'] }, { data: [{ id: '1', note: 'y'.repeat(1000) }], total_count: 1, has_more: false });
    expect(answer).toBe(`1 part:\n- 1 — note: ${'y'.repeat(299)}…`);
  });
});
