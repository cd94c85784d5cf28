import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';
import { tempDirEach } from '../../test/support/temp.js';

/**
 * What only a failing COMMIT shows. A deferred foreign key is checked at COMMIT, so a write that
 * breaks it is applied without complaint and then fails its batch's COMMIT.
 */
describe('GroupCommit, when a COMMIT fails', () => {
  const dir = tempDirEach('plumb-group-');
  let db: Database.Database;
  let group: GroupCommit;
  const rows = (): number => (db.prepare('SELECT count(*) AS n FROM child').get() as { n: number }).n;
  const insert = (parent: number) => () => db.prepare('INSERT INTO child (parent) VALUES (?)').run(parent);

  beforeEach(() => {
    db = new Database(join(dir.path, 'group.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
      INSERT INTO parent (id) VALUES (1);`);
    group = new GroupCommit(db);
  });

  afterEach(() => {
    db.close();
  });

  it('rejects the staged writes of a failed COMMIT and commits later batches', async () => {
    const lost = group.stage(insert(99));
    const other = group.stage(insert(1));
    const failure = /FOREIGN KEY constraint failed/;
    await expect(lost.committed).rejects.toThrow(failure);
    await expect(other.committed).rejects.toThrow(failure);
    expect(db.inTransaction).toBe(false);
    expect(rows()).toBe(0);
    await group.run(insert(1));
    expect(rows()).toBe(1);
  });

  it('rejects an awaited write that shared the failed COMMIT with a staged one', async () => {
    const lost = group.stage(insert(99));
    const joined = group.run(insert(1));
    await expect(joined).rejects.toThrow(/FOREIGN KEY constraint failed/);
    await expect(lost.committed).rejects.toThrow(/FOREIGN KEY constraint failed/);
    expect(db.inTransaction).toBe(false);
    expect(rows()).toBe(0);
  });
});
