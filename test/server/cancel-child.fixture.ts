/**
 * The other process of cancel-redis.test.ts: a chat server on a shared SQLite journal, announcing
 * its writes and hearing cancel requests over Redis. `slow …` streams twenty chunks 150 ms apart.
 * Prints `{"url"}` once listening; closes everything when its stdin ends.
 */
import { userActor } from '../../src/core/index.js';
import { createDemoApp } from '../../src/demo/index.js';
import { createEngine } from '../../src/engine/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import { announceWrites, createRedisThreadEvents, createServer, parseConfig } from '../../src/server/index.js';
import { openSqliteStore } from '../../src/store/index.js';

const [journal, redisUrl, prefix, controlChannel] = process.argv.slice(2);
if (journal === undefined || redisUrl === undefined || prefix === undefined || controlChannel === undefined) throw new Error('usage: cancel-child JOURNAL REDIS PREFIX CONTROL');

const events = await createRedisThreadEvents({ url: redisUrl, timeoutMs: 2000, prefix, controlChannel, report: (error) => process.stderr.write(`${String(error)}\n`) });
const store = announceWrites(await openSqliteStore({ path: journal }), events);
const slowText = Array.from({ length: 20 }, (_, i) => `word${i} `);
const engine = createEngine({
  store,
  provider: createScriptedProvider({ completions: [{ when: { userTextContains: 'slow' }, text: slowText, chunkDelayMs: 150, repeat: true }, { text: 'Echo.', repeat: true }] }),
  tools: [],
  settings: { retry: { maxAttempts: 0, backoffMs: [1] }, gracefulCancelMs: 20 },
});
await engine.ready;
const app = await createDemoApp({ path: ':memory:' });
const server = await createServer({ app, engine, settings: parseConfig({ rateLimit: { requests: 100_000 } }), authenticate: () => ({ actor: userActor('alice'), credential: 'token' }), following: { store, events } });
const url = await server.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url })}\n`);
await new Promise<void>((resolve) => process.stdin.once('end', () => resolve()).resume());
await server.close();
await engine.close();
await app.close();
await store.close();
await events.close();
