import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runStoreConformance } from './conformance.js';
import { openSqliteStore } from './index.js';

runStoreConformance({
  name: 'sqlite',
  durable: true,
  open: async (clock) => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-store-'));
    const path = join(dir, 'plumb.db');
    return Promise.resolve({
      store: openSqliteStore({ path, clock }),
      reopen: async () => Promise.resolve(openSqliteStore({ path, clock })),
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
      store: openSqliteStore({ database: handle(), clock, tablePrefix: 'chat_' }),
      reopen: async () => Promise.resolve(openSqliteStore({ database: handle(), clock, tablePrefix: 'chat_' })),
      cleanup: async () => {
        for (const db of handles) db.close();
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    });
  },
});

describe('sqlite store', () => {
  it('leaves a shared handle open and its own tables beside the app', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-store-'));
    try {
      const db = new Database(join(dir, 'app.db'));
      db.prepare('CREATE TABLE parts (id INTEGER PRIMARY KEY, name TEXT)').run();
      const store = openSqliteStore({ database: db });
      await store.createThread({ owner: 'user:alice' });
      await store.close();
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
      expect(tables).toEqual(['parts', 'plumb_confirmations', 'plumb_items', 'plumb_meta', 'plumb_threads', 'plumb_turns']);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a database written by a newer schema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-store-'));
    try {
      const path = join(dir, 'plumb.db');
      const db = new Database(path);
      db.prepare('CREATE TABLE plumb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)').run();
      db.prepare("INSERT INTO plumb_meta VALUES ('schema_version', '99')").run();
      db.close();
      expect(() => openSqliteStore({ path })).toThrow(/schema version 99/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
