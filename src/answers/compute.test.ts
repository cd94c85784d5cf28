import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../core/index.js';
import { renderAnswer } from './index.js';
import type { StepOutcome } from './index.js';
import { item, plan, ptLabel } from './test-plans.js';
import type { Language } from '../router/index.js';

const openApollo = { fields: ['id'], filters: { status: 'open', project__name: 'Apollo' } };

function countOpenTasks(language: Language, value: string | null, error: string | null = null): string {
  return renderAnswer({
    language,
    label: ptLabel,
    plan: plan('run', language, 'how many open tasks does Apollo have?', [
      item({ tool: 'query_task', arguments: openApollo }),
      item({ kind: 'compute', dependsOn: [0], compute: { operation: 'count', field: null } }),
    ]),
    steps: [
      { kind: 'tool', tool: 'query_task', arguments: openApollo, result: { data: [{ id: '4' }, { id: '5' }, { id: '9' }], total_count: 3, has_more: false } },
      { kind: 'compute', value, error, operation: 'count', field: null },
    ],
  });
}

describe('counts and computed values', () => {
  it('gives a count with what it counted and the filters it counted by (en)', () => {
    expect(countOpenTasks('en', '3')).toBe('3 tasks (count of tasks where status is open, project name is Apollo).');
  });

  it('gives a count with what it counted and the filters it counted by (pt-BR)', () => {
    expect(countOpenTasks('pt-BR', '3')).toBe('3 tarefas (contagem de tarefas com status open, project name Apollo).');
  });

  it('uses the singular for a count of one', () => {
    expect(countOpenTasks('en', '1')).toBe('1 task (count of tasks where status is open, project name is Apollo).');
    expect(countOpenTasks('pt-BR', '1')).toBe('1 tarefa (contagem de tarefas com status open, project name Apollo).');
  });

  it('says plainly when a calculation failed, with its message', () => {
    expect(countOpenTasks('en', null, 'no results to compute over')).toBe('Could not compute the count: no results to compute over');
    expect(countOpenTasks('pt-BR', null, 'no results to compute over')).toBe('Não foi possível calcular (contagem): no results to compute over');
  });

  function sumOfTotals(language: Language, operation: 'sum' | 'percentage', value: string): string {
    const order = (id: string, total: string): JsonObject => ({ order_id: id, status: 'paid', total });
    const steps: StepOutcome[] = [
      { kind: 'tool', tool: 'get_order', arguments: { order_id: '4411' }, result: order('4411', '74.00') },
      { kind: 'tool', tool: 'get_order', arguments: { order_id: '4412' }, result: order('4412', '120.50') },
      { kind: 'compute', value, error: null, operation, field: 'total' },
    ];
    return renderAnswer({
      language,
      label: ptLabel,
      plan: plan('run', language, 'what is the sum of the totals of orders 4411 and 4412?', [
        item({ tool: 'get_order', arguments: { order_id: '4411' } }),
        item({ tool: 'get_order', arguments: { order_id: '4412' } }),
        item({ kind: 'compute', dependsOn: [0, 1], compute: { operation, field: 'total' } }),
      ]),
      steps,
    });
  }

  it('gives a computed value with each value it was computed from (en and pt-BR)', () => {
    expect(sumOfTotals('en', 'sum', '194.5')).toBe('Sum of total: 194.5 (over order 4411: 74.00; order 4412: 120.50).');
    expect(sumOfTotals('pt-BR', 'sum', '194.5')).toBe('Soma de total: 194,5 (sobre pedido 4411: 74,00; pedido 4412: 120,50).');
  });

  it('marks a percentage as one', () => {
    expect(sumOfTotals('en', 'percentage', '61.4108')).toBe('Percentage of total: 61.4108% (over order 4411: 74.00; order 4412: 120.50).');
  });

  it('gives a value computed over a query with its filters', () => {
    const args = { fields: ['density'], filters: { name__icontains: 'steel' } };
    const answer = renderAnswer({
      language: 'en',
      label: ptLabel,
      plan: plan('run', 'en', 'average density of steels', [
        item({ tool: 'query_material', arguments: args }),
        item({ kind: 'compute', dependsOn: [0], compute: { operation: 'average', field: 'density' } }),
      ]),
      steps: [
        { kind: 'tool', tool: 'query_material', arguments: args, result: { data: [{ density: '7.85' }, { density: '8.00' }], total_count: 2, has_more: false } },
        { kind: 'compute', value: '7.925', error: null, operation: 'average', field: 'density' },
      ],
    });
    // An average is written to the scale of the values it was computed from (7.925 → 7.93).
    expect(answer).toBe('Average density of materials where name contains steel: 7.93 (over 2 materials).');
  });

  it('writes an exact average at its own places, a rounded one at two (never 12,760.00 over whole numbers)', () => {
    const average = (rows: JsonValue[], value: string): string =>
      renderAnswer({
        language: 'en',
        label: ptLabel,
        plan: plan('run', 'en', 'average density of materials', [
          item({ tool: 'query_material', arguments: { fields: ['density'] } }),
          item({ kind: 'compute', dependsOn: [0], compute: { operation: 'average', field: 'density' } }),
        ]),
        steps: [
          { kind: 'tool', tool: 'query_material', arguments: { fields: ['density'] }, result: { data: rows, total_count: rows.length, has_more: false } },
          { kind: 'compute', value, error: null, operation: 'average', field: 'density' },
        ],
      });
    expect(average([{ density: 12000 }, { density: 13520 }], '12760')).toBe('Average density of materials: 12,760 (over 2 materials).');
    expect(average([{ density: 31.5 }, { density: 26.5 }], '29')).toBe('Average density of materials: 29 (over 2 materials).');
    expect(average([{ density: 1 }, { density: 2 }, { density: 2 }], '1.6666666667')).toBe('Average density of materials: 1.67 (over 3 materials).');
    // Decimals keep the scale they are written at.
    expect(average([{ density: '19.40' }, { density: '20.00' }], '19.7')).toBe('Average density of materials: 19.70 (over 2 materials).');
  });

  it('still says a failed read a calculation depended on', () => {
    const answer = renderAnswer({
      language: 'en',
      plan: plan('run', 'en', 'how many open tasks does Apollo have?', [
        item({ tool: 'query_task', arguments: openApollo }),
        item({ kind: 'compute', dependsOn: [0], compute: { operation: 'count', field: null } }),
      ]),
      steps: [
        { kind: 'tool', tool: 'query_task', arguments: openApollo, result: { error: { code: 'tool_timeout', message: 'The query took longer than 10 s.' } } },
        { kind: 'compute', value: null, error: 'no result for step 0', operation: 'count', field: null },
      ],
    });
    expect(answer).toBe('query_task failed (tool_timeout): The query took longer than 10 s.\n\nCould not compute the count: no result for step 0');
  });
});
