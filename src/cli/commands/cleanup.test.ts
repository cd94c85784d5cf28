import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeWithPostgres } from '../../data/testing/postgres.js';
import { openPostgresStore } from '../../postgres/index.js';
import { openSqliteStore } from '../../store/index.js';
import { plumb } from '../../../test/support/cli.js';
import { tempDirEach } from '../../../test/support/temp.js';

const dir = tempDirEach('plumb-cli-cleanup-');
let database: string;
let configFile: string;

beforeEach(() => {
  database = join(dir.path, 'chat.sqlite');
  configFile = join(dir.path, 'plumb.config.json');
  writeFileSync(configFile, JSON.stringify({ store: database, ttlHours: 1 }));
});

const hour = 3_600_000;

/** Three finished threads two hours old, one recent thread, and one old thread whose turn waits on a lapsed confirmation. */
async function seed(): Promise<{ old: string[]; recent: string; waiting: string }> {
  const twoHoursAgo = Date.now() - 2 * hour;
  let now = twoHoursAgo;
  const store = await openSqliteStore({ path: database, clock: () => now });
  try {
    const old: string[] = [];
    for (const owner of ['user:a', 'user:b', 'user:c']) {
      const begun = await store.beginTurn({ owner, requestKey: 'k', input: 'hello' });
      await store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'hi' } }], { status: 'completed' });
      old.push(begun.thread.id);
      now += 1;
    }
    const waiting = await store.beginTurn({ owner: 'user:w', requestKey: 'k', input: 'rename it' });
    await store.updateTurn(waiting.turn.id, { status: 'waiting' });
    await store.createConfirmation({ id: 'cf-lapsed', threadId: waiting.thread.id, turnId: waiting.turn.id, owner: 'user:w', actor: { kind: 'user', id: 'w', roles: [] }, callId: 'c1', tool: 'mutate', arguments: {}, digest: 'd', expiresAt: now + 1000 });
    now = Date.now();
    const recent = await store.beginTurn({ owner: 'user:r', requestKey: 'k', input: 'hello' });
    await store.updateTurn(recent.turn.id, { status: 'completed' });
    return { old, recent: recent.thread.id, waiting: waiting.thread.id };
  } finally {
    await store.close();
  }
}

describe('plumb cleanup', () => {
  it('deletes threads past ttlHours in batches through the store, keeps recent and waiting ones, and expires then deletes lapsed confirmations', async () => {
    const { old, recent, waiting } = await seed();
    const result = await plumb('cleanup', '--config', configFile, '--batch', '2', '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { store: string; threadsDeleted: string[]; confirmationsExpired: number; confirmationsDeleted: number };
    expect(report).toMatchObject({ store: database, confirmationsExpired: 1, confirmationsDeleted: 1 });
    expect(report.threadsDeleted).toEqual(old);
    const store = await openSqliteStore({ path: database });
    try {
      expect(await store.getThread(recent)).toBeDefined();
      expect(await store.getThread(waiting)).toBeDefined();
      for (const id of old) expect(await store.getThread(id)).toBeUndefined();
      expect(await store.getConfirmation('cf-lapsed')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('prints what it removed, and nothing the second time', async () => {
    await seed();
    const first = await plumb('cleanup', '--config', configFile);
    expect(first.stdout).toMatch(/threads deleted: +3 \(/);
    expect(first.stdout).toMatch(/confirmations expired: +1/);
    const again = await plumb('cleanup', '--config', configFile);
    expect(again.stdout).toMatch(/threads deleted: +0\n/);
    expect(again.stdout).toMatch(/confirmations deleted: +0/);
  });

  it('has nothing to clean when the database does not exist yet', async () => {
    const result = await plumb('cleanup', '--config', configFile, '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ threadsDeleted: [], confirmationsExpired: 0, confirmationsDeleted: 0 });
  });

  it('refuses a batch size that is not a positive whole number', async () => {
    const result = await plumb('cleanup', '--config', configFile, '--batch', '0');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--batch must be a positive whole number/);
  });
});

describeWithPostgres('plumb cleanup on a PostgreSQL journal', (server) => {
  it('deletes the old threads of a postgres:// store and keeps the recent ones, printing the URL without its password', async () => {
    const schema = await server.freshSchema();
    const url = new URL(server.url);
    url.searchParams.set('options', `-c search_path=${schema}`);
    writeFileSync(configFile, JSON.stringify({ store: url.toString(), ttlHours: 1 }));
    let now = Date.now() - 2 * hour;
    const store = await openPostgresStore({ url: server.url, schema, clock: () => now });
    let old: string;
    let recent: string;
    try {
      const first = await store.beginTurn({ owner: 'user:a', requestKey: 'k', input: 'hello' });
      await store.updateTurn(first.turn.id, { status: 'completed' });
      old = first.thread.id;
      now = Date.now();
      const second = await store.beginTurn({ owner: 'user:b', requestKey: 'k', input: 'hello' });
      await store.updateTurn(second.turn.id, { status: 'completed' });
      recent = second.thread.id;
    } finally {
      await store.close();
    }
    const result = await plumb('cleanup', '--config', configFile, '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { store: string; threadsDeleted: string[] };
    expect(report.threadsDeleted).toEqual([old]);
    expect(report.store).toContain(':***@');
    const reopened = await openPostgresStore({ url: server.url, schema });
    try {
      expect(await reopened.getThread(old)).toBeUndefined();
      expect(await reopened.getThread(recent)).toBeDefined();
    } finally {
      await reopened.close();
    }
  });
});
