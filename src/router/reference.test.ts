import { describe, expect, it } from 'vitest';
import { sessionFromJSON } from './index.js';
import { demoRouter } from '../../test/support/demo-router.js';

describe('the reference examples, against the demo', () => {
  it('reads the four turns of a session that hands unread turns to the model', () => {
    const chat = demoRouter().session({ agent: 'desk', onUnread: 'model' });
    const lines: string[] = [];
    for (const turn of [
      'zork the frobnicator',
      'zork the frobnicator',
      'what is the average total of orders 4411 and 4412',
      'send the receipt for order 4411 to https://receipts.invalid/drop',
    ]) {
      const plan = chat.read(turn);
      lines.push(`'${turn}': ${plan.outcome} | next ${plan.guidance?.next ?? 'None'} | to the model ${JSON.stringify(plan.toModel)}`);
      if (plan.declinedBecause !== null) lines.push(`  declined because: ${plan.declinedBecause}`);
    }
    expect(lines).toEqual([
      "'zork the frobnicator': unread | next Rephrase | to the model [0]",
      "'zork the frobnicator': unread | next Defer | to the model [0]",
      "'what is the average total of orders 4411 and 4412': declined | next None | to the model []",
      '  declined because: compute off: average, total is a calculation, and this host runs none',
      "'send the receipt for order 4411 to https://receipts.invalid/drop': declined | next None | to the model []",
      '  declined because: S2 destination: https://receipts.invalid/drop',
    ]);
  });

  it('asks for the amount, stores the session, and completes the charge on a restored session', () => {
    const router = demoRouter();
    const chat = router.session({ agent: 'desk', onUnread: 'model' });
    const first = chat.read('charge order 4411');
    expect(`${first.outcome} | ${first.steps[0]?.selection.question}`).toBe('ask | To charge card, which amount?');

    const saved = chat.toJSON();
    expect(Object.keys(JSON.parse(saved) as object).sort()).toEqual([
      'agent', 'answerSettings', 'answered', 'catalogue', 'context', 'format', 'history', 'onUnread', 'rulebook', 'sessionId', 'turns',
    ]);

    const restored = sessionFromJSON(router, saved);
    const plan = restored.read('the amount is 40.00');
    const step = plan.steps[0];
    expect(plan.outcome).toBe('run');
    expect(step?.selection.tool).toBe('charge_card');
    expect(step?.selection.arguments).toEqual({ amount: '40.00', order_id: '4411' });
    expect(Object.keys(step?.selection.arguments ?? {})).toEqual(['amount', 'order_id']);
    expect(step?.selection.sources).toEqual({ amount: 'reply', order_id: 'turn' });
  });

  it('makes one read step per value, in the order typed, each decided by its rule', () => {
    const plan = demoRouter().plan('show me orders 4411 and 4412');
    expect(plan.outcome).toBe('run');
    expect(plan.steps.map((s) => [s.selection.tool, s.selection.arguments['order_id'], s.decidedBy])).toEqual([
      ['get_order', '4411', 'M1 each order_id'],
      ['get_order', '4412', 'M1 each order_id'],
    ]);
  });

  it('asks which value a write takes when several are given', () => {
    const plan = demoRouter().plan('charge orders 4411 and 4412 40.00');
    expect(plan.outcome).toBe('ask');
    expect(plan.steps[0]?.decidedBy).toBe('Q2 several order_id: 4411, 4412');
    expect(plan.steps[0]?.selection.missing).toEqual(['order_id']);
    expect(plan.steps[0]?.selection.question).toBe('To charge card, which order id: 4411 or 4412?');
  });

  it('names the made thing in supplied and depends on the step that makes it', () => {
    const plan = demoRouter().plan('create a project called Alpha and then add a task "Write the brief" to it');
    expect(plan.outcome).toBe('run');
    expect(plan.steps.map((s) => s.selection.tool)).toEqual(['create_project', 'add_task']);
    expect(plan.steps[0]?.selection.arguments).toEqual({ name: 'Alpha' });
    expect(plan.steps[1]?.supplied).toEqual({ project_id: 0 });
    expect(plan.steps[1]?.dependsOn).toEqual([0]);
    expect(plan.steps[1]?.selection.sources).toEqual({ project_id: 'step 0', title: 'turn' });
  });

  it('creates nothing the turn did not ask for', () => {
    const plan = demoRouter().plan('add a task "Write the brief"');
    expect(plan.steps.map((s) => s.selection.tool)).toEqual(['add_task']);
    expect(plan.outcome).toBe('ask');
    expect(plan.steps[0]?.selection.missing).toEqual(['project_id']);
  });

  it('reads "am I free on Thursday afternoon?" as listing the events of that period', () => {
    const plan = demoRouter().plan('am I free on Thursday afternoon?', { context: { now: '2026-10-19T09:00:00+01:00' } });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.decidedBy).toBe('D1 availability');
    expect(plan.steps[0]?.selection.arguments).toEqual({ time_max: '2026-10-22T18:00:00+01:00', time_min: '2026-10-22T12:00:00+01:00' });
  });

  it('stamps every plan with what it was read against', () => {
    const router = demoRouter();
    const plan = router.plan('show me order 4411');
    expect(plan.catalogueVersion).toBe(router.catalogueVersion);
    expect(plan.vocabularyDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });
});
