import type { StreamTimeout } from '../../providers/index.js';
import { newItems } from '../shared/index.js';
import type { TimeoutDetail } from '../shared/index.js';
import type { TurnRun } from './turn-run.js';

export interface RetryInfo {
  readonly attempt: number;
  readonly limit: number;
  readonly code: string;
  readonly delayMs: number;
  readonly timeout?: StreamTimeout | undefined;
}

const reasons: Readonly<Record<string, string>> = {
  provider_rate_limited: 'rate limited',
  provider_unavailable: 'the model provider is unavailable',
  provider_stream_cut: 'the answer stream was cut off',
  provider_network: 'a network failure',
};
const timeoutReasons: Readonly<Record<StreamTimeout['stage'], string>> = {
  first_byte: 'no first byte in time',
  between_events: 'the answer stream stalled',
  attempt: 'the attempt took too long',
};

/** Why a retry happens, in the words a console shows ("retrying 2 of 3 at 12:04:05 — rate limited"). */
export function retryReasonText(code: string, timeout: StreamTimeout | undefined): string {
  if (timeout !== undefined) return timeoutReasons[timeout.stage];
  return reasons[code] ?? code.replace(/^provider_/, '').replace(/_/g, ' ');
}

/**
 * A provider attempt failed and is retried: journaled (a `provider` mark with the attempt, its
 * limit, the next attempt's time and a timeout's stage, so that replays and views tell it too),
 * the run enters `retrying`, and the `retry` event says when the next attempt starts and why.
 */
export async function noteRetry(run: TurnRun, info: RetryInfo): Promise<void> {
  const nextAt = new Date(run.parts.clock() + info.delayMs).toISOString();
  const reason = retryReasonText(info.code, info.timeout);
  const timeout: TimeoutDetail | undefined = info.timeout === undefined ? undefined : { stage: info.timeout.stage, elapsed_ms: info.timeout.elapsedMs };
  // The mark's `reason` is its kind (`provider`); the words are its `why`.
  const mark = { reason: 'provider', attempt: info.attempt, limit: info.limit, code: info.code, why: reason, nextAt, step: run.counters.rounds };
  await run.append([newItems.retryMarker(timeout === undefined ? mark : { ...mark, timeout: { ...timeout } })]);
  const entered = run.enter('retrying');
  if (entered !== undefined) await entered;
  const waiting = run.emit({ type: 'retry', attempt: info.attempt, limit: info.limit, code: info.code, reason, delay_ms: info.delayMs, next_at: nextAt, ...(timeout === undefined ? {} : { timeout }) });
  if (waiting !== undefined) await waiting;
}
