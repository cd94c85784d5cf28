import type { RateLimitStore } from './rate-limit-store.js';

/** The `rateLimit` settings as parsed. */
export interface RateLimitSettings {
  readonly requests: number | null;
  readonly windowSeconds: number;
  readonly tokens: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
}

/** A refusal with `unavailable` comes from a shared store that could not be asked (`rate_limit_unavailable`), not from a spent budget. */
export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number; readonly budget: string; readonly unavailable?: boolean };

/**
 * Request and token budgets per actor scope (`user:<id>`, or `ip:<address>` for anyone anonymous: see `rateScope`).
 * Only positive integers are budgets. Requests are taken atomically; tokens are recorded as the
 * provider reports them and checked before the next round, tool, confirmation or summary.
 */
export interface RateLimiter {
  /** Takes one request from the scope's budget. */
  takeRequest(scope: string): Promise<RateDecision>;
  /** Whether the scope still has token budget left. */
  checkTokens(scope: string): Promise<RateDecision>;
  /** Records reported usage against the scope's token budgets. */
  recordUsage(scope: string, usage: { readonly inputTokens: number; readonly outputTokens: number }): Promise<void>;
}

const enforced = (limit: number | null): limit is number => limit !== null && Number.isInteger(limit) && limit > 0;
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

export function createRateLimiter(settings: RateLimitSettings, store: RateLimitStore, clock: () => number = Date.now): RateLimiter {
  const windowMs = settings.windowSeconds * 1000;
  const tokenBudgets = (
    [
      ['tokens', settings.tokens],
      ['input_tokens', settings.inputTokens],
      ['output_tokens', settings.outputTokens],
    ] as const
  ).filter((entry): entry is readonly ['tokens' | 'input_tokens' | 'output_tokens', number] => enforced(entry[1]));

  return {
    async takeRequest(scope) {
      if (!enforced(settings.requests)) return { allowed: true };
      const taken = await store.take(`requests:${scope}`, { amount: 1, limit: settings.requests, windowMs, now: clock() });
      if (taken.allowed) return { allowed: true };
      return { allowed: false, retryAfterSeconds: seconds(taken.resetInMs), budget: 'requests', ...(taken.unavailable === true ? { unavailable: true } : {}) };
    },
    async checkTokens(scope) {
      const now = clock();
      for (const [name, limit] of tokenBudgets) {
        const count = await store.peek(`${name}:${scope}`, { windowMs, now });
        if (count.unavailable === true) return { allowed: false, retryAfterSeconds: seconds(count.resetInMs), budget: name, unavailable: true };
        if (count.used >= limit) return { allowed: false, retryAfterSeconds: seconds(count.resetInMs), budget: name };
      }
      return { allowed: true };
    },
    async recordUsage(scope, usage) {
      const now = clock();
      for (const [name] of tokenBudgets) {
        const amount = name === 'tokens' ? usage.inputTokens + usage.outputTokens : name === 'input_tokens' ? usage.inputTokens : usage.outputTokens;
        if (amount > 0) await store.add(`${name}:${scope}`, { amount, windowMs, now });
      }
    },
  };
}
