import { describe, expect, it } from 'vitest';
import { createRouter } from './index.js';

const period = { type: 'string', format: 'date-time' } as const;

/** A calendar read whose period is optional: a date the plan cannot place must not be dropped silently. */
const router = createRouter({
  secret: 'x'.repeat(32),
  rulebook: { compute: true },
  catalogue: [{ name: 'list_events', description: 'List the calendar events.', effect: 'read', parameters: { type: 'object', properties: { time_min: period, time_max: period } } }],
  vocabulary: { languages: { en: { tools: { list_events: { triggers: ['events'] } } } } },
});

describe('dates the plan cannot place', () => {
  it('leave a counting turn unread rather than counting over no period', () => {
    const plan = router.plan('how many events tomorrow and Friday', { context: { now: '2026-11-30T09:00:00Z' } });
    expect(plan.outcome).toBe('unread');
    expect(plan.steps.some((step) => step.decidedBy.startsWith('U5 unplaced'))).toBe(true);
  });

  it('still count over the one period a turn names', () => {
    const plan = router.plan('how many events tomorrow', { context: { now: '2026-11-30T09:00:00Z' } });
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ time_min: '2026-12-01T00:00:00+00:00', time_max: '2026-12-02T00:00:00+00:00' });
    expect(plan.steps[1]).toMatchObject({ kind: 'compute', compute: { operation: 'count' } });
  });
});
