import { isProviderError } from '../../providers/index.js';
import type { EngineSettings } from '../settings.js';

export interface RetryState {
  /** Retries already started. */
  readonly attempts: number;
  /** Of which after timeouts. */
  readonly timeoutAttempts: number;
  /** Clock time of the first failure; undefined before it. */
  readonly firstFailureAt: number | undefined;
}

export const freshRetryState: RetryState = Object.freeze({ attempts: 0, timeoutAttempts: 0, firstFailureAt: undefined });

export type RetryDecision =
  | { readonly retry: false }
  | { readonly retry: true; readonly delayMs: number; readonly state: RetryState };

/**
 * Whether to try a failed provider round again, and after how long: only classified retryable
 * failures (network, 429, 5xx, a cut stream, a timeout), at most `maxAttempts` more (of which
 * `maxTimeoutAttempts` after timeouts), jittered backoff or the provider's Retry-After, and never
 * starting later than `windowMs` after the first failure. Pure: time and randomness are inputs.
 */
export function retryDecision(
  error: unknown,
  state: RetryState,
  now: number,
  policy: EngineSettings['retry'],
  random: () => number,
): RetryDecision {
  if (!isProviderError(error) || !error.retryable) return { retry: false };
  if (state.attempts >= policy.maxAttempts) return { retry: false };
  const isTimeout = error.code === 'provider_timeout';
  if (isTimeout && state.timeoutAttempts >= policy.maxTimeoutAttempts) return { retry: false };
  const base = policy.backoffMs[Math.min(state.attempts, policy.backoffMs.length - 1)] ?? 0;
  const factor = 1 - policy.jitter + 2 * policy.jitter * random();
  const delayMs =
    error.retryAfterSeconds !== undefined ? Math.min(error.retryAfterSeconds * 1000, policy.maxRetryAfterMs) : Math.max(0, Math.round(base * factor));
  const firstFailureAt = state.firstFailureAt ?? now;
  if (now + delayMs - firstFailureAt > policy.windowMs) return { retry: false };
  return {
    retry: true,
    delayMs,
    state: { attempts: state.attempts + 1, timeoutAttempts: state.timeoutAttempts + (isTimeout ? 1 : 0), firstFailureAt },
  };
}
