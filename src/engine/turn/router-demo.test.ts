import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../data/index.js';
import { createDemoApp, createDemoHostTools, demoActors, demoRulebookYaml, demoVocabularyYaml } from '../../demo/index.js';
import { createScriptedProvider } from '../../providers/index.js';
import type { ScriptedProvider } from '../../providers/index.js';
import { openSqliteStore } from '../../store/index.js';
import type { Store } from '../../store/index.js';
import { createChatTools } from '../../tools/index.js';
import { collect, createAppReader, createEngine } from '../index.js';
import type { ChatEvent, ConfirmMutationEvent, Engine, PlanEvent } from '../index.js';
import { tempDirEach } from '../../../test/support/temp.js';

/** Router-first turns over the demo shop with the real app reader, SQLite store and dispatcher. */
const SECRET = 'engine-demo-secret-0123456789';
const alice = demoActors.alice;
const dir = tempDirEach('plumb-engine-demo-');
let app: App;
let store: Store;
let engine: Engine | undefined;
let keys = 0;
const key = (): string => `demo-req-${++keys}`;

beforeEach(async () => {
  app = await createDemoApp({ path: join(dir.path, 'demo.sqlite'), now: new Date('2026-10-19T08:00:00Z') });
  store = await openSqliteStore({ path: join(dir.path, 'chat.sqlite') });
});
afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await store.close();
  await app.close();
});

async function demoEngine(provider?: ScriptedProvider): Promise<Engine> {
  const hostTools = createDemoHostTools(app);
  const modelTools = createChatTools(app).tools;
  const reader = await createAppReader({ app, hostTools, modelTools, vocabulary: demoVocabularyYaml, rulebook: demoRulebookYaml, secret: SECRET });
  engine = createEngine({ app, store, tools: [...modelTools, ...hostTools], reader, ...(provider === undefined ? {} : { provider }) });
  return engine;
}

const planOf = (events: readonly ChatEvent[]): PlanEvent | undefined => events.find((event): event is PlanEvent => event.type === 'plan');

describe('router-first turns over the demo', () => {
  it('reads a data question into a direct-strategy read and answers it from the rows, with no model', async () => {
    const chat = await demoEngine();
    const { events, answer } = await chat.ask({ actor: alice, requestKey: key(), text: 'which parts are made of steel?' });
    expect(planOf(events)).toMatchObject({ outcome: 'run', steps: [{ tool: 'query_part', arguments: { filters: { material__name: 'Steel' } } }] });
    const result = events.find((event) => event.type === 'tool_result');
    expect(result).toMatchObject({ name: 'query_part' });
    expect(JSON.stringify(result)).not.toContain('"error"');
    expect(events.at(-1)!.type).toBe('done');
    expect(answer.length).toBeGreaterThan(0);
  });

  it('makes a new material readable on the turn after a write the engine ran', async () => {
    const chat = await demoEngine();
    await app.load('Material', [{ name: 'Unobtainium', density: 99 }]);
    const before = await chat.ask({ actor: alice, requestKey: key(), text: 'show me parts made of unobtainium' });
    expect(planOf(before.events)!.outcome).toBe('unread');
    const threadId = before.events[0]!.thread_id;
    const created = await chat.ask({ actor: alice, threadId, requestKey: key(), text: 'create a project called Alpha' });
    const confirmation = created.events.find((event): event is ConfirmMutationEvent => event.type === 'confirm_mutation')!;
    expect(confirmation).toMatchObject({ mutation: 'create_project', input: { name: 'Alpha' } });
    await collect(chat.confirm({ actor: alice, confirmationId: confirmation.id, confirmed: true }));
    const after = await chat.ask({ actor: alice, threadId, requestKey: key(), text: 'show me parts made of unobtainium' });
    expect(planOf(after.events)).toMatchObject({ outcome: 'run', steps: [{ tool: 'query_part', arguments: { filters: { material__name: 'Unobtainium' } } }] });
  });

  it('never offers the model the read tools the router uses', async () => {
    const provider = createScriptedProvider({ completions: [{ text: 'Hello!' }] });
    const chat = await demoEngine(provider);
    const { answer } = await chat.ask({ actor: alice, requestKey: key(), text: 'good morning, how are you today?' });
    expect(answer).toBe('Hello!');
    const offered = provider.requests[0]!.tools.map((tool) => tool.name);
    expect(offered).toContain('get_order');
    expect(offered.some((name) => name.startsWith('query_'))).toBe(false);
  });
});
