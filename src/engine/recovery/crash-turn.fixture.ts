/**
 * The child process of the crash tests in crash-recovery.test.ts: runs one turn on a journal (a
 * SQLite file, or a `postgres://` URL with its schema as the fourth argument) and prints every event it streams as a JSON line, so that the parent can SIGKILL it at a chosen
 * point. Modes:
 * - `stream`: a slow answer (a chunk every 3 s); the parent kills it after the first text chunk it reads.
 * - `approve-before-journal`: a held write is approved, and the process stops for good right after
 *   the turn went `running` and before the approval is journaled (the store's append never returns).
 * - `approve-before-claim`: likewise, after the approval is journaled and before the confirmation is claimed.
 * - `inside-write`: the approved write is claimed and starts, and never returns.
 * - `stall`: the approved write takes 2 s (the parent SIGSTOPs the process inside it, past its
 *   lease); every journal write refused is recorded in the marker (`refused <code>`), and the
 *   process writes `done` and exits once its turn's stream ended.
 * Not part of the library.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { userActor } from '../../core/index.js';
import { createScriptedProvider } from '../../providers/index.js';
import { openSqliteStore } from '../../store/index.js';
import type { Store } from '../../store/index.js';
import { defineTool } from '../../tools/index.js';
import { createEngine } from '../index.js';

const [journal, markerPath, mode, schema] = process.argv.slice(2);
if (journal === undefined || markerPath === undefined || mode === undefined) throw new Error('usage: crash-turn DB|POSTGRES_URL MARKER MODE [SCHEMA]');

// pg loads only for a PostgreSQL journal.
const opened = journal.startsWith('postgres://')
  ? await (await import('../../postgres/index.js')).openPostgresStore({ url: journal, ...(schema === undefined ? {} : { schema }), max: 4 })
  : await openSqliteStore({ path: journal });
const forever = new Promise<never>(() => undefined);
/** The store, with the step the mode names never returning (as if the process stopped there). */
const store: Store = new Proxy(opened, {
  get(target, property, receiver) {
    const value = Reflect.get(target, property, receiver) as unknown;
    if (typeof value !== 'function') return value;
    if (mode === 'approve-before-journal' && property === 'appendItems') {
      return (turnId: string, items: readonly { kind: string; data: { outcome?: string } }[], patch?: unknown) => {
        if (items.some((item) => item.kind === 'confirmation_resolution' && item.data.outcome === 'approved')) {
          appendFileSync(markerPath, 'approved\n');
          return forever;
        }
        return opened.appendItems(turnId, items as never, patch as never);
      };
    }
    if (mode === 'approve-before-claim' && property === 'claimConfirmation') {
      return () => {
        appendFileSync(markerPath, 'claiming\n');
        return forever;
      };
    }
    if (mode === 'stall' && (property === 'appendItems' || property === 'stageItems')) {
      return async (...args: unknown[]) => {
        try {
          return await (value as (...rest: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          appendFileSync(markerPath, `refused ${(error as { code?: string }).code ?? 'unknown'}\n`);
          throw error;
        }
      };
    }
    return (value as (...args: unknown[]) => unknown).bind(target);
  },
});

const alice = userActor('alice', ['admin']);
const slow = mode === 'stream';
const engine = createEngine({
  store,
  settings: { leaseSeconds: 0.5 },
  provider: createScriptedProvider({
    completions: slow
      ? [{ text: ['Alpha bravo ', 'charlie ', 'delta.'], chunkDelayMs: 3000 }]
      : [{ toolCalls: [{ id: 'w1', name: 'add_part', arguments: { name: 'Bolt' } }] }, { text: 'never reached' }],
  }),
  tools: [
    defineTool({
      name: 'add_part',
      description: 'Adds a part.',
      input: z.object({ name: z.string() }),
      effect: 'write',
      handler: async () => {
        appendFileSync(markerPath, 'executed\n');
        if (mode === 'inside-write') await forever;
        if (mode === 'stall') await new Promise((resolve) => setTimeout(resolve, 2000));
        return { id: 1 };
      },
    }),
  ],
});

const print = (event: unknown): void => {
  process.stdout.write(`${JSON.stringify(event)}\n`);
};
let confirmation: string | undefined;
for await (const event of engine.send({ actor: alice, requestKey: 'crash-1', text: slow ? 'tell me slowly' : 'Add a part called Bolt' })) {
  print(event);
  if (event.type === 'confirm_mutation') confirmation = event.id;
}
if (confirmation !== undefined) for await (const event of engine.confirm({ actor: alice, confirmationId: confirmation, confirmed: true })) print(event);
if (mode === 'stall') {
  await engine.close();
  // A PostgreSQL pool's idle connections would keep the process alive for their idle timeout.
  await opened.close();
  appendFileSync(markerPath, 'done\n');
}
