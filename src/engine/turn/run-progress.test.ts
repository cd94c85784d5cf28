import { describe, expect, it } from 'vitest';
import { collect } from '../index.js';
import type { ChatEvent } from '../index.js';
import { createMemoryStore } from '../../store/index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

const phases = (events: readonly ChatEvent[]): string[] => events.flatMap((event) => (event.type === 'phase' ? [event.phase] : []));

describe('runs, phases and retry detail', () => {
  it('gives every event its run: r1 for the first run, r2 for its retry, in the events, a replay and the thread state', async () => {
    const made = kit({ completions: [{ error: { status: 500 } }, { text: 'Second time lucky.' }] }, { retry: { maxAttempts: 0 } });
    const failed = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    const turnId = failed.events.at(-1)!.turn_id;
    const threadId = failed.events.at(-1)!.thread_id;
    expect(failed.events.at(-1)).toMatchObject({ type: 'error', code: 'provider_unavailable', run_id: `${turnId}.r1` });
    expect(failed.events.every((event) => event.run_id === `${turnId}.r1`)).toBe(true);

    const retryKey = key();
    const again = await collect(made.engine.retry({ actor: alice, turnId, requestKey: retryKey }));
    expect(again.answer).toBe('Second time lucky.');
    expect(again.events.length).toBeGreaterThan(0);
    expect(again.events.every((event) => event.run_id === `${turnId}.r2`)).toBe(true);

    // A resent key replays the retry, every event in the run it was sent in.
    const replayed = await collect(made.engine.retry({ actor: alice, turnId, requestKey: retryKey }));
    expect(replayed.events.at(-1)).toMatchObject({ type: 'done', run_id: `${turnId}.r2` });
    expect(replayed.events.find((event) => event.type === 'text_chunk')).toMatchObject({ run_id: `${turnId}.r2` });

    const state = await made.engine.threads.state({ actor: alice, threadId });
    expect(state).toMatchObject({ runId: `${turnId}.r2`, phase: 'done' });
  });

  it('keeps the run of a regenerated answer after the superseded one: r2 for the regenerate, r3 for a second', async () => {
    const made = kit({ completions: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }] });
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'count' });
    const turnId = first.events.at(-1)!.turn_id;
    const second = await collect(made.engine.retry({ actor: alice, turnId, requestKey: key(), regenerate: true }));
    expect(second.events.at(-1)).toMatchObject({ type: 'done', run_id: `${turnId}.r2` });
    const third = await collect(made.engine.retry({ actor: alice, turnId, requestKey: key(), regenerate: true }));
    expect(third.events.at(-1)).toMatchObject({ type: 'done', run_id: `${turnId}.r3` });
  });

  it('sends a phase event on each change only, with phaseEvents: reading, the model, a tool, the model, done', async () => {
    const made = kit(
      { completions: [{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'bolt' } }] }, { text: 'Found a bolt.' }] },
      { phaseEvents: true },
    );
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'find a bolt' });
    expect(phases(events)).toEqual(['reading', 'calling_model', 'running_tool', 'calling_model', 'done']);
    // The terminal phase comes before the terminal event, and nothing repeats a phase.
    expect(events.slice(-2).map((event) => event.type)).toEqual(['phase', 'done']);
  });

  it('tells a waiting write as awaiting_approval, and its approval resumes the same run', async () => {
    const made = kit({ completions: [{ toolCalls: [{ id: 'w1', name: 'create_part', arguments: { name: 'Nut' } }] }, { text: 'Created.' }] }, { phaseEvents: true });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'create a nut' });
    const confirm = events.find((event) => event.type === 'confirm_mutation')!;
    expect(phases(events).at(-1)).toBe('awaiting_approval');
    expect(confirm.run_id).toBe(`${confirm.turn_id}.r1`);
    const state = await made.engine.threads.state({ actor: alice, threadId: confirm.thread_id });
    expect(state).toMatchObject({ phase: 'awaiting_approval', runId: `${confirm.turn_id}.r1`, confirmation: { id: (confirm as { id: string }).id, run_id: `${confirm.turn_id}.r1` } });
    const resumed = await collect(made.engine.confirm({ actor: alice, confirmationId: (confirm as { id: string }).id, confirmed: true }));
    expect(resumed.events.every((event) => event.run_id === `${confirm.turn_id}.r1`)).toBe(true);
    expect(phases(resumed.events).at(-1)).toBe('done');
  });

  it('says of a retry its attempt, limit, reason and when the next attempt starts, and enters retrying', async () => {
    const now = Date.parse('2026-12-02T12:04:00.000Z');
    const made = kit({ completions: [{ error: { status: 429, retryAfterSeconds: 0.02 } }, { text: 'ok' }] }, { phaseEvents: true, retry: { maxAttempts: 3 } }, { clock: () => now });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    const retry = events.find((event) => event.type === 'retry');
    expect(retry).toMatchObject({ attempt: 1, limit: 3, code: 'provider_rate_limited', reason: 'rate limited', delay_ms: 20, next_at: '2026-12-02T12:04:00.020Z' });
    expect(retry).not.toHaveProperty('timeout');
    expect(phases(events)).toEqual(['reading', 'calling_model', 'retrying', 'calling_model', 'done']);
    const items = await made.store.listItems(events[0]!.thread_id);
    expect(items.find((item) => item.kind === 'retry_marker')?.data).toMatchObject({ reason: 'provider', attempt: 1, limit: 3, why: 'rate limited', nextAt: '2026-12-02T12:04:00.020Z' });
  });

  it('names the clock a timeout ran out on and how long it waited: first byte, then between events', async () => {
    const made = kit(
      { completions: [{ text: 'slow', delayMs: 5000 }, { text: ['a', 'b'], chunkDelayMs: 5000 }, { text: 'steady' }] },
      { timeoutSeconds: 0.05, streamTimeoutSeconds: 0.05 },
    );
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    expect(answer).toBe('steady');
    const retries = events.filter((event) => event.type === 'retry');
    expect(retries.map((event) => [event.reason, event.timeout?.stage])).toEqual([
      ['no first byte in time', 'first_byte'],
      ['the answer stream stalled', 'between_events'],
    ]);
    for (const event of retries) expect(event.timeout!.elapsed_ms).toBeGreaterThanOrEqual(45);
  });

  it("projects a turn: its outcome, start and end, the time it waited for an approval apart from its work, and its answer's items", async () => {
    let now = 1_000_000;
    const clock = (): number => now;
    const made = kit({ completions: [{ toolCalls: [{ id: 'w1', name: 'create_part', arguments: { name: 'Nut' } }] }, { text: 'Created.' }] }, {}, { store: createMemoryStore({ clock }), clock });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'create a nut' });
    const confirm = events.find((event) => event.type === 'confirm_mutation') as { id: string; thread_id: string };
    now += 3000;
    const waiting = await made.engine.threads.state({ actor: alice, threadId: confirm.thread_id });
    expect(waiting.projection).toEqual({ outcome: null, started_at: 1_000_000, ended_at: null, elapsed_ms: 3000, waiting_ms: 3000, work_ms: 0, answer_item_ids: [] });
    now += 500;
    await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: true }));
    const done = await made.engine.threads.state({ actor: alice, threadId: confirm.thread_id });
    const answer = (await made.store.listItems(confirm.thread_id)).filter((item) => item.kind === 'assistant_text').map((item) => item.id);
    expect(answer).toHaveLength(1);
    expect(done.projection).toEqual({ outcome: 'completed', started_at: 1_000_000, ended_at: 1_003_500, elapsed_ms: 3500, waiting_ms: 3500, work_ms: 0, answer_item_ids: answer });
  });
});
