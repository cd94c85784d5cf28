import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from './index.js';
import { demoRouter } from '../../test/support/demo-router.js';

const router = demoRouter({ compute: true });
const NOW = { now: '2026-10-19T09:00:00-03:00' };

const words = fc.constantFrom(
  'show', 'order', 'orders', '4411', 'and', 'then', 'charge', '40.00', '40,00', 'pedido', 'cobre', 'e', 'depois', 'amanhã', 'quinta', 'à', 'tarde',
  'Thursday', 'afternoon', 'am', 'I', 'free', 'create', 'a', 'project', 'called', '"Alpha"', 'add', 'task', 'to', 'it', 'https://x.invalid/a', 'ana@example.com',
  '#general', 'average', 'total', 'of', 'next', 'week', '15h', '3pm', 'refund', 'or', 'send', 'receipt', 'estou', 'livre', 'média', '', ' ', ',', '?',
);

describe('plan never throws', () => {
  it('on arbitrary text, in both languages, always with one of the four outcomes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.constantFrom('en', 'pt-BR'), fc.boolean(), (text, language, withNow) => {
        const plan = router.plan(text, { language, ...(withNow ? { context: NOW } : {}) });
        expect(OUTCOMES).toContain(plan.outcome);
        expect(plan.steps.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('on sentences made of the words it reads', () => {
    fc.assert(
      fc.property(fc.array(words, { maxLength: 25 }), fc.constantFrom('en', 'pt-BR'), (parts, language) => {
        const plan = router.plan(parts.join(' '), { language, context: NOW });
        expect(OUTCOMES).toContain(plan.outcome);
        expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
      }),
      { numRuns: 400 },
    );
  });

  it('on binary-ish and very long input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const text = String.fromCharCode(...bytes);
        expect(OUTCOMES).toContain(router.plan(text, { context: NOW }).outcome);
      }),
      { numRuns: 100 },
    );
    const long = 'show me order 4411 and '.repeat(5000);
    expect(router.plan(long).outcome).toBe('unread');
    expect(router.plan('\u0000\uffff\ud800 order \u{1f600}4411').outcome).toMatch(/^(run|ask|declined|unread)$/);
  });

  it('reads the same turn the same way every time', () => {
    fc.assert(
      fc.property(fc.array(words, { maxLength: 15 }), (parts) => {
        const text = parts.join(' ');
        expect(JSON.stringify(router.plan(text, { context: NOW }))).toBe(JSON.stringify(router.plan(text, { context: NOW })));
      }),
      { numRuns: 100 },
    );
  });
});

describe('a session never throws on its turns', () => {
  it('whatever the sequence of turns', () => {
    fc.assert(
      fc.property(fc.array(fc.array(words, { maxLength: 10 }), { maxLength: 6 }), (turns) => {
        const chat = router.session({ context: NOW });
        for (const parts of turns) expect(OUTCOMES).toContain(chat.read(parts.join(' ')).outcome);
      }),
      { numRuns: 100 },
    );
  });
});
