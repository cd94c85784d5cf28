import type { Redis } from 'ioredis';
import type { RateCount, RateLimitStore, RateTake } from './rate-limit-store.js';

/**
 * Fixed windows in Redis, one atomic script per decision. A counter's window is its key's expiry:
 * set by the first use of the window, so it is counted by the Redis server's clock (processes with
 * skewed clocks agree), and the time to the next free slot is the key's remaining PTTL.
 */
const takeScript = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount, limit, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if used + amount > limit then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then ttl = window end
  return {0, used, ttl}
end
local now = redis.call('INCRBY', KEYS[1], amount)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], window); ttl = window end
return {1, now, ttl}`;

const addScript = `
local now = redis.call('INCRBY', KEYS[1], tonumber(ARGV[1]))
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2])); ttl = tonumber(ARGV[2]) end
return {now, ttl}`;

const peekScript = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {used, ttl}`;

interface ScriptedRedis {
  plumbRateTake(key: string, amount: number, limit: number, windowMs: number): Promise<[number, number, number]>;
  plumbRateAdd(key: string, amount: number, windowMs: number): Promise<[number, number]>;
  plumbRatePeek(key: string): Promise<[number, number]>;
}

export interface RedisRateLimitStoreOptions {
  readonly redis: Redis;
  /** Prefix of every key. Default `plumb:rate:`. */
  readonly prefix?: string;
  /** `closed`: refuse (`unavailable`) when Redis does not answer; `open`: admit and warn. */
  readonly whenUnavailable: 'closed' | 'open';
  /** Told once per `warnEveryMs` (10 s) while Redis fails. */
  readonly warn: (message: string, error: unknown) => void;
  /** Refused requests retry after this while Redis is unavailable. Milliseconds, default 1000. */
  readonly unavailableRetryMs?: number;
}

/**
 * The shared rate-limit store: exact across processes (each decision one Lua script, which Redis
 * runs alone), bounded by the connection's command timeout, and answering — never throwing — when
 * Redis cannot be reached: `unavailable` under `closed`, an admission under `open`.
 */
export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore {
  const redis = options.redis as Redis & Partial<ScriptedRedis>;
  if (redis.plumbRateTake === undefined) {
    redis.defineCommand('plumbRateTake', { numberOfKeys: 1, lua: takeScript });
    redis.defineCommand('plumbRateAdd', { numberOfKeys: 1, lua: addScript });
    redis.defineCommand('plumbRatePeek', { numberOfKeys: 1, lua: peekScript });
  }
  const scripted = redis as unknown as ScriptedRedis;
  const prefix = options.prefix ?? 'plumb:rate:';
  const retryMs = options.unavailableRetryMs ?? 1000;
  let lastWarning = 0;
  const failed = (error: unknown, admit: RateCount & { allowed?: boolean }): RateTake => {
    const now = Date.now();
    if (now - lastWarning >= 10_000) {
      lastWarning = now;
      options.warn(options.whenUnavailable === 'closed' ? 'Redis did not answer: refusing chat requests (rate_limit_unavailable) until it does.' : 'Redis did not answer: admitting chat requests without their shared rate limits until it does.', error);
    }
    if (options.whenUnavailable === 'closed') return { allowed: false, used: 0, resetInMs: retryMs, unavailable: true };
    return { allowed: true, used: admit.used, resetInMs: 0 };
  };
  return {
    async take(key, { amount, limit, windowMs }) {
      try {
        const [allowed, used, ttl] = await scripted.plumbRateTake(prefix + key, amount, limit, windowMs);
        return { allowed: allowed === 1, used, resetInMs: allowed === 1 ? ttl : Math.max(1, ttl) };
      } catch (error) {
        return failed(error, { used: 0, resetInMs: 0 });
      }
    },
    async add(key, { amount, windowMs }) {
      try {
        const [used, ttl] = await scripted.plumbRateAdd(prefix + key, amount, windowMs);
        return { used, resetInMs: ttl };
      } catch (error) {
        // Usage already spent cannot be refused; a lost count is only warned about.
        const result = failed(error, { used: 0, resetInMs: 0 });
        return { used: result.used, resetInMs: 0 };
      }
    },
    async peek(key) {
      try {
        const [used, ttl] = await scripted.plumbRatePeek(prefix + key);
        return { used, resetInMs: used === 0 ? 0 : ttl };
      } catch (error) {
        const result = failed(error, { used: 0, resetInMs: 0 });
        return result.unavailable === true ? { used: 0, resetInMs: result.resetInMs, unavailable: true } : { used: 0, resetInMs: 0 };
      }
    },
  };
}
