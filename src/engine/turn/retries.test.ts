import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../providers/index.js';
import { collect } from '../index.js';
import { retryDecision, freshRetryState } from './retry-policy.js';
import { parseEngineSettings } from '../settings.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

describe('provider retries', () => {
  it('survives a stream cut and a 503: one answer, no duplicated text, retry events to drop what was shown', async () => {
    const made = kit({
      completions: [
        { text: ['Hel', 'lo'], cutAfterChunks: 1 },
        { error: { status: 503, message: 'overloaded' } },
        { text: ['Hello ', 'world.'], usage: { inputTokens: 4, outputTokens: 2 } },
      ],
    });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    // The cut attempt's 'Hel' was never journaled, so it was never shown: only the retries say it failed.
    expect(events.map((event) => event.type)).toEqual(['retry', 'retry', 'text_chunk', 'text_chunk', 'done']);
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1, code: 'provider_stream_cut' });
    expect(events[1]).toMatchObject({ type: 'retry', attempt: 2, code: 'provider_unavailable' });
    expect(answer).toBe('Hello world.');
    const items = await made.store.listItems(events[0]!.thread_id);
    expect(items.filter((item) => item.kind === 'assistant_text').map((item) => (item.data as { text: string }).text)).toEqual(['Hello world.']);
    expect(items.filter((item) => item.kind === 'retry_marker')).toHaveLength(2);
  });

  it('honours Retry-After from a 429', async () => {
    const made = kit({ completions: [{ error: { status: 429, retryAfterSeconds: 0.02 } }, { text: 'ok' }] });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    expect(events[0]).toMatchObject({ type: 'retry', code: 'provider_rate_limited', delay_ms: 20 });
    expect(events.at(-1)?.type).toBe('done');
  });

  it('never retries an authentication failure: the turn fails with its code', async () => {
    const made = kit({ completions: [{ error: { status: 401 } }, { text: 'never' }] });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'provider_auth' })]);
    expect(await made.store.getTurn(events[0]!.turn_id)).toMatchObject({ status: 'failed', failureCode: 'provider_auth' });
  });

  it('gives up after the configured attempts with the last failure code', async () => {
    const failing = { error: { status: 500 }, repeat: true };
    const made = kit({ completions: [failing] }, { retry: { maxAttempts: 2, backoffMs: [1], jitter: 0 } });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    expect(events.map((event) => event.type)).toEqual(['retry', 'retry', 'error']);
    expect(events.at(-1)).toMatchObject({ code: 'provider_unavailable' });
  });

  it('times out a provider that sends no first event (timeoutSeconds) and retries', async () => {
    const made = kit({ completions: [{ text: 'slow', delayMs: 5000 }, { text: 'fast' }] }, { timeoutSeconds: 0.05 });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    expect(events[0]).toMatchObject({ type: 'retry', code: 'provider_timeout' });
    expect(answer).toBe('fast');
  });

  it('times out a stream that stalls between events (streamTimeoutSeconds) and retries', async () => {
    const made = kit({ completions: [{ text: ['a', 'b', 'c'], chunkDelayMs: 5000 }, { text: 'steady' }] }, { streamTimeoutSeconds: 0.05 });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'hi' });
    expect(events.map((event) => event.type)).toEqual(['text_chunk', 'retry', 'text_chunk', 'done']);
    expect(events[1]).toMatchObject({ code: 'provider_timeout' });
    expect(answer).toBe('steady');
  });

  it('fails a turn whose provider keeps timing out after three timeout retries', async () => {
    const made = kit({ completions: [{ text: 'slow', delayMs: 5000, repeat: true }] }, { timeoutSeconds: 0.02 });
    const { events } = await collect(made.engine.send({ actor: alice, requestKey: key(), text: 'hi' }));
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'provider_timeout' });
  });
});

describe('retry policy', () => {
  const policy = parseEngineSettings({}).retry;
  const failure = (code: 'provider_unavailable' | 'provider_timeout' | 'provider_auth', retryAfterSeconds?: number) =>
    new ProviderError(code, 'x', { provider: 'p', ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) });

  it('backs off 2, 4, 8 and 10 seconds, jittered, then stops after four retries', () => {
    let state = freshRetryState;
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const decision = retryDecision(failure('provider_unavailable'), state, 0, policy, () => 0.5);
      if (!decision.retry) throw new Error('expected a retry');
      delays.push(decision.delayMs);
      state = decision.state;
    }
    expect(delays).toEqual([2000, 4000, 8000, 10_000]);
    expect(retryDecision(failure('provider_unavailable'), state, 0, policy, () => 0.5).retry).toBe(false);
    const low = retryDecision(failure('provider_unavailable'), freshRetryState, 0, policy, () => 0);
    expect(low.retry && low.delayMs).toBe(1600);
  });

  it('allows at most three timeout retries', () => {
    let state = freshRetryState;
    for (let i = 0; i < 3; i++) {
      const decision = retryDecision(failure('provider_timeout'), state, 0, policy, () => 0.5);
      if (!decision.retry) throw new Error('expected a retry');
      state = decision.state;
    }
    expect(retryDecision(failure('provider_timeout'), state, 0, policy, () => 0.5).retry).toBe(false);
    expect(retryDecision(failure('provider_unavailable'), state, 0, policy, () => 0.5).retry).toBe(true);
  });

  it('starts no retry beyond five minutes after the first failure', () => {
    const first = retryDecision(failure('provider_unavailable'), freshRetryState, 1000, policy, () => 0.5);
    if (!first.retry) throw new Error('expected a retry');
    expect(retryDecision(failure('provider_unavailable'), first.state, 1000 + 299_000, policy, () => 0.5).retry).toBe(false);
  });

  it('uses Retry-After instead of the backoff, capped, and never retries what is not retryable', () => {
    const decision = retryDecision(failure('provider_unavailable', 7), freshRetryState, 0, policy, () => 0.5);
    expect(decision.retry && decision.delayMs).toBe(7000);
    const capped = retryDecision(failure('provider_unavailable', 3600), freshRetryState, 0, policy, () => 0.5);
    expect(capped.retry && capped.delayMs).toBe(60_000);
    expect(retryDecision(failure('provider_auth'), freshRetryState, 0, policy, () => 0.5).retry).toBe(false);
    expect(retryDecision(new Error('plain'), freshRetryState, 0, policy, () => 0.5).retry).toBe(false);
  });
});
