import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineApp, defineManager, sqlite } from './index.js';
import { admin, openShop, shopManagers } from '../../test/support/data/shop-fixture.js';
import { tempDirEach } from '../../test/support/temp.js';

const dir = tempDirEach('plumb-storage-');

const tableSql = (database: ReturnType<typeof sqlite>, table: string): string =>
  (database.sqlite.prepare("select sql from sqlite_master where type = 'table' and name = ?").get(table) as { sql: string }).sql;

describe('sqlite storage', () => {
  it('opens files in WAL mode and shares its better-sqlite3 handle', async () => {
    const database = sqlite({ path: join(dir.path, 'a.db') });
    expect(database.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.dialect).toBe('sqlite');
    await database.close();
  });

  it('creates tables, join tables and indexes for every foreign key and filterable column, idempotently', async () => {
    const database = sqlite({ path: join(dir.path, 'a.db') });
    const app = defineApp({ managers: shopManagers, database });
    await app.ready();
    await app.ready();
    const indexes = (database.sqlite.prepare("select name from sqlite_master where type = 'index' and name like '%_idx'").all() as { name: string }[]).map((row) => row.name);
    expect(indexes).toEqual(expect.arrayContaining(['part_material_id_idx', 'part_name_idx', 'part_unit_price_idx', 'order_line_order_id_idx', 'project_parts_part_id_idx']));
    expect(indexes).not.toContain('part_specs_idx');
    expect(tableSql(database, 'project_parts')).toMatch(/primary key \("project_id", "part_id"\)/);
    await app.close();
    const again = defineApp({ managers: shopManagers, database: sqlite({ path: join(dir.path, 'a.db') }) });
    await expect(again.ready()).resolves.toBeUndefined();
    await again.close();
  });

  it('refuses an existing table that does not match, naming the table and column', async () => {
    const database = sqlite({ path: join(dir.path, 'b.db') });
    database.sqlite.exec('create table material (id integer primary key, name text not null, density text not null)');
    const app = defineApp({ managers: [defineManager({ name: 'Material', fields: { name: 'string', density: 'float', code: { type: 'string', nullable: true } } })], database });
    await expect(app.ready()).rejects.toMatchObject({
      code: 'schema_mismatch',
      message: expect.stringMatching(/Table 'material' column 'density' has type 'text', but Material\.density \(float\) needs 'real'[\s\S]*Table 'material' has no column 'code'/),
    });
    const result = await app.graphql({ actor: admin, document: '{ materialList { items { id } } }' });
    expect(result.errors?.[0]?.extensions.plumbCode).toBe('schema_mismatch');
    expect(database.sqlite.prepare('select count(*) as n from pragma_table_info(?)').get('material')).toEqual({ n: 3 });
    await app.close();
  });

  it('refuses work after close, and closing twice is fine', async () => {
    const shop = await openShop({ seed: false });
    await shop.dispose();
    await shop.app.close();
    expect(shop.app.closed).toBe(true);
    await expect(shop.app.ready()).rejects.toMatchObject({ code: 'closed' });
    await expect(shop.app.load('Material', [])).rejects.toMatchObject({ code: 'closed' });
    const result = await shop.app.graphql({ actor: admin, document: '{ materialList { items { id } } }' });
    expect(result.errors?.[0]?.extensions.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('supports await using', async () => {
    const database = sqlite({ path: ':memory:' });
    {
      await using app = defineApp({ managers: [defineManager({ name: 'Tag', fields: { label: 'string' } })], database });
      await app.load('Tag', [{ label: 'a' }]);
      expect(await app.count(admin, 'Tag')).toBe(1);
    }
    expect(database.closed).toBe(true);
  });
});

describe('load', () => {
  it('converts values like create, links many-to-many rows and assigns free ids', async () => {
    const shop = await openShop({ seed: false });
    try {
      expect(await shop.app.load('Material', [{ name: 'Steel', density: 7.8 }, { id: 10, name: 'Tin', density: 7.3 }, { name: 'Zinc', density: 7.1 }])).toBe(3);
      await shop.app.load('Part', [{ name: 'Bolt', sku: 'B', material: 10, unitPrice: 1.5, checkedAt: new Date('2026-01-01T00:00:00Z') }]);
      await shop.app.load('Project', [{ name: 'Apollo', status: 'active', parts: [1] }]);
      const materials = await shop.app.list(admin, 'Material', {});
      expect(materials.items.map((row) => [row.id, row.name])).toEqual([[1, 'Steel'], [10, 'Tin'], [11, 'Zinc']]);
      const part = (await shop.app.list(admin, 'Part', {})).items[0];
      expect(part).toMatchObject({ unitPrice: '1.50', material: 10, active: true, checkedAt: '2026-01-01T00:00:00.000Z', kind: 'fastener' });
      expect(await shop.app.count(admin, 'Part', { filter: { projects__name: 'Apollo' } })).toBe(1);
      const handle = (shop.app.database as ReturnType<typeof sqlite>).sqlite;
      const indexes = handle.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'part'").all();
      expect(indexes).toEqual(expect.arrayContaining([{ name: 'part_material_id_idx' }, { name: 'part_unit_price_idx' }]));
    } finally {
      await shop.dispose();
    }
  });

  it('rolls back the whole batch when a row is invalid, naming the row and field', async () => {
    const shop = await openShop({ seed: false });
    try {
      await expect(shop.app.load('Material', [{ name: 'Steel', density: 7.8 }, { name: 'Tin', density: 'heavy' }])).rejects.toMatchObject({
        code: 'invalid_input',
        message: 'load Material row 2: Material.density: expected a number, got "heavy".',
      });
      await expect(shop.app.load('Material', [{ name: 'Steel', density: 7.8, colour: 'grey' }])).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/Unknown field 'colour' on Material/) });
      await expect(shop.app.load('Part', [{ name: 'Bolt', sku: 'B', material: 42 }])).rejects.toMatchObject({ code: 'conflict' });
      await expect(shop.app.load('Gadget', [])).rejects.toMatchObject({ code: 'unknown_manager' });
      expect(await shop.app.count(admin, 'Material')).toBe(0);
    } finally {
      await shop.dispose();
    }
  });
});
