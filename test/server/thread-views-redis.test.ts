import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { userActor } from '../../src/core/index.js';
import { createDemoApp } from '../../src/demo/index.js';
import { createEngine } from '../../src/engine/index.js';
import { openSqliteStore } from '../../src/store/index.js';
import { createRedisThreadEvents, createServer, parseConfig } from '../../src/server/index.js';
import { readyChild } from '../support/child.js';
import { describeWithRedis } from '../support/redis.js';
import { tempDirEach } from '../support/temp.js';
import { readEvents } from './thread-kit.js';

const fixture = join(import.meta.dirname, '../../src/server/journal-child.fixture.ts');
type Event = Record<string, unknown>;

describeWithRedis('a live view of a thread whose turns run in another process', (redis) => {
  const dir = tempDirEach('plumb-views-');
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('shows each item another process commits, with its seq, and resumes from the last seq it saw', async () => {
    const path = join(dir.path, 'journal.db');
    const prefix = redis.prefix();
    const app = await createDemoApp({ path: ':memory:' });
    closers.push(() => app.close());
    const store = await openSqliteStore({ path });
    closers.push(() => store.close());
    const thread = await store.createThread({ owner: 'user:alice' });
    const events = await createRedisThreadEvents({ url: redis.url, timeoutMs: 2000, prefix, report: (error) => { throw error; } });
    closers.push(() => events.close());
    const engine = createEngine({ store, tools: [] });
    closers.push(() => engine.close());
    const server = await createServer({ app, engine, settings: parseConfig({}), authenticate: () => ({ actor: userActor('alice'), credential: 'token' }), following: { store, events } });
    closers.push(() => server.close());
    const url = await server.listen({ port: 0, host: '127.0.0.1' });

    const view = await fetch(`${url}/chat/threads/${thread.id}/view/`);
    expect(view.status).toBe(200);
    const turns = 2;
    const completed = (list: Event[]) => list.filter((event) => event.type === 'turn' && event.status === 'completed').length;
    const watched = readEvents(view, (list) => completed(list) >= turns);
    const child = readyChild<{ done: boolean }>(fixture, [path, redis.url, prefix, 'turns', thread.id, String(turns)]);
    await child.ready;
    child.go();
    await child.done;
    const seen = await watched;
    expect(seen[0]).toMatchObject({ type: 'view', seq: '0', ordinal: 0, turn: null });
    const shown = seen.filter((event) => event.type === 'item').map((event) => event.item as { ordinal: number; id: string; kind: string });
    const journal = await store.listItems(thread.id);
    expect(shown.map((item) => item.id)).toEqual(journal.map((item) => item.id));
    expect(seen.filter((event) => event.type === 'item').map((event) => event.seq)).toEqual(journal.map((item) => String(item.ordinal)));

    // Back after the first turn's items: the rest is replayed from the journal, then the view.
    const firstTurnEnd = journal.findIndex((item) => item.kind === 'assistant_text') + 1;
    const resumed = await readEvents(await fetch(`${url}/chat/threads/${thread.id}/view/`, { headers: { 'last-event-id': String(firstTurnEnd) } }), (list) => list.some((event) => event.type === 'view'));
    expect(resumed.filter((event) => event.type === 'item').map((event) => (event.item as { id: string }).id)).toEqual(journal.slice(firstTurnEnd).map((item) => item.id));
    expect(resumed.at(-1)).toMatchObject({ type: 'view', ordinal: journal.length, turn: { status: 'completed' } });
  });
});
