import { afterEach, describe, expect, it } from 'vitest';
import { userActor } from '../../src/core/index.js';
import { createDemoApp } from '../../src/demo/index.js';
import { collect, createEngine } from '../../src/engine/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import { announceWrites, createLocalThreadEvents, createServer, parseConfig } from '../../src/server/index.js';
import { createMemoryStore } from '../../src/store/index.js';

describe('a cancel over the local transport, to a server whose engine does not run the turn', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('reaches the engine that runs it, through the same events, and answers the cancelled turn', async () => {
    const events = createLocalThreadEvents((error) => {
      throw error;
    });
    closers.push(() => events.close());
    const store = announceWrites(createMemoryStore(), events);
    const alice = userActor('alice');
    const slow = Array.from({ length: 20 }, (_, i) => `word${i} `);
    const running = createEngine({ store, provider: createScriptedProvider({ completions: [{ text: slow, chunkDelayMs: 100, repeat: true }] }), tools: [] });
    closers.push(() => running.close());
    const idle = createEngine({ store, tools: [] });
    closers.push(() => idle.close());
    const app = await createDemoApp({ path: ':memory:' });
    closers.push(() => app.close());
    const authenticate = () => ({ actor: alice, credential: 'token' as const });
    const settings = parseConfig({});
    // The engine that runs the turn is served too (its server hears cancel requests); the cancel goes to the other one.
    const runningServer = await createServer({ app, engine: running, settings, authenticate, following: { store, events } });
    closers.push(() => runningServer.close());
    const idleServer = await createServer({ app, engine: idle, settings, authenticate, following: { store, events } });
    closers.push(() => idleServer.close());
    const url = await idleServer.listen({ port: 0, host: '127.0.0.1' });

    const thread = await store.createThread({ owner: 'user:alice' });
    const turn = collect(running.send({ actor: alice, threadId: thread.id, requestKey: 'k1', text: 'slow please' }));
    // The turn is active (accepted, then streaming) as soon as it is in the journal.
    while ((await store.listTurns(thread.id)).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const answer = await fetch(`${url}/chat/cancel/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ thread: thread.id }) });
    expect(answer.status).toBe(200);
    const { turn: stopped } = (await answer.json()) as { turn: { id: string; status: string; failure_code: string } };
    expect(stopped).toMatchObject({ status: 'cancelled', failure_code: 'cancelled' });
    expect((await turn).events.at(-1)).toMatchObject({ type: 'error', code: 'cancelled', turn_id: stopped.id });
  });
});
