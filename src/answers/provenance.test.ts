/** Every value an answer shows carries where it came from: the step, the tool, the row, its id and the field. */
import { describe, expect, it } from 'vitest';
import { writeAnswer } from './index.js';
import type { StepOutcome, ValueSource } from './index.js';
import { item, plan, ptLabel } from './test-plans.js';

const parts = { data: [{ id: '1', name: 'Bolt', unitPrice: '0.35' }, { id: '2', name: 'Nut', unitPrice: '1250.00' }], total_count: 2, has_more: false };
const read = item({ tool: 'query_part', arguments: { fields: ['id', 'name', 'unitPrice'] } });

function at(text: string, source: ValueSource): string {
  return text.slice(source.start, source.end);
}

describe('provenance', () => {
  it('marks each shown value of a list with its row, id and field, at its offsets in the text (en and pt-BR)', () => {
    for (const language of ['en', 'pt-BR'] as const) {
      const steps: StepOutcome[] = [{ kind: 'tool', tool: 'query_part', arguments: read.selection.arguments, result: parts }];
      const answer = writeAnswer({ plan: plan('run', language, 'show parts', [read]), steps, language, label: ptLabel });
      const price = answer.provenance.find((s) => s.id === '2' && s.field === 'unitPrice');
      expect(price).toMatchObject({ step: 0, tool: 'query_part', row: 1 });
      expect(at(answer.text, price!)).toBe(language === 'en' ? '1,250.00' : '1.250,00');
      const name = answer.provenance.find((s) => s.id === '1' && s.field === 'name');
      expect(at(answer.text, name!)).toBe('Bolt');
      for (const source of answer.provenance) expect(source.end).toBeGreaterThan(source.start);
    }
  });

  it('marks a computed value with the compute step and the rows it was computed from', () => {
    const steps: StepOutcome[] = [
      { kind: 'tool', tool: 'query_part', arguments: read.selection.arguments, result: parts },
      { kind: 'compute', value: '1250.35', error: null, operation: 'sum', field: 'unitPrice' },
    ];
    const sum = item({ kind: 'compute', dependsOn: [0], compute: { operation: 'sum', field: 'unitPrice' } });
    const answer = writeAnswer({ plan: plan('run', 'en', 'total unit price of parts', [read, sum]), steps, language: 'en', label: ptLabel });
    const value = answer.provenance.find((s) => s.step === 1);
    expect(value).toMatchObject({ tool: null, field: 'value', row: null });
    expect(at(answer.text, value!)).toBe('1,250.35');
    expect(value?.from).toEqual([{ step: 0, row: 0 }, { step: 0, row: 1 }]);
  });

  it('keeps the offsets true after the answer is cut', () => {
    const many = { data: Array.from({ length: 400 }, (_, i) => ({ id: String(i), name: `Part ${'x'.repeat(40)} ${i}`, unitPrice: '1.00' })), total_count: 400, has_more: false };
    const steps: StepOutcome[] = [{ kind: 'tool', tool: 'query_part', arguments: read.selection.arguments, result: many }];
    const answer = writeAnswer({ plan: plan('run', 'en', 'show parts', [read]), steps, language: 'en', label: ptLabel });
    for (const source of answer.provenance) expect(source.end).toBeLessThanOrEqual(answer.text.length);
    for (const source of answer.provenance.filter((s) => s.field === 'name')) expect(at(answer.text, source)).toMatch(/^Part x+ \d+$/);
  });
});
