import { afterEach, describe, expect, it } from 'vitest';
import { introspectDatabase, sqlite } from './index.js';
import type { IntrospectedColumn, IntrospectedSchema, IntrospectedTable, SqliteDatabase } from './index.js';
import { bookshopPostgres, bookshopSqlite } from '../../test/support/data/bookshop-schema.js';
import type { PostgresDatabase } from './postgres-database.js';
import { describeWithPostgres } from './testing/postgres.js';

function table(schema: IntrospectedSchema, name: string): IntrospectedTable {
  const found = schema.tables.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no table ${name} in ${schema.tables.map((candidate) => candidate.name).join(', ')}`);
  return found;
}

function column(schema: IntrospectedSchema, tableName: string, name: string): IntrospectedColumn {
  const found = table(schema, tableName).columns.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no column ${tableName}.${name}`);
  return found;
}

/** What both databases agree on: the tables, keys, foreign keys and nullability of the bookshop. */
function expectBookshop(schema: IntrospectedSchema): void {
  expect(schema.tables.map((found) => found.name)).toEqual(['audit_log', 'authors', 'book_tags', 'books', 'publishers', 'tags']);
  expect(table(schema, 'books').columns.map((found) => found.name)).toEqual(
    schema.dialect === 'postgres'
      ? ['id', 'title', 'author_id', 'publisher_id', 'price', 'status', 'in_print', 'cover']
      : ['id', 'title', 'author_id', 'publisher_id', 'price', 'in_print', 'cover'],
  );
  expect(table(schema, 'books').primaryKey).toEqual(['id']);
  expect(table(schema, 'books').foreignKeys).toEqual([
    { columns: ['author_id'], table: 'authors', referencedSchema: undefined, referencedColumns: ['id'] },
    { columns: ['publisher_id'], table: 'publishers', referencedSchema: undefined, referencedColumns: ['id'] },
  ]);
  expect(column(schema, 'books', 'author_id')).toMatchObject({ nullable: true, hasDefault: false, primaryKey: false });
  expect(column(schema, 'books', 'title')).toMatchObject({ nullable: false, hasDefault: false });
  expect(column(schema, 'books', 'id')).toMatchObject({ primaryKey: true, nullable: false, hasDefault: true });
  expect(column(schema, 'books', 'in_print')).toMatchObject({ nullable: false, hasDefault: true });
  expect(table(schema, 'book_tags')).toMatchObject({
    primaryKey: ['book_id', 'tag_id'],
    foreignKeys: [
      { columns: ['book_id'], table: 'books', referencedColumns: ['id'] },
      { columns: ['tag_id'], table: 'tags', referencedColumns: ['id'] },
    ],
  });
  expect(table(schema, 'tags').uniqueKeys).toEqual([['label']]);
  expect(table(schema, 'publishers').primaryKey).toEqual(['id']);
  // A string key is given by whoever writes the row.
  expect(column(schema, 'publishers', 'id')).toMatchObject({ primaryKey: true, hasDefault: false });
  expect(table(schema, 'audit_log')).toMatchObject({ primaryKey: [], foreignKeys: [], uniqueKeys: [] });
  expect(column(schema, 'authors', 'created_at')).toMatchObject({ nullable: false, hasDefault: true });
}

