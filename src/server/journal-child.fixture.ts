/**
 * The other process of the cross-process tests (thread-follow.test.ts, postgres-claims.test.ts):
 * an engine on a shared journal (a SQLite file or a PostgreSQL schema), announcing its writes over
 * Redis when given a URL. `turns THREAD N`: runs N turns in the thread; `confirm ID N`: answers the
 * confirmation N times at once and prints how many were accepted. Not part of the library.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { userActor } from '../core/index.js';
import { collect, createEngine } from '../engine/index.js';
import { openPostgresStore } from '../postgres/index.js';
import { createScriptedProvider } from '../providers/index.js';
import { openSqliteStore } from '../store/index.js';
import type { Store } from '../store/index.js';
import { defineTool } from '../tools/index.js';
import { announceWrites } from './announcing-store.js';
import { createRedisThreadEvents } from './redis-thread-events.js';

const [journal, redisUrl, redisPrefix, mode, target, countText, marker] = process.argv.slice(2);
if (journal === undefined || mode === undefined || target === undefined || countText === undefined) throw new Error('usage: journal-child JOURNAL REDIS PREFIX turns|confirm TARGET N [MARKER]');

let store: Store = journal.startsWith('postgres') ? await openPostgresStore({ url: journal.split('#')[0]!, schema: journal.split('#')[1]!, max: 8 }) : await openSqliteStore({ path: journal });
const events = redisUrl === undefined || redisUrl === '-' ? undefined : await createRedisThreadEvents({ url: redisUrl, timeoutMs: 2000, prefix: redisPrefix ?? 'plumb:thread:', report: () => undefined });
if (events !== undefined) store = announceWrites(store, events);
const engine = createEngine({
  store,
  provider: createScriptedProvider({
    completions: [
      { repeat: true, when: { toolName: 'lookup' }, text: 'Three parts.' },
      { repeat: true, when: { toolName: 'create_part' }, text: 'Created.' },
      { repeat: true, toolCalls: [{ name: 'lookup', arguments: { q: 'parts' } }] },
    ],
  }),
  tools: [
    defineTool({ name: 'lookup', description: 'Looks parts up.', input: z.object({ q: z.string() }), effect: 'read', handler: () => ({ rows: [1, 2, 3] }) }),
    defineTool({
      name: 'create_part',
      description: 'Creates a part.',
      input: z.object({ name: z.string() }),
      effect: 'write',
      handler: (args) => {
        if (marker !== undefined) appendFileSync(marker, `${process.pid} ${args.name}\n`);
        return { id: 1 };
      },
    }),
  ],
});
await engine.ready;
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const alice = userActor('alice');
if (mode === 'turns') {
  for (let i = 0; i < Number(countText); i++) await collect(engine.send({ actor: alice, threadId: target, requestKey: `child-${process.pid}-${i}`, text: `how many parts? ${i}` }));
  process.stdout.write(`${JSON.stringify({ done: true })}\n`);
} else {
  const answers = await Promise.all(Array.from({ length: Number(countText) }, () => collect(engine.confirm({ actor: alice, confirmationId: target, confirmed: true }))));
  process.stdout.write(`${JSON.stringify({ accepted: answers.filter((answer) => !answer.events.some((event) => event.type === 'error')).length })}\n`);
}
await engine.close();
await store.close();
await events?.close();
