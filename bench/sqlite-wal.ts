import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/** What `work` wrote to a SQLite file's WAL: its commits and frames, read with checkpoints held off. */
export async function walWrites(path: string, work: () => Promise<void>): Promise<{ commits: number; frames: number; frameBytes: number }> {
  const reader = new Database(path);
  reader.pragma('wal_checkpoint(TRUNCATE)');
  const frameBytes = (reader.pragma('page_size', { simple: true }) as number) + 24;
  // An open read transaction keeps every frame in the WAL until it is read.
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM sqlite_schema').get();
  try {
    await work();
    const wal = readFileSync(`${path}-wal`);
    let frames = 0;
    let commits = 0;
    // A frame's header holds, at offset 4, the database size after its commit: zero except on a commit's last frame.
    for (let offset = 32; offset + frameBytes <= wal.length; offset += frameBytes) {
      frames++;
      if (wal.readUInt32BE(offset + 4) !== 0) commits++;
    }
    return { commits, frames, frameBytes };
  } finally {
    reader.exec('COMMIT');
    reader.close();
  }
}