describe('introspectDatabase on SQLite', () => {
  let database: SqliteDatabase | undefined;
  afterEach(() => database?.close());
  const open = (): SqliteDatabase => {
    database = sqlite({ path: ':memory:' });
    database.sqlite.exec(bookshopSqlite);
    return database;
  };

  it('reads the tables, keys, foreign keys and unique keys of the bookshop, leaving out plumb_* tables', async () => {
    const schema = await introspectDatabase(open());
    expect(schema).toMatchObject({ dialect: 'sqlite', schema: 'main' });
    expectBookshop(schema);
  });

  it('keeps the declared types and defaults as SQLite has them', async () => {
    const schema = await introspectDatabase(open());
    expect(column(schema, 'books', 'price').dataType).toBe('numeric(10,2)');
    expect(column(schema, 'authors', 'name').dataType).toBe('varchar(120)');
    expect(column(schema, 'books', 'cover').dataType).toBe('BLOB'); // SQLite spells its own type names in capitals
    expect(column(schema, 'authors', 'created_at')).toMatchObject({ dataType: 'datetime', defaultExpression: 'current_timestamp' });
    expect(column(schema, 'books', 'in_print').defaultExpression).toBe('1');
  });

  it('says which integer keys SQLite assigns (INTEGER PRIMARY KEY of a rowid table) and which it does not', async () => {
    const db = open();
    db.sqlite.exec('create table counters (id bigint primary key, n integer); create table codes (id integer primary key, label text) without rowid');
    const schema = await introspectDatabase(db);
    expect(column(schema, 'authors', 'id').hasDefault).toBe(true);
    expect(column(schema, 'counters', 'id').hasDefault).toBe(false);
    expect(column(schema, 'codes', 'id').hasDefault).toBe(false);
  });

  it('marks generated columns, resolves REFERENCES without columns to the key, and skips views, expression and partial indexes', async () => {
    const db = open();
    db.sqlite.exec(`
      create table reviews (id integer primary key, book_id integer not null references books, stars integer not null, score real generated always as (stars * 2) stored);
      create unique index reviews_lower on reviews (lower(stars));
      create unique index reviews_partial on reviews (book_id) where stars > 3;
      create view recent_books as select * from books;`);
    const schema = await introspectDatabase(db);
    expect(schema.tables.map((found) => found.name)).not.toContain('recent_books');
    expect(table(schema, 'reviews').foreignKeys).toEqual([{ columns: ['book_id'], table: 'books', referencedSchema: undefined, referencedColumns: ['id'] }]);
    expect(column(schema, 'reviews', 'score')).toMatchObject({ generated: true, hasDefault: true });
    expect(table(schema, 'reviews').uniqueKeys).toEqual([]);
  });

  it('reads the values of CHECK (col IN (…)) on a column or on the table, and no other check', async () => {
    const db = open();
    db.sqlite.exec(`
      create table trips (
        id integer primary key,
        kind text not null default 'day' check (kind in ('day', 'night')),
        "Leg" varchar(10) check ("leg" IN ('out','back', 'it''s')),
        stops integer check (stops in (1, 2)),
        seats integer check (seats > 0 or seats in ('x')),
        mode text, check ( (mode in ('road', 'rail')) ), check (mode in ('rail', 'road', 'air'))
      )`);
    const schema = await introspectDatabase(db);
    expect(column(schema, 'trips', 'kind').enumValues).toEqual(['day', 'night']);
    expect(column(schema, 'trips', 'Leg').enumValues).toEqual(['out', 'back', "it's"]);
    expect(column(schema, 'trips', 'stops').enumValues).toBeUndefined();
    expect(column(schema, 'trips', 'seats').enumValues).toBeUndefined();
    expect(column(schema, 'trips', 'mode').enumValues).toEqual(['road', 'rail']);
    expect(column(schema, 'books', 'title').enumValues).toBeUndefined();
  });

  it('answers timeout when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('no time left'));
    await expect(introspectDatabase(open(), { signal: controller.signal })).rejects.toMatchObject({ code: 'timeout', message: expect.stringMatching(/no time left/) });
  });
});

