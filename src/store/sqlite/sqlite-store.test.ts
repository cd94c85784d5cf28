import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runStoreConformance } from '../conformance.js';
import { openSqliteStore } from '../index.js';
import { v1Fixture, writeV1Database } from './sqlite-v1.fixture.js';
import { tempDirEach } from '../../../test/support/temp.js';

runStoreConformance({
  name: 'sqlite',
  durable: true,
  open: async (clock) => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-store-'));
    const path = join(dir, 'plumb.db');
    return Promise.resolve({
      store: await openSqliteStore({ path, clock }),
      reopen: async () => Promise.resolve(await openSqliteStore({ path, clock })),
      cleanup: async () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    });
  },
});

runStoreConformance({
  name: 'sqlite (shared handle)',
  durable: true,
  open: async (clock) => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-store-'));
    const path = join(dir, 'app.db');
    const handles: Database.Database[] = [];
    const handle = (): Database.Database => {
      const db = new Database(path);
      handles.push(db);
      return db;
    };
    return Promise.resolve({
      store: await openSqliteStore({ database: handle(), clock, tablePrefix: 'chat_' }),
      reopen: async () => Promise.resolve(await openSqliteStore({ database: handle(), clock, tablePrefix: 'chat_' })),
      cleanup: async () => {
        for (const db of handles) db.close();
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    });
  },
});

