import { existsSync, statSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** The SQLite store's upkeep (docs/store.md, "Upkeep"): sizes, vacuum, the online backup. */

/** The database file and its WAL, in bytes (a WAL not there is 0); an in-memory database's pages. */
export function sizes(db: Database.Database): Record<string, number> {
  if (db.memory) return { file: (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number), wal: 0 };
  const wal = `${db.name}-wal`;
  return { file: statSync(db.name).size, wal: existsSync(wal) ? statSync(wal).size : 0 };
}

/** `VACUUM` (the write lock for its duration), then a checkpoint that copies the WAL back and truncates it. */
export function vacuum(db: Database.Database): void {
  db.exec('VACUUM');
  if (!db.memory && db.pragma('journal_mode', { simple: true }) === 'wal') db.pragma('wal_checkpoint(TRUNCATE)');
}

/**
 * SQLite's online backup API into `target` (a file that must not exist yet). The first step only
 * opens the backup; the second copies every page under one read transaction: one snapshot of the
 * journal, consistent, that never restarts because a writer committed meanwhile (a backup in
 * small steps starts over after each foreign write, and under steady writes may never finish). In
 * WAL mode the snapshot blocks no writer; the WAL grows until it ends.
 */
export async function backup(db: Database.Database, target: string): Promise<{ readonly pages: number }> {
  const done = await db.backup(target, { progress: () => 0x7fffffff });
  return { pages: done.totalPages };
}