describeWithPostgres('introspectDatabase on PostgreSQL', (server) => {
  const load = async (extra = ''): Promise<PostgresDatabase> => {
    const database = await server.open();
    await server.admin(`set search_path to "${database.schema!}"; ${bookshopPostgres} ${extra}; reset search_path`);
    return database;
  };

  it('reads the tables, keys, foreign keys and unique keys of the database schema, leaving out plumb_* tables', async () => {
    const database = await load();
    const schema = await introspectDatabase(database);
    expect(schema.dialect).toBe('postgres');
    expect(schema.schema).toMatch(/^plumb_test_/);
    expectBookshop(schema);
  });

  it('writes types as format_type does, with the labels of enum types in order', async () => {
    const schema = await introspectDatabase(await load());
    expect(column(schema, 'books', 'price').dataType).toBe('numeric(10,2)');
    expect(column(schema, 'authors', 'name').dataType).toBe('character varying(120)');
    expect(column(schema, 'authors', 'created_at')).toMatchObject({ dataType: 'timestamp with time zone', defaultExpression: 'now()' });
    expect(column(schema, 'publishers', 'id').dataType).toBe('uuid');
    expect(column(schema, 'books', 'status')).toMatchObject({ dataType: 'book_status', enumValues: ['draft', 'published', 'out_of_print'], defaultExpression: "'draft'::book_status" });
    expect(column(schema, 'books', 'title').enumValues).toBeUndefined();
    // serial (a sequence default) and identity columns are both filled by the database
    expect(column(schema, 'authors', 'id')).toMatchObject({ hasDefault: true, defaultExpression: "nextval('authors_id_seq'::regclass)" });
    expect(column(schema, 'books', 'id')).toMatchObject({ hasDefault: true, defaultExpression: undefined });
  });

  it('reads CHECK (col IN (…)) on text and varchar columns as their values, and not on a date or a number', async () => {
    const schema = await introspectDatabase(await load(`;
      create table trips (
        id serial primary key,
        kind text not null check (kind in ('day', 'night')),
        leg varchar(10) check (leg in ('out', 'back')),
        on_day date check (on_day in ('2024-01-01')),
        stops integer check (stops in (1, 2)),
        seats integer check (seats > 0))`));
    expect(column(schema, 'trips', 'kind').enumValues).toEqual(['day', 'night']);
    expect(column(schema, 'trips', 'leg').enumValues).toEqual(['out', 'back']);
    expect(column(schema, 'trips', 'on_day').enumValues).toBeUndefined();
    expect(column(schema, 'trips', 'stops').enumValues).toBeUndefined();
    expect(column(schema, 'trips', 'seats').enumValues).toBeUndefined();
    expect(column(schema, 'books', 'status').enumValues).toEqual(['draft', 'published', 'out_of_print']);
  });

  it('reads only its own schema, and names the schema of a foreign key that leaves it', async () => {
    const other = await server.freshSchema();
    await server.admin(`create table "${other}".regions (id serial primary key, name text not null); create table "${other}".authors (id serial primary key)`);
    const database = await load(`; alter table authors add column region_id integer references "${other}".regions (id)`);
    const schema = await introspectDatabase(database);
    expect(schema.tables.map((found) => found.name)).not.toContain('regions');
    expect(table(schema, 'authors').foreignKeys).toEqual([{ columns: ['region_id'], table: 'regions', referencedSchema: other, referencedColumns: ['id'] }]);
  });

  it('reads a partitioned table once, with its key, and marks generated columns', async () => {
    const database = await load(`;
      create table sales (id bigint not null, sold_on date not null, amount numeric(12, 2) not null, doubled numeric generated always as (amount * 2) stored, primary key (id, sold_on)) partition by range (sold_on);
      create table sales_2024 partition of sales for values from ('2024-01-01') to ('2025-01-01')`);
    const schema = await introspectDatabase(database);
    expect(schema.tables.map((found) => found.name)).toContain('sales');
    expect(schema.tables.map((found) => found.name)).not.toContain('sales_2024');
    expect(table(schema, 'sales').primaryKey).toEqual(['id', 'sold_on']);
    expect(column(schema, 'sales', 'doubled')).toMatchObject({ generated: true, hasDefault: true, defaultExpression: undefined });
  });

  it('answers unknown_database when the schema does not exist', async () => {
    const database = await server.open();
    await server.admin(`drop schema "${database.schema!}"`);
    await expect(introspectDatabase(database)).rejects.toMatchObject({ code: 'unknown_database' });
  });
});
