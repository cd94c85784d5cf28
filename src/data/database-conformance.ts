import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { defineApp } from './app.js';
import { defineManager } from './define-manager.js';
import { lookupCases } from './testing/lookup-cases.js';
import { admin, dataOf, openShop } from './testing/shop-fixture.js';

/**
 * What every `Database` must do for managers and GraphQL to work unchanged on it. Each database
 * implementation's test calls this with a factory (given a fresh temp dir), then adds its own cases.
 */
export function describeDatabaseConformance(label: string, open: (dir: string) => Database | Promise<Database>): void {
  describe(`Database conformance: ${label}`, () => {
    let database: Database;
    let dir: string;
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'plumb-conformance-'));
      database = await open(dir);
      await database.kysely.schema.createTable('thing').addColumn('id', sql.raw(database.fragments.columnType('id')), (col) => col.primaryKey()).addColumn('label', sql.raw(database.fragments.columnType('string')), (col) => col.notNull()).execute();
    });
    afterEach(async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const run = (query: ReturnType<typeof sql>) => database.execute(query.compile(database.kysely));

    it('binds parameters and returns rows by column name', async () => {
      const inserted = await run(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${"it's"}), (${'b'})`);
      expect(inserted.changes).toBe(2);
      const result = await run(sql`select ${sql.ref('id')}, ${sql.ref('label')} from ${sql.table('thing')} where ${sql.ref('label')} = ${"it's"}`);
      expect(result.rows).toEqual([{ id: 1, label: "it's" }]);
    });

    it('commits a transaction, rolls one back on error, and makes other statements wait for it', async () => {
      await database.transaction(async (tx) => {
        await tx.execute(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'kept'})`.compile(database.kysely));
      });
      await expect(
        database.transaction(async (tx) => {
          await tx.execute(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'dropped'})`.compile(database.kysely));
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      const order: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const writing = database.transaction(async (tx) => {
        await tx.execute(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'late'})`.compile(database.kysely));
        await gate;
        order.push('commit');
      });
      const reading = run(sql`select count(*) as n from ${sql.table('thing')}`).then((result) => {
        order.push('read');
        return Number(result.rows[0]?.n);
      });
      release();
      await writing;
      expect(await reading).toBe(2);
      expect(order).toEqual(['commit', 'read']);
    });

    it('bulk-inserts in one transaction and rolls all of it back when the work throws', async () => {
      await database.bulk((writer) => {
        for (let i = 0; i < 1000; i++) writer.append('thing', ['label'], [`row ${i}`]);
      });
      await expect(
        database.bulk((writer) => {
          writer.append('thing', ['label'], ['x']);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect((await run(sql`select count(*) as n from ${sql.table('thing')}`)).rows[0]).toEqual({ n: 1000 });
    });

    it('describes existing tables and says when one is missing', async () => {
      expect(await database.tableColumns('nothing')).toBeUndefined();
      const columns = await database.tableColumns('thing');
      expect(columns?.map((column) => column.name)).toEqual(['id', 'label']);
      expect(columns?.[1]?.nullable).toBe(false);
      expect(database.fragments.typeMatches('string', columns![1]!.dataType)).toBe(true);
    });

    it('has case-sensitive contains and startsWith fragments', async () => {
      await run(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'Bearing'}), (${'bearing_2'})`);
      const labels = async (condition: ReturnType<typeof sql>) => (await run(sql`select ${sql.ref('label')} from ${sql.table('thing')} where ${condition} order by ${sql.ref('id')}`)).rows.map((row) => row.label);
      expect(await labels(database.fragments.contains(sql.ref('label'), 'ear'))).toEqual(['Bearing', 'bearing_2']);
      expect(await labels(database.fragments.contains(sql.ref('label'), 'EAR'))).toEqual([]);
      expect(await labels(database.fragments.startsWith(sql.ref('label'), 'B'))).toEqual(['Bearing']);
      expect(await labels(database.fragments.startsWith(sql.ref('label'), 'bearing_'))).toEqual(['bearing_2']);
    });

    it('refuses work after close and closes idempotently', async () => {
      await database.close();
      await database.close();
      expect(database.closed).toBe(true);
      await expect(run(sql`select 1 as one`)).rejects.toMatchObject({ code: 'closed' });
    });

    it('creates the managers\' tables and refuses a mismatching one', async () => {
      const app = defineApp({ managers: [defineManager({ name: 'Thing', fields: { label: 'integer' } })], database });
      const error: unknown = await app.ready().then(() => undefined, (reason: unknown) => reason);
      expect(error).toMatchObject({ code: 'schema_mismatch' });
      expect((error as Error).message).toMatch(/Table 'thing' column 'label'/);
    });
  });

  describe(`Data layer conformance: ${label}`, () => {
    it('answers every lookup case, relation and mutation of the shop the same way', async () => {
      const shop = await openShop({ database: open });
      try {
        for (const [title, manager, filter, expected] of lookupCases) {
          const page = await shop.app.list(admin, manager, { filter });
          expect(page.items.map((row) => String(row.name ?? row.id)), title).toEqual(expected);
        }
        const data: unknown = await dataOf(shop.app, admin, '{ project(id: 1) { parts { name material { name } } } order(id: 4411) { lines { part { name } } } }');
        expect(data).toEqual({
          project: { parts: [{ name: 'Bolt', material: { name: 'Steel' } }, { name: 'Gear', material: { name: 'Cobalt' } }] },
          order: { lines: [{ part: { name: 'Bolt' } }, { part: { name: 'Gear' } }] },
        });
        const created = (await dataOf(shop.app, admin, 'mutation { createPart(input: {name: "Nut", sku: "N", unitPrice: "0.10", projects: [1]}) { id unitPrice projects { name } } }')) as { createPart: { id: string } };
        expect(created.createPart).toMatchObject({ unitPrice: '0.10', projects: [{ name: 'Apollo' }] });
        await dataOf(shop.app, admin, `mutation { deletePart(id: ${created.createPart.id}) { id } }`);
        expect(await shop.app.count(admin, 'Part')).toBe(5);
      } finally {
        await shop.dispose();
      }
    });
  });
}