describe('sqlite store', () => {
  const dir = tempDirEach('plumb-store-');

  it('upgrades a schema version 1 file in place, keeping every record and its ordinals', async () => {
    const path = join(dir.path, 'v1.db');
    writeV1Database(path);
    const store = await openSqliteStore({ path, clock: () => 50_000 });
    try {
      expect(await store.getThread(v1Fixture.threadId)).toEqual({
        id: 'th-1', owner: 'user:alice', title: 'Bolts', summary: 'They asked about bolts.', summaryThroughItemId: 'it-2', routerSession: '{"carried":true}', titleSource: null, forkedFrom: null, createdAt: 1000, updatedAt: 4000,
      });
      const items = await store.listItems(v1Fixture.threadId);
      expect(items.map((item) => [item.id, item.kind])).toEqual(v1Fixture.items);
      expect(items.map((item) => item.ordinal)).toEqual([1, 2, 3, 4, 5]);
      expect(items[3]?.data).toEqual({ callId: 'c1', name: 'mutate', arguments: '{}' });
      expect((await store.listTurns(v1Fixture.threadId)).map((turn) => [turn.id, turn.status])).toEqual([['tu-1', 'completed'], ['tu-2', 'waiting']]);
      expect(await store.getTurn(v1Fixture.completedTurnId)).toMatchObject({ requestKey: 'rk-1', usage: { inputTokens: 12, outputTokens: 5 } });
      expect((await store.turnsWithStatus('waiting')).map((turn) => turn.id)).toEqual([v1Fixture.waitingTurnId]);
      expect((await store.pendingConfirmations(v1Fixture.waitingTurnId)).map((c) => c.id)).toEqual([v1Fixture.confirmationId]);
      expect(await store.beginTurn({ threadId: v1Fixture.threadId, requestKey: 'rk-1', input: 'which bolts?' })).toMatchObject({ outcome: 'existing', turn: { id: 'tu-1' } });
      expect(await store.beginTurn({ threadId: v1Fixture.threadId, requestKey: 'rk-3', input: 'hi' })).toMatchObject({ outcome: 'busy', turn: { id: 'tu-2' } });
      const next = await store.appendItems(v1Fixture.waitingTurnId, [{ kind: 'confirmation_resolution', data: { outcome: 'approved' } }], { status: 'completed' });
      expect(next[0]?.ordinal).toBe(6);
      expect((await store.latestThread('user:bob'))?.id).toBe(v1Fixture.otherThreadId);
      expect((await store.beginTurn({ owner: 'user:bob', requestKey: 'b1', input: 'first' })).outcome).toBe('created');
      expect((await store.listItems(v1Fixture.otherThreadId)).map((item) => item.ordinal)).toEqual([1]);
    } finally {
      await store.close();
    }
    const db = new Database(path);
    try {
      expect(db.prepare('SELECT name FROM plumb_journal_migrations').pluck().all()).toEqual(['0001_journal', '0002_leases', '0003_queue', '0004_thread_pages']);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'plumb_meta'").get()).toBeUndefined();
      const names = (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'plumb_%' ORDER BY name").pluck().all() as string[]);
      expect(names.filter((name) => name.endsWith('_v1') || name === 'plumb_turns_status')).toEqual([]);
    } finally {
      db.close();
    }
    const reopened = await openSqliteStore({ path });
    expect((await reopened.listItems(v1Fixture.threadId)).map((item) => item.ordinal)).toEqual([1, 2, 3, 4, 5, 6]);
    await reopened.close();
  });

  it('upgrades a version 1 schema under the application\'s table prefix', async () => {
    const path = join(dir.path, 'app.db');
    writeV1Database(path, 'chat_');
    const db = new Database(path);
    const store = await openSqliteStore({ database: db, tablePrefix: 'chat_' });
    expect((await store.listItems(v1Fixture.threadId)).map((item) => item.id)).toEqual(v1Fixture.items.map(([id]) => id));
    await store.close();
    expect(db.prepare('SELECT name FROM chat_journal_migrations').pluck().all()).toEqual(['0001_journal', '0002_leases', '0003_queue', '0004_thread_pages']);
    db.close();
  });

  it('opens its own file read-only for inspection: reads answer, writes fail and change nothing, an old one is refused', async () => {
    const path = join(dir.path, 'journal.db');
    const writer = await openSqliteStore({ path });
    const { thread } = await writer.beginTurn({ owner: 'user:a', requestKey: 'k', input: 'hello' });
    await writer.close();
    const reader = await openSqliteStore({ path, readonly: true });
    try {
      expect((await reader.census()).threads).toBe(1);
      expect((await reader.getThread(thread.id))?.id).toBe(thread.id);
      await expect(reader.createThread({ owner: 'user:b' })).rejects.toThrow(/readonly/);
      expect((await reader.census()).threads).toBe(1);
    } finally {
      await reader.close();
    }
    const old = join(dir.path, 'v1.db');
    writeV1Database(old);
    await expect(openSqliteStore({ path: old, readonly: true })).rejects.toMatchObject({ code: 'migration_failed' });
    const shared = new Database(path);
    await expect(openSqliteStore({ database: shared, readonly: true })).rejects.toMatchObject({ code: 'store_invalid_record' });
    shared.close();
  });

  it('measures its file and WAL, gives the space of deleted threads back on vacuum, and backs up one snapshot while another connection writes', async () => {
    const path = join(dir.path, 'journal.db');
    const store = await openSqliteStore({ path, groupCommit: false });
    const writer = await openSqliteStore({ path, groupCommit: false });
    try {
      const big = 'x'.repeat(4000);
      const threads: string[] = [];
      for (let i = 0; i < 200; i++) threads.push((await store.beginTurn({ owner: 'user:a', newThread: true, requestKey: `k${i}`, input: big })).thread.id);
      const written = await store.sizes();
      expect(written.wal).toBeGreaterThan(0);
      for (const id of threads.slice(0, 190)) await store.deleteThread(id);
      await store.vacuum();
      const vacuumed = await store.sizes();
      expect(vacuumed.wal).toBe(0);
      expect(vacuumed.file).toBeLessThan(200 * 4000 / 4);
      expect((await store.census()).threads).toBe(10);

      // The other connection commits between the backup's steps; the copy is whole either way.
      const backupFile = join(dir.path, 'copy.db');
      let writes = 0;
      const timer = setInterval(() => void writer.beginTurn({ owner: 'user:b', newThread: true, requestKey: `w${writes++}`, input: 'during' }), 0);
      const copied = await store.backup(backupFile);
      clearInterval(timer);
      expect(copied.pages).toBeGreaterThan(0);
      const copy = await openSqliteStore({ path: backupFile, readonly: true });
      try {
        const census = await copy.census();
        expect(census.threads).toBeGreaterThanOrEqual(10);
        expect(census.threads).toBeLessThanOrEqual(10 + writes);
        expect(census.turns.accepted).toBe(census.threads);
      } finally {
        await copy.close();
      }
    } finally {
      await writer.close();
      await store.close();
    }
  });

  it('sets how far commits go by durability, and leaves a shared handle\'s own setting alone unless told', async () => {
    const db = new Database(join(dir.path, 'app.db'));
    try {
      db.pragma('synchronous = OFF');
      await (await openSqliteStore({ database: db })).close();
      expect(db.pragma('synchronous', { simple: true })).toBe(0);
      await (await openSqliteStore({ database: db, durability: 'full' })).close();
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      await (await openSqliteStore({ database: db, durability: 'normal' })).close();
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      await expect(openSqliteStore({ database: db, durability: 'sometimes' as never })).rejects.toThrow(/Unknown durability 'sometimes'/);
    } finally {
      db.close();
    }
  });

  describe('group commit', () => {
    const text = (value: string) => ({ kind: 'assistant_text' as const, data: { text: value } });
    /** Items of a thread as another connection (another process) sees them. */
    const seenElsewhere = (path: string, threadId: string): number => {
      const other = new Database(path, { readonly: true });
      try {
        return (other.prepare('SELECT COUNT(*) AS n FROM plumb_items WHERE thread_id = ?').get(threadId) as { n: number }).n;
      } finally {
        other.close();
      }
    };

    /** Many writes at once, as concurrent turns make them; returns how many were visible before the event loop turned. */
    const burst = async (store: Awaited<ReturnType<typeof openSqliteStore>>, path: string, turnId: string, threadId: string, count: number): Promise<number> => {
      const writes = Array.from({ length: count }, (_, index) => store.appendItems(turnId, [text(`w${index}`)]));
      const visible = seenElsewhere(path, threadId);
      await Promise.all(writes);
      return visible;
    };

    it('commits writes that come one at a time at once', async () => {
      const path = join(dir.path, 'alone.db');
      const store = await openSqliteStore({ path });
      const { thread, turn } = await store.beginTurn({ owner: 'user:alice', requestKey: 'a', input: 'hello' });
      const appended = store.appendItems(turn.id, [text('hi')]);
      expect(seenElsewhere(path, thread.id)).toBe(2);
      await appended;
      await store.close();
    });

    it('lets writes that arrive together share a commit, settling each only once it is committed', async () => {
      const path = join(dir.path, 'group.db');
      const store = await openSqliteStore({ path });
      const { thread, turn } = await store.beginTurn({ owner: 'user:alice', requestKey: 'a', input: 'one' });
      const visibleBefore = await burst(store, path, turn.id, thread.id, 40);
      expect(visibleBefore).toBeLessThan(41);
      expect(seenElsewhere(path, thread.id)).toBe(41);
      // Grouping now: the next write waits for the event loop's turn, and is committed when it settles.
      const next = store.appendItems(turn.id, [text('next')]);
      expect(seenElsewhere(path, thread.id)).toBe(41);
      await next;
      expect(seenElsewhere(path, thread.id)).toBe(42);
      await store.close();
    });

    it('undoes a failing write alone and commits the others of its batch', async () => {
      const path = join(dir.path, 'failing.db');
      const store = await openSqliteStore({ path });
      const first = await store.beginTurn({ owner: 'user:alice', requestKey: 'a', input: 'one' });
      const second = await store.beginTurn({ owner: 'user:bob', requestKey: 'b', input: 'two' });
      await burst(store, path, second.turn.id, second.thread.id, 40);
      const failing = store.appendItems(first.turn.id, [text('lost')], { status: 'finished' as never });
      const kept = store.appendItems(second.turn.id, [text('kept')]);
      await expect(failing).rejects.toThrow(/Unknown turn status 'finished'/);
      await kept;
      expect(seenElsewhere(path, first.thread.id)).toBe(1);
      expect(seenElsewhere(path, second.thread.id)).toBe(42);
      expect((await store.getTurn(first.turn.id))?.status).toBe('accepted');
      await store.close();
    });

    it('applies a staged write at once and commits it with the next write, or at the end of the event-loop turn', async () => {
      const path = join(dir.path, 'staged.db');
      const store = await openSqliteStore({ path });
      const { thread, turn } = await store.beginTurn({ owner: 'user:alice', requestKey: 'a', input: 'one' });
      const staged = await store.stageItems(turn.id, [text('read step')], { status: 'running' });
      expect(staged.records.map((record) => record.ordinal)).toEqual([2]);
      // Applied (this connection reads it), not yet committed (another does not).
      expect(await store.listItems(thread.id)).toHaveLength(2);
      expect(seenElsewhere(path, thread.id)).toBe(1);
      // A write that comes alone commits at once, with the staged one before it.
      const next = store.appendItems(turn.id, [text('answer')]);
      expect(seenElsewhere(path, thread.id)).toBe(3);
      await Promise.all([next, staged.committed]);
      // Alone, a staged write commits once the event loop turns.
      const alone = await store.stageItems(turn.id, [text('another read')]);
      expect(seenElsewhere(path, thread.id)).toBe(3);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seenElsewhere(path, thread.id)).toBe(4);
      await alone.committed;
      // Staged writes are not company: a write alone after them still commits at once.
      const after = store.appendItems(turn.id, [text('done')], { status: 'completed' });
      expect(seenElsewhere(path, thread.id)).toBe(5);
      await after;
      await store.close();
    });

    it('commits staged writes at once where commits are not grouped', async () => {
      const path = join(dir.path, 'staged-off.db');
      const store = await openSqliteStore({ path, groupCommit: false });
      const { thread, turn } = await store.beginTurn({ owner: 'user:alice', requestKey: 'a', input: 'one' });
      const staged = await store.stageItems(turn.id, [text('read step')]);
      expect(seenElsewhere(path, thread.id)).toBe(2);
      await staged.committed;
      await store.close();
    });

    it('commits an open batch on close', async () => {
      const path = join(dir.path, 'close.db');
      const store = await openSqliteStore({ path });
      const { thread, turn } = await store.beginTurn({ owner: 'user:alice', requestKey: 'a', input: 'one' });
      await burst(store, path, turn.id, thread.id, 40);
      const pending = store.appendItems(turn.id, [text('late')], { status: 'completed' });
      await store.close();
      await pending;
      const reopened = await openSqliteStore({ path });
      expect(await reopened.listItems(thread.id)).toHaveLength(42);
      expect((await reopened.getTurn(turn.id))?.status).toBe('completed');
      await reopened.close();
    });

    it('can be turned off, and refuses a non-boolean setting', async () => {
      const path = join(dir.path, 'off.db');
      const store = await openSqliteStore({ path, groupCommit: false });
      const { thread, turn } = await store.beginTurn({ owner: 'user:alice', requestKey: 'a', input: 'one' });
      expect(await burst(store, path, turn.id, thread.id, 40)).toBe(41);
      await store.close();
      await expect(openSqliteStore({ path, groupCommit: 'yes' as never })).rejects.toThrow(/groupCommit must be true or false, not "yes"/);
    });
  });

  it('keeps committed turns across reopening with durability full', async () => {
    const path = join(dir.path, 'full.db');
    const store = await openSqliteStore({ path, durability: 'full' });
    const begun = await store.beginTurn({ owner: 'user:alice', requestKey: 'k', input: 'hello' });
    await store.close();
    const reopened = await openSqliteStore({ path, durability: 'full' });
    expect(await reopened.getTurn(begun.turn.id)).toEqual(begun.turn);
    await reopened.close();
  });

  it('leaves a shared handle open and its own tables beside the app', async () => {
    const db = new Database(join(dir.path, 'app.db'));
    db.prepare('CREATE TABLE parts (id INTEGER PRIMARY KEY, name TEXT)').run();
    const store = await openSqliteStore({ database: db });
    await store.createThread({ owner: 'user:alice' });
    await store.close();
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
    expect(tables).toEqual(['parts', 'plumb_confirmations', 'plumb_items', 'plumb_journal_migrations', 'plumb_journal_migrations_lock', 'plumb_leases', 'plumb_queue', 'plumb_threads', 'plumb_turns']);
    db.close();
  });

  it('refuses a database written by a newer schema, from before migrations or after', async () => {
    const path = join(dir.path, 'plumb.db');
    const db = new Database(path);
    db.prepare('CREATE TABLE plumb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)').run();
    db.prepare("INSERT INTO plumb_meta VALUES ('schema_version', '99')").run();
    db.close();
    await expect(openSqliteStore({ path })).rejects.toMatchObject({ code: 'store_schema_mismatch', message: expect.stringMatching(/schema version 99/) });

    const newer = join(dir.path, 'newer.db');
    await (await openSqliteStore({ path: newer })).close();
    const handle = new Database(newer);
    handle.prepare("INSERT INTO plumb_journal_migrations (name, timestamp) VALUES ('0002_from_the_future', '2027-01-01T00:00:00.000Z')").run();
    handle.close();
    await expect(openSqliteStore({ path: newer })).rejects.toMatchObject({ code: 'store_schema_mismatch', message: expect.stringMatching(/0002_from_the_future/) });
  });

  it('migrates a new file once when two processes open it at the same moment', async () => {
    const path = join(dir.path, 'race.db');
    const child = join(import.meta.dirname, 'open-child.fixture.ts');
    await Promise.all(['user:alice', 'user:bob'].map((owner) => run(process.execPath, ['--import', 'tsx', child, path, owner])));
    const store = await openSqliteStore({ path });
    expect((await store.listThreads('user:alice')).length + (await store.listThreads('user:bob')).length).toBe(2);
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT name FROM plumb_journal_migrations').pluck().all()).toEqual(['0001_journal', '0002_leases', '0003_queue', '0004_thread_pages']);
    db.close();
  });
});

const run = promisify(execFile);
