import { describe, expect, it } from 'vitest';
import { collect } from '../index.js';
import type { ChatEvent } from '../index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';
import type { Kit } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

/** Starts a turn and waits until its first event (or the provider request) shows it is under way. */
async function started(made: Kit, text = 'go') {
  const stream = made.engine.send({ actor: alice, requestKey: key(), text });
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  const rest = collect({ [Symbol.asyncIterator]: () => iterator });
  const event = first.value as ChatEvent;
  return { event, rest };
}

describe('cancellation', () => {
  it('immediate: aborts the provider mid-round, the turn ends cancelled', async () => {
    const made = kit({ completions: [{ text: ['one ', 'two ', 'three'], chunkDelayMs: 2000 }] });
    const { event, rest } = await started(made);
    expect(event.type).toBe('text_chunk');
    const turn = await made.engine.cancel({ threadId: event.thread_id, mode: 'immediate' });
    expect(turn).toMatchObject({ status: 'cancelled', failureCode: 'cancelled' });
    expect((await rest).events.at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
  });

  it('immediate: aborts running tools', async () => {
    const made = kit({ completions: [{ toolCalls: [{ id: 's', name: 'lookup', arguments: { q: 'slow' } }] }, { text: 'never' }] });
    const { event, rest } = await started(made);
    expect(event.type).toBe('tool_call');
    const turn = await made.engine.cancel({ threadId: event.thread_id, mode: 'immediate' });
    expect(turn?.status).toBe('cancelled');
    expect((await rest).events.at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
    expect(made.provider!.requests).toHaveLength(1);
  });

  it('graceful: a running tool may finish, its result is kept, and no new round starts', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const made = kit({ completions: [{ toolCalls: [{ id: 't', name: 'touch', arguments: { id: 1 } }] }, { text: 'never' }] }, { gracefulCancelMs: 5000 }, { gate });
    const { event, rest } = await started(made);
    const cancelling = made.engine.cancel({ threadId: event.thread_id, mode: 'graceful' });
    setTimeout(open, 20);
    const turn = await cancelling;
    expect(turn).toMatchObject({ status: 'cancelled' });
    const events = (await rest).events;
    expect(events.map((e) => e.type)).toEqual(['tool_result', 'error']);
    expect(events[0]).toMatchObject({ result: { ok: true } });
    expect(made.provider!.requests).toHaveLength(1);
  });

  it('graceful: a write still running at the deadline fails the turn with effect_outcome_unknown', async () => {
    const gate = new Promise<void>(() => undefined);
    const made = kit({ completions: [{ toolCalls: [{ id: 't', name: 'touch', arguments: { id: 1 } }] }] }, { gracefulCancelMs: 30 }, { gate });
    const { event, rest } = await started(made);
    const turn = await made.engine.cancel({ threadId: event.thread_id, mode: 'graceful' });
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'effect_outcome_unknown' });
    expect((await rest).events.at(-1)).toMatchObject({ type: 'error', code: 'effect_outcome_unknown' });
    const retried = await collect(made.engine.retry({ actor: alice, turnId: event.turn_id, requestKey: key() }));
    expect(retried.events).toEqual([expect.objectContaining({ type: 'error', code: 'not_retryable' })]);
    expect(made.writes).toHaveLength(1);
  });

  it('graceful: a read still running at the deadline is aborted and the turn ends cancelled', async () => {
    const made = kit({ completions: [{ toolCalls: [{ id: 's', name: 'lookup', arguments: { q: 'slow' } }] }] }, { gracefulCancelMs: 20 });
    const { event } = await started(made);
    const turn = await made.engine.cancel({ threadId: event.thread_id, mode: 'graceful' });
    expect(turn).toMatchObject({ status: 'cancelled' });
  });

  it('answers undefined when the thread has no active turn', async () => {
    const made = kit({ completions: [{ text: 'done' }] });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    expect(await made.engine.cancel({ threadId: events[0]!.thread_id, mode: 'immediate' })).toBeUndefined();
  });
});
