import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../core/index.js';
import type { Language, PlanItem } from '../router/index.js';
import { MAX_ANSWER_CHARS, MAX_ROWS, renderAnswer } from './index.js';
import type { StepOutcome } from './index.js';
import { formatDateTime, formatScalar } from './locale.js';
import { heldNumbers, item, NUMBER, plan, ptLabel } from './test-plans.js';

const decimal = fc.tuple(fc.nat({ max: 99999 }), fc.nat({ max: 99 })).map(([a, b]) => `${a}.${String(b).padStart(2, '0')}`);
const date = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
const name = fc.stringMatching(/^[A-Za-zÀ-ú][A-Za-zÀ-ú0-9 ]{0,12}$/);
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(decimal, date, name, fc.integer({ min: -1000, max: 100000 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const row: fc.Arbitrary<JsonObject> = fc.record({
  id: fc.nat({ max: 1_000_000 }).map(String),
  name,
  price: decimal,
  at: date,
  extra: scalar,
  lines: fc.array(fc.record({ part: name, quantity: fc.nat({ max: 500 }), unit_price: decimal }), { maxLength: 3 }),
});
const filters = fc.dictionary(fc.constantFrom('status', 'material__name', 'density__gt', 'price__lte', 'project__name'), scalar, { maxKeys: 3 });

interface Case {
  readonly step: PlanItem;
  readonly outcomes: readonly StepOutcome[];
  readonly extra?: PlanItem;
}

const queryCase: fc.Arbitrary<Case> = fc
  .tuple(fc.array(row, { maxLength: 30 }), fc.nat({ max: 50 }), filters, fc.boolean())
  .map(([rows, more, f, counted]) => {
    const args = { fields: ['id', 'name'], filters: f };
    const result = { data: rows, total_count: rows.length + more, has_more: more > 0 };
    const step = item({ tool: 'query_part', arguments: args });
    const tool: StepOutcome = { kind: 'tool', tool: 'query_part', arguments: args, result };
    if (!counted) return { step, outcomes: [tool] };
    return {
      step,
      outcomes: [tool, { kind: 'compute', value: String(result.total_count), error: null, operation: 'count', field: null }],
      extra: item({ kind: 'compute', compute: { operation: 'count', field: null } }),
    };
  });
const recordCase: fc.Arbitrary<Case> = fc.tuple(row, fc.nat({ max: 99999 }).map(String)).map(([record, id]) => ({
  step: item({ tool: 'get_order', arguments: { order_id: id } }),
  outcomes: [{ kind: 'tool', tool: 'get_order', arguments: { order_id: id }, result: { order_id: id, ...record } }],
}));
const listCase: fc.Arbitrary<Case> = fc.tuple(fc.array(row, { maxLength: 25 }), date, date, fc.boolean()).map(([rows, from, to, free]) => ({
  step: item({ tool: 'list_events', arguments: { time_min: from, time_max: to }, decidedBy: free ? 'D1 availability' : 'T1 trigger events' }),
  outcomes: [{ kind: 'tool', tool: 'list_events', arguments: { time_min: from, time_max: to }, result: rows }],
}));
const writeCase: fc.Arbitrary<Case> = fc.tuple(fc.nat({ max: 99999 }).map(String), decimal, fc.oneof(row, scalar)).map(([order, amount, result]) => ({
  step: item({ tool: 'charge_card', arguments: { order_id: order, amount }, confirmation: `Charge card with order id ${order} and amount ${amount}?` }),
  outcomes: [{ kind: 'tool', tool: 'charge_card', arguments: { order_id: order, amount }, result }],
}));

describe('grounding', () => {
  it('writes no number that the plan and results do not hold, apart from row counts it states', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(queryCase, recordCase, listCase, writeCase), { minLength: 1, maxLength: 3 }), fc.constantFrom<Language>('en', 'pt-BR'), (cases, language) => {
        const items: PlanItem[] = [];
        const outcomes: StepOutcome[] = [];
        for (const c of cases) {
          const first = items.length;
          items.push(c.step);
          if (c.extra !== undefined) items.push({ ...c.extra, dependsOn: [first] });
          outcomes.push(...c.outcomes);
        }
        const turnPlan = plan('run', language, 'a turn', items);
        const answer = renderAnswer({ plan: turnPlan, steps: outcomes, language, label: ptLabel });
        const held = new Set<string>();
        heldNumbers(JSON.parse(JSON.stringify({ turnPlan, outcomes })) as JsonValue, language, held);
        // Counts the renderer states about rows: how many a list has, and how many past the bound were left out.
        for (const o of outcomes) {
          if (o.kind !== 'tool') continue;
          const page = typeof o.result === 'object' && o.result !== null && !Array.isArray(o.result) ? (o.result as { data?: unknown; total_count?: unknown }) : null;
          const rows = Array.isArray(o.result) ? o.result : page?.data;
          if (!Array.isArray(rows)) continue;
          const total = typeof page?.total_count === 'number' ? page.total_count : rows.length;
          held.add(String(rows.length));
          held.add(String(total - Math.min(rows.length, MAX_ROWS)));
        }
        held.add(String(MAX_ANSWER_CHARS));
        for (const number of answer.match(NUMBER) ?? []) expect(held, `${number} in:\n${answer}`).toContain(number);
        expect(answer.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
      }),
      { numRuns: 300 },
    );
  });

  it('writes every decimal and date of a row it shows exactly as the locale writes it', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: MAX_ROWS }), (rows) => {
        const args = { fields: ['id', 'price', 'at'] };
        const answer = renderAnswer({
          language: 'en',
          plan: plan('run', 'en', 'show parts', [item({ tool: 'query_part', arguments: args })]),
          steps: [{ kind: 'tool', tool: 'query_part', arguments: args, result: { data: rows, total_count: rows.length, has_more: false } }],
        });
        for (const r of rows) {
          expect(answer).toContain(formatScalar(r['price'] as string, 'price', 'en'));
          expect(answer).toContain(formatDateTime(r['at'] as string, 'en'));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same answer for the same input', () => {
    fc.assert(
      fc.property(fc.oneof(queryCase, recordCase, listCase, writeCase), (c) => {
        const input = { plan: plan('run', 'pt-BR', 'x', [c.step, ...(c.extra === undefined ? [] : [{ ...c.extra, dependsOn: [0] }])]), steps: c.outcomes, language: 'pt-BR' as const, label: ptLabel };
        expect(renderAnswer(input)).toBe(renderAnswer(input));
      }),
      { numRuns: 100 },
    );
  });
});
