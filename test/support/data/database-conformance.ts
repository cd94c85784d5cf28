import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/data/database.js';
import { defineApp } from '../../../src/data/app.js';
import { defineManager } from '../../../src/data/define-manager.js';
import { lookupCases } from './lookup-cases.js';
import { admin, dataOf, openShop } from './shop-fixture.js';

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

    it('commits a transaction and rolls one back on error', async () => {
      await database.transaction(async (tx) => {
        await tx.execute(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'kept'})`.compile(database.kysely));
      });
      await expect(
        database.transaction(async (tx) => {
          await tx.execute(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'dropped'})`.compile(database.kysely));
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect((await run(sql`select ${sql.ref('label')} from ${sql.table('thing')}`)).rows).toEqual([{ label: 'kept' }]);
    });

    it('keeps statements outside a transaction out of it: they never see its uncommitted rows nor roll back with it', async () => {
      let inserted!: () => void;
      const insertedInside = new Promise<void>((resolve) => (inserted = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const failing = database.transaction(async (tx) => {
        await tx.execute(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'dropped'})`.compile(database.kysely));
        inserted();
        await gate;
        throw new Error('undo');
      });
      await insertedInside;
      // Issued while the transaction is open: SQLite runs them after it, PostgreSQL beside it.
      const reading = run(sql`select count(*) as n from ${sql.table('thing')} where ${sql.ref('label')} = ${'dropped'}`);
      const writing = run(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'outside'})`);
      release();
      await expect(failing).rejects.toThrow('undo');
      expect((await reading).rows).toEqual([{ n: 0 }]);
      expect((await writing).changes).toBe(1);
      expect((await run(sql`select ${sql.ref('label')} from ${sql.table('thing')}`)).rows).toEqual([{ label: 'outside' }]);
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

    it('bulk-inserts more values than one statement may bind, columns in any order', async () => {
      const columns = Array.from({ length: 40 }, (_, i) => `c${i}`);
      let builder = database.kysely.schema.createTable('wide').addColumn('id', sql.raw(database.fragments.columnType('id')), (col) => col.primaryKey());
      for (const name of columns) builder = builder.addColumn(name, sql.raw(database.fragments.columnType('integer')), (col) => col.notNull());
      await builder.execute();
      await database.bulk((writer) => {
        for (let row = 1; row <= 2000; row++) writer.append('wide', ['id', ...columns], [row, ...columns.map((_, i) => row * 100 + i)]);
        // the same columns in another order join the same rows
        writer.append('wide', [...columns].reverse().concat('id'), [...columns.map((_, i) => 2001 * 100 + i)].reverse().concat(2001));
      });
      const summary = await run(sql`select count(*) as n, sum(${sql.ref('c39')}) as total, max(${sql.ref('id')}) as last from ${sql.table('wide')}`);
      expect(summary.rows[0]).toMatchObject({ n: 2001, last: 2001 });
      expect(Number(summary.rows[0]?.total)).toBe(Array.from({ length: 2001 }, (_, i) => (i + 1) * 100 + 39).reduce((a, b) => a + b, 0));
      expect((await run(sql`select ${sql.ref('c0')}, ${sql.ref('c39')} from ${sql.table('wide')} where ${sql.ref('id')} = ${2001}`)).rows).toEqual([{ c0: 200100, c39: 200139 }]);
    });

    it('rolls a bulk insert back entirely when the database refuses a row', async () => {
      await expect(
        database.bulk((writer) => {
          writer.append('thing', ['label'], ['fine']);
          writer.append('thing', ['label'], [null]);
        }),
      ).rejects.toThrow();
      expect((await run(sql`select count(*) as n from ${sql.table('thing')}`)).rows[0]).toEqual({ n: 0 });
    });

    it('describes existing tables and says when one is missing', async () => {
      expect(await database.tableColumns('nothing')).toBeUndefined();
      const columns = await database.tableColumns('thing');
      expect(columns?.map((column) => column.name)).toEqual(['id', 'label']);
      expect(columns?.[1]?.nullable).toBe(false);
      expect(database.fragments.typeMatches('string', columns![1]!.dataType)).toBe(true);
    });

    it('has case-insensitive icontains and iexact fragments, with wildcards literal', async () => {
      await run(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'a%b'}), (${'A_B'}), (${'a\\b'}), (${'axb'})`);
      const labels = async (condition: ReturnType<typeof sql>) => (await run(sql`select ${sql.ref('label')} from ${sql.table('thing')} where ${condition} order by ${sql.ref('id')}`)).rows.map((row) => row.label);
      expect(await labels(database.fragments.icontains(sql.ref('label'), '%'))).toEqual(['a%b']);
      expect(await labels(database.fragments.icontains(sql.ref('label'), '_'))).toEqual(['A_B']);
      expect(await labels(database.fragments.icontains(sql.ref('label'), '\\'))).toEqual(['a\\b']);
      expect(await labels(database.fragments.icontains(sql.ref('label'), 'A%B'))).toEqual(['a%b']);
      expect(await labels(database.fragments.icontains(sql.ref('label'), 'X'))).toEqual(['axb']);
      expect(await labels(database.fragments.iexact(sql.ref('label'), 'a_b'))).toEqual(['A_B']);
      expect(await labels(database.fragments.iexact(sql.ref('label'), 'a%'))).toEqual([]);
    });

    it('has case-sensitive contains and startsWith fragments', async () => {
      await run(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'Bearing'}), (${'bearing_2'})`);
      const labels = async (condition: ReturnType<typeof sql>) => (await run(sql`select ${sql.ref('label')} from ${sql.table('thing')} where ${condition} order by ${sql.ref('id')}`)).rows.map((row) => row.label);
      expect(await labels(database.fragments.contains(sql.ref('label'), 'ear'))).toEqual(['Bearing', 'bearing_2']);
      expect(await labels(database.fragments.contains(sql.ref('label'), 'EAR'))).toEqual([]);
      expect(await labels(database.fragments.startsWith(sql.ref('label'), 'B'))).toEqual(['Bearing']);
      expect(await labels(database.fragments.startsWith(sql.ref('label'), 'bearing_'))).toEqual(['bearing_2']);
      expect(await labels(database.fragments.startsWith(sql.ref('label'), '%'))).toEqual([]);
      expect(await labels(database.fragments.contains(sql.ref('label'), '_'))).toEqual(['bearing_2']);
    });

    it('syncs the id generator after explicit ids, so the next insert takes the next free id', async () => {
      await database.bulk((writer) => writer.append('thing', ['id', 'label'], [41, 'loaded']));
      await database.syncIdentity('thing', 'id');
      const inserted = await run(sql`insert into ${sql.table('thing')} (${sql.ref('label')}) values (${'next'}) returning ${sql.ref('id')} as id`);
      expect(inserted.rows).toEqual([{ id: 42 }]);
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

    it('pages, counts, caps relation rows per parent and lists distinct values the same way', async () => {
      const shop = await openShop({ database: open, settings: { maxRelationRows: 1 } });
      try {
        const page = await shop.app.list(admin, 'Part', { page: 2, pageSize: 2 });
        expect(page).toMatchObject({ items: [{ name: 'Gear' }, { name: 'Bracket' }], hasNextPage: true, totalCount: 5 });
        // Apollo has two parts: over the cap, so rows are ranked per parent.
        const data: unknown = await dataOf(shop.app, admin, '{ projectList { items { name parts { name } } } }');
        expect(data).toEqual({ projectList: { items: [{ name: 'Apollo', parts: [{ name: 'Bolt' }] }, { name: 'Mercury', parts: [{ name: 'Bearing' }] }] } });
        expect(await shop.app.distinctValues('Part', 'unitPrice', { limit: 10 })).toEqual(['0.05', '0.25', '3.10', '12.50', '48.00']);
        expect(await shop.app.distinctValues('Part', 'active', { limit: 10 })).toEqual(['false', 'true']);
        expect(await shop.app.distinctValues('Material', 'code', { limit: 10 })).toEqual(['CO', 'ST']);
      } finally {
        await shop.dispose();
      }
    });

    it('keeps decimals exact at their scale, dates, datetimes in UTC, booleans and json values', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'plumb-conformance-'));
      const app = defineApp({
        managers: [
          defineManager({
            name: 'Sample',
            fields: {
              label: 'string',
              amount: 'decimal',
              rate: { type: 'decimal', scale: 4, nullable: true },
              whole: { type: 'decimal', scale: 0, nullable: true },
              day: { type: 'date', nullable: true },
              at: { type: 'datetime', nullable: true },
              flag: { type: 'boolean', default: false },
              data: { type: 'json', nullable: true, filterable: false },
            },
          }),
        ],
        database: await open(dir),
      });
      try {
        const rows = [
          { label: 'a', amount: '12.5', rate: '0.0625', whole: '7', day: '2024-02-29', at: '2026-01-12T10:30:00+02:00', flag: true, data: 'hello' },
          { label: 'b', amount: 9.99, rate: 3, whole: 0, day: '2024-03-01', at: '2026-01-12T08:30:00.123Z', data: { list: [1, 'x', null], nested: { ok: true } } },
          { label: 'c', amount: '-0.50', rate: null, whole: '-12', day: null, at: null, flag: false, data: 0 },
          { label: 'd', amount: '100', data: [] },
        ];
        for (const input of rows) await app.graphql({ actor: admin, document: 'mutation($input: SampleCreateInput!) { createSample(input: $input) { id } }', variables: { input } }).then((result) => expect(result.errors).toBeUndefined());
        const page = await app.list(admin, 'Sample', {});
        expect(page.items.map(({ id: _id, ...row }) => row)).toEqual([
          { label: 'a', amount: '12.50', rate: '0.0625', whole: '7', day: '2024-02-29', at: '2026-01-12T08:30:00.000Z', flag: true, data: 'hello' },
          { label: 'b', amount: '9.99', rate: '3.0000', whole: '0', day: '2024-03-01', at: '2026-01-12T08:30:00.123Z', flag: false, data: { list: [1, 'x', null], nested: { ok: true } } },
          { label: 'c', amount: '-0.50', rate: null, whole: '-12', day: null, at: null, flag: false, data: 0 },
          { label: 'd', amount: '100.00', rate: null, whole: null, day: null, at: null, flag: false, data: [] },
        ]);
        const labels = async (filter: Record<string, unknown>) => (await app.list(admin, 'Sample', { filter })).items.map((row) => row.label);
        // numeric order, not text order ('12.50' < '9.99' as text)
        expect(await labels({ amount__gt: '9.99' })).toEqual(['a', 'd']);
        expect(await labels({ amount__gte: 9.99 })).toEqual(['a', 'b', 'd']);
        expect(await labels({ amount__lt: '0' })).toEqual(['c']);
        expect(await labels({ amount__lte: '-0.5' })).toEqual(['c']);
        expect(await labels({ amount__in: ['12.500', '100'] })).toEqual(['a', 'd']);
        expect(await labels({ amount: '9.990' })).toEqual(['b']);
        expect(await labels({ rate__gt: '0.5' })).toEqual(['b']);
        expect(await labels({ whole__lt: 1 })).toEqual(['b', 'c']);
        expect(await labels({ day__gt: '2024-02-28' })).toEqual(['a', 'b']);
        expect(await labels({ day__lt: '2024-03-01' })).toEqual(['a']);
        expect(await labels({ at: '2026-01-12T08:30:00Z' })).toEqual(['a']);
        expect(await labels({ at__gt: '2026-01-12T09:30:00+01:00' })).toEqual(['b']);
        expect(await labels({ flag: true })).toEqual(['a']);
        expect(await labels({ flag: false })).toEqual(['b', 'c', 'd']);
        for (const refused of [{ amount: '1.234' }, { day: '2023-02-29' }, { at: '2026-01-12T10:30:00' }, { flag: 'yes' }]) {
          await expect(app.load('Sample', [{ label: 'x', amount: '1', ...refused }])).rejects.toMatchObject({ code: 'invalid_input' });
        }
        await expect(app.list(admin, 'Sample', { filter: { amount__gt: '1.001' } })).rejects.toMatchObject({ code: 'invalid_filter_value' });
        expect(await app.count(admin, 'Sample')).toBe(4);
      } finally {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('filters strings with %, _ and \\ taken literally, and gives the next id after a load with explicit ids', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'plumb-conformance-'));
      const app = defineApp({ managers: [defineManager({ name: 'Word', fields: { text: 'string' } })], database: await open(dir) });
      try {
        await app.load('Word', [
          { id: 10, text: '100% sure' },
          { id: 20, text: 'snake_case' },
          { id: 30, text: 'C:\\temp' },
          { id: 40, text: '100 percent' },
          { id: 50, text: 'SNAKEXCASE' },
        ]);
        const texts = async (filter: Record<string, unknown>) => (await app.list(admin, 'Word', { filter })).items.map((row) => row.text);
        expect(await texts({ text__icontains: '0%' })).toEqual(['100% sure']);
        expect(await texts({ text__icontains: '%' })).toEqual(['100% sure']);
        expect(await texts({ text__icontains: 'E_C' })).toEqual(['snake_case']);
        expect(await texts({ text__icontains: ':\\T' })).toEqual(['C:\\temp']);
        expect(await texts({ text__icontains: '\\' })).toEqual(['C:\\temp']);
        expect(await texts({ text__contains: '_' })).toEqual(['snake_case']);
        expect(await texts({ text__startswith: 'C:\\' })).toEqual(['C:\\temp']);
        expect(await texts({ text__startswith: '100%' })).toEqual(['100% sure']);
        expect(await texts({ text__iexact: 'SNAKE_CASE' })).toEqual(['snake_case']);
        expect(await texts({ text__iexact: 'snake%case' })).toEqual([]);
        const created: unknown = await dataOf(app, admin, 'mutation { createWord(input: {text: "next"}) { id } }');
        expect(created).toEqual({ createWord: { id: '51' } });
        expect(await app.load('Word', [{ text: 'after' }])).toBe(1);
        expect((await app.list(admin, 'Word', { filter: { text: 'after' } })).items[0]?.id).toBe(52);
      } finally {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
