import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp, defineManager, sqlite } from '../../src/data/index.js';
import type { App } from '../../src/data/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { Engine } from '../../src/engine/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { createChatTools } from '../../src/tools/index.js';
import type { AuditRecord } from '../../src/server/index.js';
import { Client, readSse, startServer } from './harness.js';
import type { Running } from './harness.js';

/**
 * A host's read permission with a typo (`titel` for `title`), on a real server: the person asking
 * sees a generic refusal, the host's log (onError) and the audit log get the detail.
 */
describe("a host's failing read permission over HTTP", () => {
  let app: App;
  let engine: Engine;
  let running: Running;
  const reported: { error: unknown; source: string }[] = [];
  const audited: AuditRecord[] = [];
  beforeAll(async () => {
    app = defineApp({
      database: sqlite({ path: ':memory:' }),
      managers: [defineManager({ name: 'Book', description: 'A book of the library.', fields: { title: 'string' }, chatExposed: true, permissions: { read: () => ({ titel: 'Dune' }) } })],
    });
    await app.ready();
    const tools = createChatTools(app, { toolStrategy: 'discovery' });
    engine = createEngine({
      app,
      store: createMemoryStore(),
      tools: tools.tools,
      toolSettings: tools.settings,
      provider: createScriptedProvider({
        completions: [
          { toolCalls: [{ id: 'q1', name: 'query', arguments: { manager: 'Book', fields: ['title'] } }] },
          { when: { toolResultContains: 'permission_error' }, text: 'I could not read that data.' },
        ],
      }),
    });
    await engine.ready;
    running = await startServer(
      engine,
      { rateLimit: { requests: 1000 }, audit: { enabled: true, level: 'messages' } },
      { onError: (error, context) => reported.push({ error, source: context.source }), audit: { logger: (record) => audited.push(record) } },
      app,
    );
  });
  afterAll(async () => {
    await running?.close();
    await engine?.close();
    await app?.close();
  });

  it('answers the person with permission_error and no schema detail; the log and the audit record carry the detail', async () => {
    const client = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const response = await client.post('/chat/stream/', { text: 'which books are there?', new_thread: true });
    const body = await response.clone().text();
    const events = await readSse(response);
    const result = events.find((event) => event.type === 'tool_result');
    expect(result).toMatchObject({ result: { error: { code: 'permission_error' } } });
    expect(JSON.stringify(result)).not.toMatch(/titel|title|Keys|id__in|filter key/);
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    expect(body).not.toMatch(/titel|Keys|id__in|filter key/);

    const detail = /The read permission of Book failed: Unknown filter key 'titel' on Book/;
    const logged = reported.find((entry) => entry.source === 'engine:tool');
    expect(logged).toBeDefined();
    expect(((logged!.error as Error).cause as Error).message).toMatch(detail);
    const record = audited.find((entry) => entry.event === 'permission_error');
    expect(record).toMatchObject({ actor: 'user:alice', source: 'tool', thread_id: events.at(-1)!.thread_id });
    expect(String(record!.detail)).toMatch(detail);
    expect(String(record!.message)).not.toMatch(/titel|Keys/);
  });

  it('answers /graphql with PERMISSION_ERROR and the generic message, and logs the detail', async () => {
    const client = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const body = await (await client.post('/graphql', { query: '{ bookList { items { title } } }' })).text();
    const answer = JSON.parse(body) as { errors: { message: string; extensions: { code: string } }[] };
    expect(answer.errors[0]).toMatchObject({ extensions: { code: 'PERMISSION_ERROR' } });
    expect(body).not.toMatch(/titel|Keys|id__in|filter key/);
    const logged = reported.find((entry) => entry.source === 'graphql');
    expect(((logged!.error as Error).cause as Error).message).toMatch(/The read permission of Book failed: Unknown filter key 'titel' on Book/);
  });
});
