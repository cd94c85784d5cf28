import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { openSqliteStore } from '../store/index.js';
import type { PlumbConfig } from './config.js';

export interface CleanupReport {
  readonly threadsDeleted: readonly string[];
  readonly confirmationsExpired: number;
  readonly confirmationsDeleted: number;
  readonly cutoff: string;
}

/**
 * Deletes threads not updated for `ttlHours` (with their turns, items and confirmations, through
 * the store's `deleteThread`), resolves lapsed pending confirmations as expired, and deletes
 * resolved ones. The store contract has no cross-owner listing or confirmation delete yet, so the
 * two queries that need one read the SQLite store's tables directly (`plumb_` prefix).
 */
export async function cleanupStore(config: PlumbConfig, now: number = Date.now()): Promise<CleanupReport> {
  const cutoff = now - config.ttlHours * 3_600_000;
  if (config.database === ':memory:' || !existsSync(config.database)) {
    return { threadsDeleted: [], confirmationsExpired: 0, confirmationsDeleted: 0, cutoff: new Date(cutoff).toISOString() };
  }
  const database = new Database(config.database);
  const store = openSqliteStore({ database, clock: () => now });
  try {
    const expired = await store.expireConfirmations(now, 'expired');
    const stale = database.prepare('SELECT id FROM plumb_threads WHERE updated_at < ? ORDER BY updated_at').all(cutoff) as { id: string }[];
    const deleted: string[] = [];
    for (const { id } of stale) if (await store.deleteThread(id)) deleted.push(id);
    const removed = database.prepare("DELETE FROM plumb_confirmations WHERE status = 'resolved'").run().changes;
    return { threadsDeleted: deleted, confirmationsExpired: expired.length, confirmationsDeleted: removed, cutoff: new Date(cutoff).toISOString() };
  } finally {
    await store.close();
    database.close();
  }
}
