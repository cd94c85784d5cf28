import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { userActor } from '../core/index.js';
import { createDemoApp } from '../demo/index.js';
import { createEngine } from '../engine/index.js';
import { openSqliteStore } from '../store/index.js';
import type { ItemRecord } from '../store/index.js';
import { readyChild } from '../../test/support/child.js';
import { describeWithRedis } from '../../test/support/redis.js';
import { tempDirEach } from '../../test/support/temp.js';
import { parseConfig } from '../config/index.js';
import { createServer } from './create-server.js';
import { createRedisThreadEvents } from './redis-thread-events.js';
import { readSseRecords } from '../../test/support/sse.js';
import type { SseRecord } from '../../test/support/sse.js';

const fixture = join(import.meta.dirname, 'journal-child.fixture.ts');

describeWithRedis('following a thread from another process', (redis) => {
  const dir = tempDirEach('plumb-follow-');
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('streams every item that turns on another process commit, in order, with no gap or repeat, and their ends', async () => {
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

    const refused = await fetch(`${url}/chat/threads/no-such-thread/follow/`);
    expect(refused.status).toBe(404);
    const response = await fetch(`${url}/chat/threads/${thread.id}/follow/?after=0`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const turns = 3;
    const child = readyChild<{ done: boolean }>(fixture, [path, redis.url, prefix, 'turns', thread.id, String(turns)]);
    await child.ready;
    child.go();
    const completed = (list: SseRecord[]) => list.filter((record) => record.event === 'turn' && (record.data as { status: string }).status === 'completed').length;
    const followed = readSseRecords(response.body!, (list) => completed(list) >= turns && list.filter((record) => record.event === 'item').length >= 4 * turns);
    await child.done;
    const seen = await followed;
    const items = seen.filter((record) => record.event === 'item').map((record) => record.data as unknown as ItemRecord);
    const journal = await store.listItems(thread.id);
    expect(items.map((item) => item.ordinal)).toEqual(journal.map((item) => item.ordinal));
    expect(items.map((item) => item.id)).toEqual(journal.map((item) => item.id));
    expect(journal.map((item) => item.kind)).toEqual(Array.from({ length: turns }, () => ['user_text', 'tool_call', 'tool_result', 'assistant_text']).flat());
    expect(completed(seen)).toBe(turns);
  });
});
