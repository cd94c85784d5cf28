import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeDatabaseConformance } from '../../test/support/data/database-conformance.js';
import { tempDirEach } from '../../test/support/temp.js';
import { sqlite } from './index.js';

describeDatabaseConformance('SQLite file', (dir) => sqlite({ path: join(dir, 'conformance.db') }));
describeDatabaseConformance('SQLite in memory', () => sqlite({ path: ':memory:' }));

describe('SQLite transactions', () => {
  it('make statements issued meanwhile wait until the transaction commits (one connection)', async () => {
    await using database = sqlite({ path: ':memory:' });
    const run = (query: ReturnType<typeof sql>) => database.execute(query.compile(database.kysely));
    await run(sql`create table thing (id integer primary key, label text not null)`);
    await run(sql`insert into thing (label) values (${'first'})`);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const writing = database.transaction(async (tx) => {
      await tx.execute(sql`insert into thing (label) values (${'late'})`.compile(database.kysely));
      await gate;
      order.push('commit');
    });
    const reading = run(sql`select count(*) as n from thing`).then((result) => {
      order.push('read');
      return Number(result.rows[0]?.n);
    });
    release();
    await writing;
    expect(await reading).toBe(2);
    expect(order).toEqual(['commit', 'read']);
  });
});

describe('the SQLite reader process', () => {
  const dir = tempDirEach();

  it('keeps nothing alive when idle: a host that never closes its database still exits', async () => {
    const path = join(dir.path, 'idle.db');
    sqlite({ path }).sqlite.close();
    const fixture = fileURLToPath(new URL('./sqlite-reader.fixture.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(output.trim()).toBe('[{"one":1}]');
    expect(code).toBe(0);
  }, 60_000);
});
