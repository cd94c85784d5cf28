import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { z } from 'zod';
import { demoCatalogue, demoRulebookYaml, demoVocabularyYaml } from '../../src/demo/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import type { Provider, ScriptInput, ScriptedProvider } from '../../src/providers/index.js';
import { createRouter, loadRulebook } from '../../src/router/index.js';
import type { CatalogueEntry, Router, RulebookInput } from '../../src/router/index.js';
import { createMemoryStore, openSqliteStore } from '../../src/store/index.js';
import type { ItemRecord, Store } from '../../src/store/index.js';
import { defineTool } from '../../src/tools/index.js';
import type { Tool } from '../../src/tools/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { ChatEvent, ConfirmMutationEvent, Engine, EngineOptions, EngineReader, EngineSettingsInput, PlanEvent } from '../../src/engine/index.js';

/** Router-first test pieces: the demo's router files over stand-in host tools that log their calls. */
export const SECRET = 'engine-router-test-secret-0123';
/** Monday 2026-10-19 09:00 UTC. */
export const NOW = Date.UTC(2026, 9, 19, 9, 0, 0);

export interface Calls {
  readonly log: { name: string; args: unknown }[];
}

const orderId = z.string().regex(/^[0-9]+$/);
const amount = z.string().regex(/^[0-9]+(\.[0-9]{1,2})?$/);

/** The demo's host tools as stand-ins: same names, effects and inputs; results from memory. */
export function demoStandIns(calls: Calls): Tool[] {
  const logged = <T>(name: string, args: unknown, result: T): T => {
    calls.log.push({ name, args });
    return result;
  };
  return [
    defineTool({
      name: 'get_order',
      description: 'Look up one order: its status, total and customer email.',
      input: z.object({ order_id: orderId }).strict(),
      effect: 'read',
      handler: (args) => logged('get_order', args, { order_id: args.order_id, status: 'paid', total: '40.00', email: 'ana@example.com' }),
    }),
    defineTool({
      name: 'list_events',
      description: 'List the calendar events between two times.',
      input: z.object({ time_min: z.string(), time_max: z.string() }).strict(),
      effect: 'read',
      handler: (args) => logged('list_events', args, [] as { id: string }[]),
    }),
    defineTool({
      name: 'charge_card',
      description: 'Charge the card on file for an order.',
      input: z.object({ order_id: orderId, amount }).strict(),
      effect: 'irreversible',
      handler: (args) => logged('charge_card', args, { order_id: args.order_id, charged: args.amount }),
    }),
    defineTool({
      name: 'refund_order',
      description: 'Refund an amount of an order to its card.',
      input: z.object({ order_id: orderId, amount }).strict(),
      effect: 'write',
      handler: (args) => logged('refund_order', args, { order_id: args.order_id, refunded: args.amount }),
    }),
    defineTool({
      name: 'send_receipt',
      description: 'Email the receipt of an order.',
      input: z.object({ order_id: orderId, email: z.string() }).strict(),
      effect: 'write',
      handler: (args) => logged('send_receipt', args, { order_id: args.order_id, sent_to: args.email }),
    }),
    defineTool({
      name: 'create_project',
      description: 'Create a project.',
      input: z.object({ name: z.string() }).strict(),
      effect: 'write',
      handler: (args) => logged('create_project', args, { id: '12', name: args.name }),
    }),
    defineTool({
      name: 'add_task',
      description: 'Add a task to a project.',
      input: z.object({ project_id: z.string(), title: z.string(), due: z.string().optional() }).strict(),
      effect: 'write',
      handler: (args) => logged('add_task', args, { id: '7', title: args.title, project_id: args.project_id }),
    }),
  ];
}

export function demoRouter(overrides: Partial<RulebookInput> = {}, catalogue: readonly CatalogueEntry[] = demoCatalogue): Router {
  const { digest: _digest, ...rulebook } = loadRulebook(demoRulebookYaml);
  return createRouter({ catalogue, rulebook: { ...rulebook, ...overrides }, vocabulary: demoVocabularyYaml, secret: SECRET });
}

export interface RouterKit {
  readonly engine: Engine;
  readonly store: Store;
  readonly provider: ScriptedProvider | undefined;
  readonly calls: Calls['log'];
  /** How many times the engine told the reader a write ran. */
  readonly writesNoted: () => number;
}

export function routerKit(
  store: Store,
  options: { script?: ScriptInput; provider?: Provider; settings?: EngineSettingsInput; router?: Router; extra?: Partial<EngineOptions> } = {},
): RouterKit {
  const calls: Calls = { log: [] };
  const router = options.router ?? demoRouter();
  let noted = 0;
  const reader: EngineReader = { router: () => router, readTools: [], noteWrite: () => void noted++ };
  const scripted = options.script === undefined ? undefined : createScriptedProvider(options.script);
  const provider = options.provider ?? scripted;
  const engine = createEngine({
    store,
    tools: demoStandIns(calls),
    reader,
    clock: () => NOW,
    toolSettings: { confirmTimeoutSeconds: 300 },
    settings: { retry: { backoffMs: [1], jitter: 0 }, ...options.settings },
    ...(provider === undefined ? {} : { provider }),
    ...options.extra,
  });
  return { engine, store, provider: scripted, calls: calls.log, writesNoted: () => noted };
}

/** `routerKit`s and SQLite stores of the calling test file, closed (and their directories removed) after each test. */
export function trackedRouterKits(): {
  readonly kit: (options?: Parameters<typeof routerKit>[1], store?: Store) => RouterKit;
  readonly sqlitePath: () => string;
  readonly sqlite: (path: string) => Promise<Store>;
  /** Closes the oldest open SQLite store now (a restart on the same file). */
  readonly closeOldestSqlite: () => Promise<void>;
} {
  const kits: RouterKit[] = [];
  const stores: Store[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const made of kits.splice(0)) await made.engine.close();
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    kit: (options = {}, store = createMemoryStore()) => {
      const made = routerKit(store, options);
      kits.push(made);
      return made;
    },
    sqlitePath: () => {
      const dir = mkdtempSync(join(tmpdir(), 'plumb-router-'));
      dirs.push(dir);
      return join(dir, 'chat.db');
    },
    sqlite: async (path) => {
      const store = await openSqliteStore({ path });
      stores.push(store);
      return store;
    },
    closeOldestSqlite: async () => {
      await stores.shift()?.close();
    },
  };
}

export const eventTypes = (events: readonly ChatEvent[]): string[] => events.map((event) => event.type);
export const planOf = (events: readonly ChatEvent[]): PlanEvent => events.find((event): event is PlanEvent => event.type === 'plan')!;
export const confirmOf = (events: readonly ChatEvent[]): ConfirmMutationEvent => events.find((event): event is ConfirmMutationEvent => event.type === 'confirm_mutation')!;

/** The journal as `kind[:detail]`: a plan item shows its outcome and what the engine did. */
export async function journalOf(store: Store, threadId: string): Promise<string[]> {
  return (await store.listItems(threadId)).map(describeItem);
}
function describeItem(item: ItemRecord): string {
  const data = item.data as Record<string, unknown>;
  if (item.kind === 'retry_marker' && data.reason === 'plan') return `plan:${(data.plan as { outcome: string }).outcome}/${String(data.next)}`;
  if ((item.kind as string) === 'plan') return `plan:${(data.plan as { outcome: string }).outcome}/${String(data.next)}`;
  if (item.kind === 'tool_call' || item.kind === 'tool_result') return `${item.kind}:${String(data.name)}`;
  return item.kind;
}
