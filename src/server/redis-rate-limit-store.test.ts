import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithRedis } from '../../test/support/redis.js';
import { connectRedis } from './redis-connection.js';
import type { RedisConnection } from './redis-connection.js';
import { createRedisRateLimitStore } from './redis-rate-limit-store.js';
import { createRateLimiter } from './rate-limiter.js';
import type { RateLimitSettings } from './rate-limiter.js';

const settings = (overrides: Partial<RateLimitSettings> = {}): RateLimitSettings => ({ requests: 5, windowSeconds: 60, tokens: null, inputTokens: null, outputTokens: null, ...overrides });

function child(url: string, prefix: string, limit: number, count: number) {
  const process_ = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'rate-child.fixture.ts'), url, prefix, String(limit), String(count)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  process_.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  process_.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<{ admitted: number; refused: number[] }>((resolve, reject) =>
    process_.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as { admitted: number; refused: number[] }) : reject(new Error(`rate child exited ${code}: ${err}`)))),
  );
  const ready = new Promise<void>((resolve) => {
    const check = (): void => {
      if (out.includes('ready\n')) resolve();
      else setTimeout(check, 20);
    };
    check();
  });
  return { go: () => process_.stdin.end('go\n'), done, ready };
}

describeWithRedis('rate limits and token budgets in Redis', (server) => {
  const connections: RedisConnection[] = [];
  const connect = async (url: string, timeoutMs = 300) => {
    const made = await connectRedis(url, { timeoutMs });
    connections.push(made);
    return made;
  };
  const closeAll = async () => {
    for (const made of connections.splice(0)) await made.close();
  };

  it('admits exactly N of N + k requests sent at once from two processes', async () => {
    const prefix = server.prefix();
    const limit = 50;
    const children = [child(server.url, prefix, limit, 40), child(server.url, prefix, limit, 40)];
    // Both are connected and waiting for the word before either takes anything.
    await Promise.all(children.map((made) => made.ready));
    for (const made of children) made.go();
    const results = await Promise.all(children.map((made) => made.done));
    expect(results.reduce((sum, result) => sum + result.admitted, 0)).toBe(limit);
    const refused = results.flatMap((result) => result.refused);
    expect(refused).toHaveLength(30);
    for (const seconds of refused) expect(seconds).toBeGreaterThanOrEqual(59);
  });

  it('answers retry_after_seconds with the true time to the window\'s next free slot, and admits again once it is free', async () => {
    const made = await connect(server.url);
    const limiter = createRateLimiter(settings({ requests: 2, windowSeconds: 3 }), createRedisRateLimitStore({ redis: made.client, prefix: server.prefix(), whenUnavailable: 'closed', warn: () => undefined }));
    expect(await limiter.takeRequest('user:a')).toEqual({ allowed: true });
    expect(await limiter.takeRequest('user:a')).toEqual({ allowed: true });
    expect(await limiter.takeRequest('user:b')).toEqual({ allowed: true });
    expect(await limiter.takeRequest('user:a')).toEqual({ allowed: false, retryAfterSeconds: 3, budget: 'requests' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await limiter.takeRequest('user:a')).toEqual({ allowed: false, retryAfterSeconds: 2, budget: 'requests' });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await limiter.takeRequest('user:a')).toEqual({ allowed: true });
    await closeAll();
  });

  it('counts token usage across processes and refuses the next round once a budget is spent', async () => {
    const prefix = server.prefix();
    const [one, two] = [await connect(server.url), await connect(server.url)];
    const limiterOf = (made: RedisConnection) => createRateLimiter(settings({ requests: null, tokens: 100, outputTokens: 30 }), createRedisRateLimitStore({ redis: made.client, prefix, whenUnavailable: 'closed', warn: () => undefined }));
    const [a, b] = [limiterOf(one), limiterOf(two)];
    await a.recordUsage('user:a', { inputTokens: 40, outputTokens: 10 });
    expect(await b.checkTokens('user:a')).toEqual({ allowed: true });
    await b.recordUsage('user:a', { inputTokens: 10, outputTokens: 20 });
    expect(await a.checkTokens('user:a')).toMatchObject({ allowed: false, budget: 'output_tokens', retryAfterSeconds: 60 });
    await closeAll();
  });

  it('keeps deciding, within its timeout, when Redis stops or freezes mid-run: closed refuses with rate_limit_unavailable, open admits and warns', async () => {
    const redis = await server.privateServer();
    const made = await connect(redis.url, 300);
    const warnings: string[] = [];
    const closed = createRateLimiter(settings(), createRedisRateLimitStore({ redis: made.client, prefix: 'p:', whenUnavailable: 'closed', warn: (message) => warnings.push(message) }));
    const open = createRateLimiter(settings(), createRedisRateLimitStore({ redis: made.client, prefix: 'q:', whenUnavailable: 'open', warn: (message) => warnings.push(message) }));
    expect(await closed.takeRequest('user:a')).toEqual({ allowed: true });

    const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
      const started = performance.now();
      const value = await work();
      return { value, ms: performance.now() - started };
    };
    redis.freeze();
    const frozen = await timed(() => closed.takeRequest('user:a'));
    expect(frozen.value).toEqual({ allowed: false, retryAfterSeconds: 1, budget: 'requests', unavailable: true });
    expect(frozen.ms).toBeLessThan(1500);
    redis.thaw();
    await redis.stop();
    const stopped = await timed(() => closed.takeRequest('user:a'));
    expect(stopped.value).toMatchObject({ allowed: false, unavailable: true });
    expect(stopped.ms).toBeLessThan(1500);
    expect(await closed.checkTokens('user:a')).toEqual({ allowed: true });
    expect(await open.takeRequest('user:a')).toEqual({ allowed: true });
    expect(warnings.length).toBeGreaterThanOrEqual(1);

    await redis.start();
    for (let i = 0; i < 100 && made.client.status !== 'ready'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await closed.takeRequest('user:a')).toEqual({ allowed: true });
    await closeAll();
  });
});
