import { z } from 'zod';
import { createEngine } from '../../src/engine/index.js';
import type { Engine } from '../../src/engine/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import type { ScriptInput } from '../../src/providers/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { announceWrites, createLocalThreadEvents } from '../../src/server/index.js';
import type { PlumbConfigInput, ThreadEvents } from '../../src/server/index.js';
import { defineTool } from '../../src/tools/index.js';
import { startServer } from './harness.js';
import type { Running } from './harness.js';
import { readSseRecords } from '../support/sse.js';

/**
 * A real engine for the stop, retry, pages and views tests: a scripted model, whose answer the
 * message's words choose, and three tools. `lookup` reads; `create_part` writes after a person's
 * confirmation; `touch` writes at once and never finishes (a write a cancel cuts off). Served on
 * loopback with `following`, so that live views are on.
 *
 * - `steel …`: text in five chunks, 30 ms apart (drafts a view shows as they stream);
 * - `slow …`: twenty chunks 150 ms apart (a turn to stop);
 * - `once1 …` (to `once4`): the same the first time, at once after that (a stopped turn to retry);
 * - `create …`: asks for create_part, which waits for a confirmation;
 * - `touch …`: calls touch;
 * - `flaky …`: the first time the provider fails (503, no retries), then answers;
 * - `regen …`: `First take.` the first time, `Second take.` after that (an answer to regenerate);
 * - `big …`: two reads of 300 KB each, then an answer;
 * - anything else: `Echo.`.
 */
const slowText = Array.from({ length: 20 }, (_, i) => `word${i} `);

export const kitScript: ScriptInput = {
  completions: [
    { when: { toolName: 'create_part' }, text: 'Created.', repeat: true },
    { when: { toolName: 'touch' }, text: 'Touched.', repeat: true },
    { when: { toolName: 'lookup' }, text: 'Two big results.', repeat: true },
    { when: { userTextContains: 'steel' }, text: ['Steel ', 'is used ', 'in five ', 'parts. ', 'Bolt first.'], chunkDelayMs: 30, repeat: true },
    ...[1, 2, 3, 4].flatMap((n) => [
      { when: { userTextContains: `once${n}` }, text: slowText, chunkDelayMs: 150 },
      { when: { userTextContains: `once${n}` }, text: 'Quick now.', repeat: true },
    ]),
    { when: { userTextContains: 'regen' }, text: 'First take.' },
    { when: { userTextContains: 'regen' }, text: 'Second take.', repeat: true },
    { when: { userTextContains: 'slow' }, text: slowText, chunkDelayMs: 150, repeat: true },
    { when: { userTextContains: 'create' }, toolCalls: [{ name: 'create_part', arguments: { name: 'Gear' } }], repeat: true },
    { when: { userTextContains: 'touch' }, toolCalls: [{ name: 'touch', arguments: { id: 1 } }], repeat: true },
    { when: { userTextContains: 'flaky' }, error: { status: 503, message: 'overloaded' } },
    { when: { userTextContains: 'flaky' }, text: 'Back again.', repeat: true },
    { when: { userTextContains: 'big' }, toolCalls: [{ name: 'lookup', arguments: { q: 'a' } }, { name: 'lookup', arguments: { q: 'b' } }], repeat: true },
    { text: 'Echo.', repeat: true },
  ],
};

export interface ThreadKit {
  readonly engine: Engine;
  readonly store: Store;
  readonly events: ThreadEvents;
  readonly running: Running;
  readonly url: string;
  close(): Promise<void>;
}

export async function startThreadKit(settings: PlumbConfigInput = {}): Promise<ThreadKit> {
  const events = createLocalThreadEvents();
  const store = announceWrites(createMemoryStore(), events);
  const engine = createEngine({
    store,
    provider: createScriptedProvider(kitScript),
    tools: [
      defineTool({ name: 'lookup', description: 'Looks parts up.', input: z.object({ q: z.string() }), effect: 'read', handler: (args) => ({ q: args.q, blob: 'x'.repeat(300_000) }) }),
      defineTool({ name: 'create_part', description: 'Creates a part.', input: z.object({ name: z.string() }), effect: 'write', handler: (args) => ({ id: 7, name: args.name }) }),
      defineTool({ name: 'touch', description: 'Marks a part as seen.', input: z.object({ id: z.number() }), effect: 'write', confirm: false, handler: () => new Promise(() => undefined) }),
    ],
    toolSettings: { confirmTimeoutSeconds: 600 },
    settings: { retry: { maxAttempts: 0, backoffMs: [1] }, gracefulCancelMs: 20 },
  });
  await engine.ready;
  const running = await startServer(engine, { rateLimit: { requests: 100_000 }, ...settings }, { following: { store, events } });
  return {
    engine,
    store,
    events,
    running,
    url: running.url,
    close: async () => {
      await running.close();
      await engine.close();
      await events.close();
      await store.close();
    },
  };
}

/** The `data:` events of an SSE body as they arrive, until `enough` says so (then the body is cancelled). */
export async function readEvents(response: Response, enough: (events: Record<string, unknown>[]) => boolean): Promise<Record<string, unknown>[]> {
  const records = await readSseRecords(response.body!, (seen) => enough(seen.map((record) => record.data)));
  return records.map((record) => record.data);
}

export const alice = { 'x-plumb-user': 'alice' };
export const bob = { 'x-plumb-user': 'bob' };
