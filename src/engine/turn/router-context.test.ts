import { describe, expect, it } from 'vitest';
import { userActor } from '../../core/index.js';
import { demoRouter, planOf, trackedRouterKits } from '../../../test/support/engine-router-kit.js';

const alice = userActor('alice', ['admin']);
let keys = 0;
const key = (): string => `router-context-${++keys}`;
const { kit } = trackedRouterKits();
const onScreen = { kind: 'order', title: 'Order on screen', text: 'Order 4411, paid', value: '4411' };

describe('router context parameters from the page context', () => {
  it('fills a declared context parameter from the page, in that turn and the turns after it', async () => {
    const { engine, calls } = kit({ router: demoRouter({ contextParameters: { order_id: 'order' } }) });
    const first = await engine.ask({ actor: alice, requestKey: key(), text: 'show me this order', context: [onScreen] });
    expect(planOf(first.events)).toMatchObject({ outcome: 'run', steps: [{ tool: 'get_order', arguments: { order_id: '4411' } }] });
    const threadId = first.events[0]!.thread_id;
    // The same page again journals nothing new; the thread's snapshot still fills the parameter.
    const charge = await engine.ask({ actor: alice, threadId, requestKey: key(), text: 'charge 40.00 to this order', context: [onScreen] });
    expect(planOf(charge.events)).toMatchObject({ outcome: 'run', steps: [{ tool: 'charge_card', arguments: { amount: '40.00', order_id: '4411' } }] });
    expect(charge.events.at(-1)).toMatchObject({ type: 'confirm_mutation', input: { amount: '40.00', order_id: '4411' } });
    expect(calls).toEqual([{ name: 'get_order', args: { order_id: '4411' } }]);
  });

  it('leaves a parameter the rulebook does not declare alone: a page item of another kind fills nothing', async () => {
    const { engine } = kit({ router: demoRouter({ contextParameters: { order_id: 'order' } }) });
    const { events } = await engine.ask({ actor: alice, requestKey: key(), text: 'charge 40.00', context: [{ ...onScreen, kind: 'invoice' }] });
    expect(planOf(events).outcome).toBe('ask');
    const undeclared = kit();
    const asked = await undeclared.engine.ask({ actor: alice, requestKey: key(), text: 'charge 40.00', context: [onScreen] });
    expect(planOf(asked.events).outcome).toBe('ask');
  });
});

describe("the router's now in the host's time zone", () => {
  // The kit's clock is Monday 2026-10-19 09:00 UTC: Sunday 23:00 in Honolulu.
  it('reads "tomorrow" in the timeZone setting, and in the request’s zone when it names one', async () => {
    const utc = kit();
    const inUtc = await utc.engine.ask({ actor: alice, requestKey: key(), text: 'what events do I have tomorrow?' });
    expect(planOf(inUtc.events).steps[0]!.arguments).toMatchObject({ time_min: '2026-10-20T00:00:00+00:00' });
    const host = kit({ settings: { timeZone: 'Pacific/Honolulu' } });
    const inHonolulu = await host.engine.ask({ actor: alice, requestKey: key(), text: 'what events do I have tomorrow?' });
    expect(planOf(inHonolulu.events).steps[0]!.arguments).toEqual({ time_min: '2026-10-19T00:00:00-10:00', time_max: '2026-10-20T00:00:00-10:00' });
    const inLisbon = await host.engine.ask({ actor: alice, requestKey: key(), text: 'what events do I have tomorrow?', timeZone: 'Europe/Lisbon', newThread: true });
    expect(planOf(inLisbon.events).steps[0]!.arguments).toMatchObject({ time_min: '2026-10-20T00:00:00+01:00' });
  });

  it('refuses an unknown zone: invalid_time_zone for a request, invalid_engine_settings for the setting', async () => {
    const { engine } = kit();
    const { events } = await engine.ask({ actor: alice, requestKey: key(), text: 'what events do I have tomorrow?', timeZone: 'Mars/Olympus' });
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'invalid_time_zone', message: expect.stringContaining("'Mars/Olympus'") })]);
    expect(() => kit({ settings: { timeZone: 'Nowhere/Else' } })).toThrow(expect.objectContaining({ code: 'invalid_engine_settings' }));
  });
});
