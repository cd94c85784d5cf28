/**
 * A child process of the shared rate-limit test (redis-rate-limit-store.test.ts): takes `count`
 * requests at once from the scope's budget over Redis and prints how many were admitted. Not part
 * of the library.
 */
import { connectRedis } from './redis-connection.js';
import { createRedisRateLimitStore } from './redis-rate-limit-store.js';
import { createRateLimiter } from './rate-limiter.js';

const [url, prefix, limitText, countText] = process.argv.slice(2);
if (url === undefined || prefix === undefined || limitText === undefined || countText === undefined) throw new Error('usage: rate-child URL PREFIX LIMIT COUNT');
const redis = await connectRedis(url, { timeoutMs: 2000 });
const store = createRedisRateLimitStore({ redis: redis.client, prefix, whenUnavailable: 'closed', warn: () => undefined });
const limiter = createRateLimiter({ requests: Number(limitText), windowSeconds: 60, tokens: null, inputTokens: null, outputTokens: null }, store);
// Both processes start together: say so, then wait for the parent's go (a line on stdin).
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const decisions = await Promise.all(Array.from({ length: Number(countText) }, () => limiter.takeRequest('user:shared')));
process.stdout.write(`${JSON.stringify({ admitted: decisions.filter((decision) => decision.allowed).length, refused: decisions.filter((decision) => !decision.allowed).map((decision) => (decision.allowed ? 0 : decision.retryAfterSeconds)) })}\n`);
await redis.close();
