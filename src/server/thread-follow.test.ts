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

const fixture = join(import.meta.dirname, 'journal-child.fixture.ts');

/** The `event:`/`data:` records of an SSE body, as they arrive, until `stop` says enough. */
async function readEvents(body: ReadableStream<Uint8Array>, stop: (events: { event: string; data: unknown }[]) => boolean): Promise<{ event: string; data: unknown }[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: unknown }[] = [];
  let buffer = '';
  while (!stop(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) as unknown });
    }
  }
  await reader.cancel();
  return events;
}

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
    const completed = (list: { event: string; data: unknown }[]) => list.filter((record) => record.event === 'turn' && (record.data as { status: string }).status === 'completed').length;
    const followed = readEvents(response.body!, (list) => completed(list) >= turns && list.filter((record) => record.event === 'item').length >= 4 * turns);
    await child.done;
    const seen = await followed;
    const items = seen.filter((record) => record.event === 'item').map((record) => record.data as ItemRecord);
    const journal = await store.listItems(thread.id);
    expect(items.map((item) => item.ordinal)).toEqual(journal.map((item) => item.ordinal));
    expect(items.map((item) => item.id)).toEqual(journal.map((item) => item.id));
    expect(journal.map((item) => item.kind)).toEqual(Array.from({ length: turns }, () => ['user_text', 'tool_call', 'tool_result', 'assistant_text']).flat());
    expect(completed(seen)).toBe(turns);
  });
});
