import { AsyncLocalStorage } from 'node:async_hooks';
import { PlumbError } from '../core/index.js';
import { describeProvider } from '../providers/index.js';
import type { Provider } from '../providers/index.js';
import type { RateLimiter } from './rate-limiter.js';

interface TurnScope {
  readonly scope: string;
  refusal: { readonly retryAfterSeconds: number; readonly budget: string; readonly unavailable?: boolean } | undefined;
}

/**
 * Token budgets inside a turn. A transport runs each turn under `run(scope, …)`; the wrapped
 * provider records usage as the provider reports it and refuses the next round (a summary is a
 * round too) once a budget is spent, and so does a round that spent it and asked for tools: its
 * tool calls never run. The engine ends that turn with a failure, which the transport
 * reports as `rate_limited` with `retry_after_seconds` (`refusal()`).
 */
export interface TokenBudget {
  readonly run: <T>(scope: string, fn: () => T) => T;
  /** The refusal that ended the current turn, if one did. */
  readonly refusal: () => { readonly retryAfterSeconds: number; readonly budget: string; readonly unavailable?: boolean } | undefined;
  /** A provider that counts and enforces the current turn's budgets; outside a turn it only passes through. */
  readonly wrap: (provider: Provider) => Provider;
}

/** Refuses the turn's next step (a provider round, or the tool calls of the round just ended) once a budget is spent. */
async function enforce(limiter: RateLimiter, turn: TurnScope): Promise<void> {
  const decision = await limiter.checkTokens(turn.scope);
  if (decision.allowed) return;
  turn.refusal = { retryAfterSeconds: decision.retryAfterSeconds, budget: decision.budget, ...(decision.unavailable === true ? { unavailable: true } : {}) };
  if (decision.unavailable === true) {
    throw new PlumbError('rate_limit_unavailable', `The shared rate limits cannot be checked right now. Try again in ${decision.retryAfterSeconds} seconds.`, { details: { retry_after_seconds: decision.retryAfterSeconds } });
  }
  throw new PlumbError('rate_limited', `Chat token budget exhausted (${decision.budget}). Try again in ${decision.retryAfterSeconds} seconds.`, {
    details: { retry_after_seconds: decision.retryAfterSeconds },
  });
}

export function createTokenBudget(limiter: RateLimiter): TokenBudget {
  const storage = new AsyncLocalStorage<TurnScope>();
  return {
    run: (scope, fn) => storage.run({ scope, refusal: undefined }, fn),
    refusal: () => storage.getStore()?.refusal,
    wrap: (provider) => ({
        name: provider.name,
        model: provider.model,
        checkConfiguration: () => provider.checkConfiguration(),
        describe: () => describeProvider(provider),
        async *complete(request) {
          const turn = storage.getStore();
          if (turn !== undefined) await enforce(limiter, turn);
          let calls = false;
          for await (const event of provider.complete(request)) {
            if (event.type === 'tool_call') calls = true;
            if (turn !== undefined && event.type === 'usage') await limiter.recordUsage(turn.scope, { inputTokens: event.inputTokens, outputTokens: event.outputTokens });
            // A round whose own usage spent the budget does not get its tool calls run: they would be work past the budget.
            if (turn !== undefined && event.type === 'done' && calls) await enforce(limiter, turn);
            yield event;
          }
        },
      }),
  };
}
