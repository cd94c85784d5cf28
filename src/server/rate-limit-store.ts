/**
 * Where rate-limit counters live. One counter per key, in fixed windows: a counter's window starts
 * at its first use and lasts `windowMs`; it frees at `start + windowMs`. Implementations must make
 * `take` atomic (the in-memory one is, being synchronous; a Redis one uses a script).
 */
export interface RateLimitStore {
  /**
   * Adds `amount` when the counter stays at or under `limit`, atomically. Refused takes change
   * nothing. `retryAfterMs` is the time until the counter's window frees (0 when allowed).
   */
  take(key: string, request: { readonly amount: number; readonly limit: number; readonly windowMs: number; readonly now: number }): Promise<RateTake>;
  /** Adds `amount` unconditionally (usage already spent) and returns the new count. */
  add(key: string, request: { readonly amount: number; readonly windowMs: number; readonly now: number }): Promise<RateCount>;
  /** The counter's current value without changing it. */
  peek(key: string, request: { readonly windowMs: number; readonly now: number }): Promise<RateCount>;
}

export interface RateCount {
  readonly used: number;
  /** Milliseconds until the window frees; 0 when nothing is counted. */
  readonly resetInMs: number;
  /** The shared store could not be asked and refuses on that account (Redis, `whenUnavailable: 'closed'`). */
  readonly unavailable?: boolean;
}

export interface RateTake extends RateCount {
  readonly allowed: boolean;
}

export interface MemoryRateLimitStoreOptions {
  /** Most counters kept; past it, expired ones are swept and then the oldest dropped. Default 100,000. */
  readonly maxKeys?: number;
}

/** The in-memory store: one process only (`createRedisRateLimitStore` is the shared one). */
export function createMemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  const counters = new Map<string, { start: number; windowMs: number; used: number }>();

  const current = (key: string, windowMs: number, now: number): { start: number; windowMs: number; used: number } => {
    const counter = counters.get(key);
    if (counter !== undefined && now < counter.start + counter.windowMs) return counter;
    if (counter !== undefined) counters.delete(key);
    if (counters.size >= maxKeys) sweep(now);
    const fresh = { start: now, windowMs, used: 0 };
    counters.set(key, fresh);
    return fresh;
  };
  const sweep = (now: number): void => {
    for (const [key, counter] of counters) if (now >= counter.start + counter.windowMs) counters.delete(key);
    // Still full of live counters: drop the oldest (Map keeps insertion order).
    while (counters.size >= maxKeys) {
      const oldest = counters.keys().next().value;
      if (oldest === undefined) break;
      counters.delete(oldest);
    }
  };
  const resetIn = (counter: { start: number; windowMs: number; used: number }, now: number): number =>
    counter.used === 0 ? 0 : Math.max(0, counter.start + counter.windowMs - now);

  return {
    take(key, { amount, limit, windowMs, now }) {
      const counter = current(key, windowMs, now);
      if (counter.used + amount > limit) return Promise.resolve({ allowed: false, used: counter.used, resetInMs: Math.max(1, counter.start + counter.windowMs - now) });
      counter.used += amount;
      return Promise.resolve({ allowed: true, used: counter.used, resetInMs: resetIn(counter, now) });
    },
    add(key, { amount, windowMs, now }) {
      const counter = current(key, windowMs, now);
      counter.used += amount;
      return Promise.resolve({ used: counter.used, resetInMs: resetIn(counter, now) });
    },
    peek(key, { now }) {
      const counter = counters.get(key);
      if (counter === undefined || now >= counter.start + counter.windowMs) return Promise.resolve({ used: 0, resetInMs: 0 });
      return Promise.resolve({ used: counter.used, resetInMs: resetIn(counter, now) });
    },
  };
}
