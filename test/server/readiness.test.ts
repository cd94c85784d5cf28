import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithPostgres } from '../../src/data/testing/postgres.js';
import type { App } from '../../src/data/index.js';
import { createDemoApp } from '../../src/demo/index.js';
import { openPostgresStore } from '../../src/postgres/index.js';
import { connectRedis, createServer } from '../../src/server/index.js';
import type { PlumbServer, ReadinessSources } from '../../src/server/index.js';
import { openSqliteStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { describeWithRedis } from '../support/redis.js';
import { tempDirEach } from '../support/temp.js';
import { createFakeEngine } from './fake-engine.js';

interface Readiness {
  readonly status: number;
  readonly body: { ready: boolean; checks: Record<string, string>; error?: { code: string; message: string } };
}

let app: App;
beforeAll(async () => {
  app = await createDemoApp({ path: ':memory:' });
});
afterAll(async () => {
  await app.close();
});

const servers: PlumbServer[] = [];
const stores: Store[] = [];

/** A server on loopback over the fake engine, `ready` settling when `recovery` does. */
async function serve(readiness: ReadinessSources, recovery?: Promise<void>): Promise<(path?: string) => Promise<Readiness>> {
  const engine = { ...createFakeEngine(), ...(recovery === undefined ? {} : { ready: recovery }) };
  const server = await createServer({ app, engine, readiness });
  servers.push(server);
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return async (path = '/readyz') => {
    const response = await fetch(`${url}${path}`);
    return { status: response.status, body: (await response.json()) as Readiness['body'] };
  };
}

async function until(ask: () => Promise<Readiness>, status: number): Promise<Readiness> {
  let last = await ask();
  for (let i = 0; i < 100 && last.status !== status; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await ask();
  }
  return last;
}

async function closeAll(): Promise<void> {
  for (const server of servers.splice(0)) await server.close();
  for (const store of stores.splice(0)) await store.close();
}

describe('GET /readyz on a SQLite journal', () => {
  const dir = tempDirEach('plumb-readyz-');

  it('waits for startup recovery, then answers 200 with every check ok; /healthz answers all along', async () => {
    const store = await openSqliteStore({ path: join(dir.path, 'chat.sqlite') });
    stores.push(store);
    let recovered: () => void = () => undefined;
    const ask = await serve({ store }, new Promise<void>((resolve) => (recovered = resolve)));
    try {
      const before = await ask();
      expect(before.status).toBe(503);
      expect(before.body).toEqual({
        ready: false,
        checks: { journal: 'ok', migrations: 'ok', recovery: 'pending' },
        error: { code: 'not_ready', message: expect.stringMatching(/^Not ready: recovery pending\./) },
      });
      expect(await ask('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
      recovered();
      expect(await until(ask, 200)).toEqual({ status: 200, body: { ready: true, checks: { journal: 'ok', migrations: 'ok', recovery: 'ok' } } });
    } finally {
      await closeAll();
    }
  });

  it('says failed for a recovery that failed, pending for a migration not applied, unreachable for a journal that does not answer', async () => {
    const path = join(dir.path, 'chat.sqlite');
    const store = await openSqliteStore({ path });
    const ask = await serve({ store }, Promise.reject(new Error('recovery broke')));
    try {
      expect((await until(ask, 503)).body.checks.recovery).toBe('failed');
      // Another process took the last migration back (as an older build's journal would be).
      const other = new Database(path);
      other.prepare("DELETE FROM plumb_journal_migrations WHERE name = '0004_thread_pages'").run();
      other.close();
      expect((await ask()).body.checks).toMatchObject({ journal: 'ok', migrations: 'pending' });
      await store.close();
      const closed = await ask();
      expect(closed.status).toBe(503);
      expect(closed.body.checks).toMatchObject({ journal: 'unreachable', migrations: 'unreachable' });
      expect(closed.body.error?.message).toMatch(/journal unreachable, migrations unreachable, recovery failed/);
    } finally {
      await closeAll();
    }
  });

  it('checks only what it is given: a server without a journal or an engine is ready', async () => {
    const server = await createServer({ app });
    servers.push(server);
    try {
      const url = await server.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ready: true, checks: {} });
      expect((await fetch(`${url}/readyz`, { method: 'POST' })).status).toBe(405);
    } finally {
      await closeAll();
    }
  });
});

describeWithPostgres('GET /readyz on a PostgreSQL journal', (server) => {
  it('answers 200 while the database answers and knows every migration, 503 failed for a journal newer than this build', async () => {
    const schema = await server.freshSchema();
    const store = await openPostgresStore({ url: server.url, schema, max: 2 });
    stores.push(store);
    const ask = await serve({ store }, Promise.resolve());
    try {
      expect(await until(ask, 200)).toEqual({ status: 200, body: { ready: true, checks: { journal: 'ok', migrations: 'ok', recovery: 'ok' } } });
      const { Client } = (await import('pg')).default;
      const client = new Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query(`insert into "${schema}".plumb_journal_migrations (name, timestamp) values ('9999_from_a_newer_build', now()::text)`);
      } finally {
        await client.end();
      }
      const newer = await ask();
      expect(newer.status).toBe(503);
      expect(newer.body.checks).toEqual({ journal: 'ok', migrations: 'failed', recovery: 'ok' });
    } finally {
      await closeAll();
    }
  });
});

describeWithRedis('GET /readyz with Redis', (redis) => {
  const dir = tempDirEach('plumb-readyz-redis-');

  it('answers 503 redis unreachable while Redis is stopped, and 200 once it is back', async () => {
    const own = await redis.privateServer();
    const connection = await connectRedis(own.url, { timeoutMs: 500 });
    const store = await openSqliteStore({ path: join(dir.path, 'chat.sqlite') });
    stores.push(store);
    const ask = await serve({ redis: connection.client, store }, Promise.resolve());
    try {
      expect(await until(ask, 200)).toEqual({ status: 200, body: { ready: true, checks: { journal: 'ok', migrations: 'ok', recovery: 'ok', redis: 'ok' } } });
      await own.stop();
      const down = await until(ask, 503);
      expect(down.body.checks).toEqual({ journal: 'ok', migrations: 'ok', recovery: 'ok', redis: 'unreachable' });
      expect(down.body.error).toEqual({ code: 'not_ready', message: expect.stringMatching(/redis unreachable/) });
      await own.start();
      expect((await until(ask, 200)).body.checks.redis).toBe('ok');
    } finally {
      await closeAll();
      await connection.close();
    }
  }, 30_000);
});
