import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { defineApp, defineManager, sqlite } from './index.js';
import type { Database } from './index.js';
import { describeWithPostgres } from './testing/postgres.js';
import { tempDirEach } from '../../test/support/temp.js';

/**
 * An app that owns its tables creates the missing ones in a new database, but never in one that
 * already holds someone's tables: there a misspelt table name must not become a new, empty table.
 */
const Invoice = defineManager({ name: 'Invoice', table: 'invoice', fields: { number: 'string', total: 'decimal' }, chatExposed: true });

async function withHostTable(database: Database): Promise<Database> {
  await database.execute(sql`create table invoices (id integer primary key, number text not null)`.compile(database.kysely));
  return database;
}

function bothBackends(open: () => Promise<Database>): void {
  it('refuses to create the app\'s tables beside tables that are not its own, naming both ways out', async () => {
    const database = await withHostTable(await open());
    const app = defineApp({ managers: [Invoice], database });
    try {
      const refused = await app.ready().then(() => undefined, (error: unknown) => error);
      expect(refused).toMatchObject({ code: 'tables_not_created', details: { missing: ['invoice'], others: ['invoices'] } });
      expect((refused as Error).message).toContain("tables: 'attach'");
      expect((refused as Error).message).toContain("tables: 'create'");
      expect(await database.tableColumns('invoice')).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it("creates them there when asked with tables: 'create'", async () => {
    const database = await withHostTable(await open());
    const app = defineApp({ managers: [Invoice], database, tables: 'create' });
    try {
      await app.ready();
      expect(await database.tableColumns('invoice')).toBeDefined();
      expect([...(await database.tableNames())].sort()).toEqual(['invoice', 'invoices']);
    } finally {
      await app.close();
    }
  });

  it('creates them in an empty database as before', async () => {
    const database = await open();
    const app = defineApp({ managers: [Invoice], database });
    try {
      await app.ready();
      expect(await database.tableNames()).toEqual(['invoice']);
    } finally {
      await app.close();
    }
  });
}

describe('own tables on SQLite', () => {
  const dir = tempDirEach('plumb-own-tables-');
  bothBackends(() => Promise.resolve(sqlite({ path: join(dir.path, 'app.sqlite') })));
});

describeWithPostgres('own tables on PostgreSQL', (server) => {
  bothBackends(() => server.open());
});
