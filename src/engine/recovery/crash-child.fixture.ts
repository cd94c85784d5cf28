/**
 * The child process of the crash test (restart.test.ts): runs one turn on a SQLite store whose
 * write tool records that it started and then blocks forever, so that the parent can SIGKILL it
 * mid-write. Not part of the library.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { userActor } from '../../core/index.js';
import { createScriptedProvider } from '../../providers/index.js';
import { openSqliteStore } from '../../store/index.js';
import { defineTool } from '../../tools/index.js';
import { collect, createEngine } from '../index.js';

const [dbPath, markerPath] = process.argv.slice(2);
if (dbPath === undefined || markerPath === undefined) throw new Error('usage: crash-child DB MARKER');

const store = await openSqliteStore({ path: dbPath });
const engine = createEngine({
  store,
  // A short lease, so that the parent's engine finds the turn orphaned soon after the kill.
  settings: { leaseSeconds: 0.5 },
  provider: createScriptedProvider({
    completions: [
      { toolCalls: [{ id: 'r1', name: 'count_parts', arguments: {} }] },
      { text: 'There are 3 parts; creating one more.', toolCalls: [{ id: 'w1', name: 'add_part', arguments: { name: 'Bolt' } }] },
      { text: 'never reached' },
    ],
  }),
  tools: [
    defineTool({ name: 'count_parts', description: 'Counts parts.', input: z.object({}), effect: 'read', handler: () => ({ count: 3 }) }),
    defineTool({
      name: 'add_part',
      description: 'Adds a part.',
      input: z.object({ name: z.string() }),
      effect: 'write',
      confirm: false,
      handler: async () => {
        appendFileSync(markerPath, 'executed\n');
        await new Promise<never>(() => undefined);
      },
    }),
  ],
});

await collect(engine.send({ actor: userActor('alice'), requestKey: 'crash-1', text: 'Add a part called Bolt' }));
