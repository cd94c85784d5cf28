import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/**
 * What only a failing COMMIT shows. A deferred foreign key is checked at COMMIT, so a write that
 * breaks it is applied without complaint and then fails its batch's COMMIT.
 */
describe('GroupCommit, when a COMMIT fails', () => {
  let dir: string;
  let db: Database.Database;
  let group: GroupCommit;
  const rows = (): number => (db.prepare('SELECT count(*) AS n FROM child').get() as { n: number }).n;
  const insert = (parent: number) => () => db.prepare('INSERT INTO child (parent) VALUES (?)').run(parent);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumb-group-'));
    db = new Database(join(dir, 'group.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
      INSERT INTO parent (id) VALUES (1);`);
    group = new GroupCommit(db);
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a lost staged write and refuses the next write with its key, once', async () => {
    const lost = group.stage(insert(99), 'turn-a');
    const other = group.stage(insert(1), 'turn-b');
    const failure = /FOREIGN KEY constraint failed/;
    await expect(lost.committed).rejects.toThrow(failure);
    await expect(other.committed).rejects.toThrow(failure);
    expect(rows()).toBe(0);
    // Nothing of turn-a is committed after its lost write as if it had not been lost.
    let ran = false;
    await expect(
      group.run(() => {
        ran = true;
      }, 'turn-a'),
    ).rejects.toThrow(failure);
    expect(ran).toBe(false);
    // Refused once: the turn can record its failure; and turn-b is refused in the same way.
    await group.run(insert(1), 'turn-a');
    expect(() => group.stage(insert(1), 'turn-b')).toThrow(failure);
    await group.run(insert(1));
    expect(rows()).toBe(2);
  });

  it('rejects an awaited write that shared the failed COMMIT, and lets its key record the failure next', async () => {
    const lost = group.stage(insert(99), 'turn-a');
    const joined = group.run(insert(1), 'turn-a');
    await expect(joined).rejects.toThrow(/FOREIGN KEY constraint failed/);
    await expect(lost.committed).rejects.toThrow(/FOREIGN KEY constraint failed/);
    expect(db.inTransaction).toBe(false);
    // The awaited write's rejection already told turn-a: its next write is not refused.
    await group.run(insert(1), 'turn-a');
    expect(rows()).toBe(1);
  });
});
