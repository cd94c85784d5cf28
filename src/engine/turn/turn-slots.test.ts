import { describe, expect, it } from 'vitest';
import { collect, createEngine } from '../index.js';
import { alice, bob, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

/** Each turn calls the gated write tool `touch` once, then answers. */
const touchThenAnswer = {
  completions: [
    { repeat: true, when: { toolName: 'touch' }, text: 'Touched.' },
    { repeat: true, toolCalls: [{ name: 'touch', arguments: { id: 1 } }] },
  ],
};

function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

/** Alice's turn holds the only slot (its write tool waits on the gate); Bob's is sent after it. */
async function aliceThenBob(settings: Parameters<typeof kit>[1]) {
  const held = gate();
  const made = kit(touchThenAnswer, { maxConcurrentTurns: 1, ...settings }, { gate: held.promise });
  const first = collect(made.engine.send({ actor: alice, requestKey: key(), text: 'first' }));
  await tick();
  const second = collect(made.engine.send({ actor: bob, requestKey: key(), text: 'second' }));
  await tick();
  return { made, first, second, open: held.open };
}

describe('turns at once (maxConcurrentTurns)', () => {
  it('accepts a turn beyond the limit and runs it, in order, once a running turn ends', async () => {
    const { made, first, second, open } = await aliceThenBob({});
    // The second turn is accepted (its user item is in the journal) but has not reached the provider.
    expect(made.provider!.requests).toHaveLength(1);
    const bobThreads = await made.engine.threads.list(bob);
    expect(bobThreads).toHaveLength(1);
    open();
    const [a, b] = await Promise.all([first, second]);
    expect(a.answer).toBe('Touched.');
    expect(b.answer).toBe('Touched.');
    expect(made.provider!.requests).toHaveLength(4);
    expect(made.writes).toHaveLength(2);
  });

  it('refuses a message with server_busy when the waiting room is full, writing nothing', async () => {
    const { made, first, second, open } = await aliceThenBob({ maxWaitingTurns: 0 });
    const { events } = await second;
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'server_busy' })]);
    expect(await made.engine.threads.list(bob)).toHaveLength(0);
    open();
    expect((await first).answer).toBe('Touched.');
  });

  it('ends a waiting turn cancelled at once when it is cancelled, without a provider round', async () => {
    const { made, first, second, open } = await aliceThenBob({});
    const [thread] = await made.engine.threads.list(bob);
    const turn = await made.engine.cancel({ threadId: thread!.id, mode: 'immediate' });
    expect(turn).toMatchObject({ status: 'cancelled' });
    expect((await second).events.at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
    expect(made.provider!.requests).toHaveLength(1);
    open();
    expect((await first).answer).toBe('Touched.');
  });

  it('ends a waiting turn at once on a graceful cancel too, since nothing of it is running', async () => {
    const { made, first, second, open } = await aliceThenBob({ gracefulCancelMs: 60_000 });
    const [thread] = await made.engine.threads.list(bob);
    expect(await made.engine.cancel({ threadId: thread!.id, mode: 'graceful' })).toMatchObject({ status: 'cancelled' });
    expect((await second).events.at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
    expect(made.provider!.requests).toHaveLength(1);
    open();
    expect((await first).answer).toBe('Touched.');
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => createEngine({ store: kit(undefined).store, tools: [], settings: { maxConcurrentTurns: 0 } })).toThrow(/maxConcurrentTurns/);
  });
});
