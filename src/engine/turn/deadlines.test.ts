import { describe, expect, it } from 'vitest';
import { errorOf } from '../shared/index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

/** Text that trickles: a chunk every `everyMs`, far longer in all than any bound below. */
const trickle = (everyMs: number) => ({ text: Array.from({ length: 200 }, (_, index) => `w${index} `), chunkDelayMs: everyMs });

describe('the turn deadline (turnDeadlineSeconds)', () => {
  it('ends a turn whose model is slow to start with deadline_exceeded, journaled as its failure', async () => {
    const made = kit({ completions: [{ text: 'late', delayMs: 60_000 }] }, { turnDeadlineSeconds: 0.2, timeoutSeconds: 120 });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'deadline_exceeded', message: expect.stringContaining('turnDeadlineSeconds') });
    const turn = await made.store.getTurn(events[0]!.turn_id);
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'deadline_exceeded' });
    const items = await made.store.listItems(events[0]!.thread_id);
    expect(errorOf(items.at(-1)!).code).toBe('deadline_exceeded');
  });

  it('stops a stream that keeps trickling, whatever its between-events clock says', async () => {
    const made = kit({ completions: [trickle(20)] }, { turnDeadlineSeconds: 0.3, streamTimeoutSeconds: 30, attemptTimeoutSeconds: 120 });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    expect(events.some((event) => event.type === 'text_chunk')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'deadline_exceeded' });
    expect(events.filter((event) => event.type === 'text_chunk').length).toBeLessThan(200);
  });

  it('is what ends a turn whose deadline passes while a provider retry waits', async () => {
    const made = kit({ completions: [trickle(20), { text: 'never' }] }, { attemptTimeoutSeconds: 0.1, turnDeadlineSeconds: 0.4, retry: { backoffMs: [60_000], jitter: 0 } });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    expect(events.filter((event) => event.type === 'retry')).toEqual([expect.objectContaining({ code: 'provider_timeout' })]);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'deadline_exceeded' });
  });

  it('can be retried', async () => {
    const made = kit({ completions: [{ text: 'late', delayMs: 60_000 }, { text: 'In time.' }] }, { turnDeadlineSeconds: 0.2, timeoutSeconds: 120 });
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    expect(first.events.at(-1)).toMatchObject({ code: 'deadline_exceeded' });
    let answer = '';
    for await (const event of made.engine.retry({ actor: alice, turnId: first.events[0]!.turn_id, requestKey: key() })) if (event.type === 'text_chunk') answer += event.content;
    expect(answer).toBe('In time.');
  });

  it('does not count a run paused on a confirmation', async () => {
    const made = kit(
      { completions: [{ toolCalls: [{ id: 'w1', name: 'create_part', arguments: { name: 'Gear' } }] }, { when: { toolName: 'create_part' }, text: 'Created.' }] },
      { turnDeadlineSeconds: 0.3 },
    );
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'create a gear' });
    const confirmation = events.find((event) => event.type === 'confirm_mutation')!;
    await new Promise((resolve) => setTimeout(resolve, 500));
    let answer = '';
    for await (const event of made.engine.confirm({ actor: alice, confirmationId: confirmation.id, confirmed: true })) if (event.type === 'text_chunk') answer += event.content;
    expect(answer).toBe('Created.');
  });
});

describe('the per-attempt cap (attemptTimeoutSeconds)', () => {
  it('cuts a trickling stream as provider_timeout and retries it under the retry policy', async () => {
    const made = kit({ completions: [trickle(20), { text: 'On time.' }] }, { attemptTimeoutSeconds: 0.2, streamTimeoutSeconds: 30 });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    expect(events.filter((event) => event.type === 'retry')).toEqual([expect.objectContaining({ code: 'provider_timeout' })]);
    expect(answer).toBe('On time.');
    expect(events.at(-1)).toMatchObject({ type: 'done' });
  });
});
