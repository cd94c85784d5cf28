import { describe, expect, it } from 'vitest';
import { runCompute } from './index.js';
import { demoRouter } from '../../test/support/demo-router.js';

describe('runCompute', () => {
  const plan = demoRouter({ compute: true }).plan('what is the average total of orders 4411 and 4412');
  const step = plan.steps[2]!;

  it('computes over the results of the reads the step depends on, in decimal arithmetic', () => {
    expect(runCompute(step, [{ order_id: '4411', total: '0.10' }, { order_id: '4412', total: '0.20' }])).toEqual({ value: '0.15' });
  });

  it('says what is missing rather than guessing', () => {
    expect(runCompute(step, [{ order_id: '4411', total: '0.10' }])).toEqual({ error: 'no result for step 1' });
    expect(runCompute(step, [{ status: 'paid' }, { status: 'paid' }])).toEqual({ error: "a result has no number 'total'" });
    expect(runCompute(plan.steps[0]!, [])).toEqual({ error: 'not a compute step' });
  });

  it('counts, sums and compares in both languages', () => {
    const router = demoRouter({ compute: true });
    const sum = router.plan('qual a soma do total dos pedidos 4411 e 4412', { language: 'pt-BR' });
    expect(runCompute(sum.steps[2]!, [{ total: '40.10' }, { total: '0.20' }])).toEqual({ value: '40.3' });
    const count = router.plan('how many orders 4411 and 4412');
    expect(runCompute(count.steps[2]!, [{ total: 1 }, { total: 2 }])).toEqual({ value: '2' });
  });
});
