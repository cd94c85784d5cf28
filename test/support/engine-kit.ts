import { afterEach } from 'vitest';
import { z } from 'zod';
import { userActor } from '../../src/core/index.js';
import type { Actor } from '../../src/core/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import type { ScriptInput, ScriptedProvider } from '../../src/providers/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { defineTool } from '../../src/tools/index.js';
import type { Tool } from '../../src/tools/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { Engine, EngineOptions, EngineSettingsInput } from '../../src/engine/index.js';

/** Shared pieces for the engine's tests: a read tool, two write tools, a scripted provider. */
export const alice: Actor = userActor('alice', ['admin']);
export const bob: Actor = userActor('bob', ['sales']);

export interface Kit {
  readonly engine: Engine;
  readonly store: Store;
  readonly provider: ScriptedProvider | undefined;
  readonly writes: { name: string; input: unknown }[];
  readonly reads: string[];
}

export function testTools(log: { writes: { name: string; input: unknown }[]; reads: string[] }, gate?: Promise<void>): Tool[] {
  return [
    defineTool({
      name: 'lookup',
      description: 'Looks up parts by a query.',
      input: z.object({ q: z.string() }),
      effect: 'read',
      handler: async (args, ctx) => {
        log.reads.push(args.q);
        if (args.q === 'slow') await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 10_000);
          ctx.signal.addEventListener('abort', () => { clearTimeout(timer); reject(new Error('aborted')); }, { once: true });
        });
        if (args.q === 'boom') throw new Error('database down');
        return { rows: args.q === 'none' ? [] : [{ name: `Part ${args.q}`, sku: 'SKU-1' }] };
      },
    }),
    defineTool({
      name: 'create_part',
      description: 'Creates a part.',
      input: z.object({ name: z.string() }),
      effect: 'write',
      handler: async (args) => {
        log.writes.push({ name: 'create_part', input: args });
        if (gate !== undefined) await gate;
        return { id: log.writes.length, name: args.name };
      },
    }),
    defineTool({
      name: 'touch',
      description: 'Marks a part as seen (no confirmation).',
      input: z.object({ id: z.number() }),
      effect: 'write',
      confirm: false,
      handler: async (args) => {
        log.writes.push({ name: 'touch', input: args });
        if (gate !== undefined) await gate;
        return { ok: true };
      },
    }),
  ];
}

export function makeKit(
  script: ScriptInput | undefined,
  settings: EngineSettingsInput = {},
  extra: Partial<EngineOptions> & { gate?: Promise<void> } = {},
): Kit {
  const log = { writes: [] as { name: string; input: unknown }[], reads: [] as string[] };
  const store = extra.store ?? createMemoryStore();
  const provider = script === undefined ? undefined : createScriptedProvider(script);
  const engine = createEngine({
    store,
    tools: extra.tools ?? testTools(log, extra.gate),
    toolSettings: extra.toolSettings ?? { confirmTimeoutSeconds: 30 },
    settings: { retry: { backoffMs: [1, 2, 3, 4], jitter: 0 }, ...settings },
    ...(provider === undefined ? {} : { provider }),
    ...(extra.hooks === undefined ? {} : { hooks: extra.hooks }),
    ...(extra.clock === undefined ? {} : { clock: extra.clock }),
    ...(extra.app === undefined ? {} : { app: extra.app }),
    ...(extra.planned === undefined ? {} : { planned: extra.planned }),
  });
  return { engine, store, provider, writes: log.writes, reads: log.reads };
}

let keys = 0;
/** A fresh request key per call, within one test file's process. */
export function key(): string {
  keys += 1;
  return `req-${keys}`;
}

/** A `makeKit` whose engines are closed after each test of the calling file. */
export function trackedKits(): (...args: Parameters<typeof makeKit>) => Kit {
  const kits: Kit[] = [];
  afterEach(async () => {
    for (const made of kits.splice(0)) await made.engine.close();
  });
  return (...args) => {
    const made = makeKit(...args);
    kits.push(made);
    return made;
  };
}
