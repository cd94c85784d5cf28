import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tempDirEach } from '../../../test/support/temp.js';
import { defineHost } from '../../config/index.js';
import type { HostDefinition } from '../../config/index.js';
import { defineApp, defineManager, sqlite } from '../../data/index.js';
import type { FieldSpec, IntrospectedColumn, IntrospectedForeignKey, IntrospectedSchema, IntrospectedTable, ManagerSpec, RelationSpec } from '../../data/index.js';
import { renderManagers } from './render-managers.js';

type Dialect = IntrospectedSchema['dialect'];

function col(name: string, dataType: string, extra: Partial<IntrospectedColumn> = {}): IntrospectedColumn {
  return { name, dataType, nullable: false, hasDefault: false, defaultExpression: undefined, generated: false, primaryKey: false, enumValues: undefined, ...extra };
}

const key = (name = 'id', dataType = 'integer'): IntrospectedColumn => col(name, dataType, { primaryKey: true, hasDefault: true });

function fk(column: string, table: string, referenced = 'id'): IntrospectedForeignKey {
  return { columns: [column], table, referencedSchema: undefined, referencedColumns: [referenced] };
}

function table(name: string, columns: readonly IntrospectedColumn[], keys: { foreignKeys?: IntrospectedForeignKey[]; uniqueKeys?: string[][]; primaryKey?: string[] } = {}): IntrospectedTable {
  return { name, columns, primaryKey: keys.primaryKey ?? columns.filter((column) => column.primaryKey).map((column) => column.name), foreignKeys: keys.foreignKeys ?? [], uniqueKeys: keys.uniqueKeys ?? [] };
}

function schema(dialect: Dialect, ...tables: IntrospectedTable[]): IntrospectedSchema {
  return { dialect, schema: dialect === 'sqlite' ? 'main' : 'public', tables: [...tables].sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

/** Runs the generated module (TypeScript → JavaScript) with Plumb's own defineManager and defineHost. */
function evaluate(source: string): HostDefinition {
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  const module = { exports: {} as Record<string, unknown> };
  const require = (name: string): unknown => {
    if (name !== 'plumb-agent') throw new Error(`the generated module imports '${name}'`);
    return { defineManager, defineHost };
  };
  vm.runInNewContext(outputText, { module, exports: module.exports, require });
  return module.exports.default as HostDefinition;
}

/** The generated managers, loaded and checked together by defineApp (relations on both sides, generated names). */
function managers(input: IntrospectedSchema): ManagerSpec[] {
  const host = evaluate(renderManagers(input).source);
  expect(host.tables).toBe('attach');
  const app = defineApp({ managers: host.managers, database: sqlite({ path: ':memory:' }) });
  void app.close();
  return [...host.managers];
}

function manager(specs: readonly ManagerSpec[], tableName: string): ManagerSpec {
  const found = specs.find((spec) => spec.table === tableName);
  if (found === undefined) throw new Error(`no manager for ${tableName}: ${specs.map((spec) => spec.table).join(', ')}`);
  return found;
}

function field(spec: ManagerSpec, name: string): FieldSpec | undefined {
  const found = spec.fields[name];
  return typeof found === 'string' ? { type: found } : found;
}

function relation(spec: ManagerSpec, name: string): RelationSpec | undefined {
  return spec.relations?.[name];
}

/** A sentence of the output as a pattern that holds wherever the comment wraps it. */
function said(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '\\s+(?:(?:\\/\\/|\\*)\\s+)?'));
}

/** A table with an id and one column of the given type. */
const oneColumn = (dialect: Dialect, dataType: string, extra: Partial<IntrospectedColumn> = {}): IntrospectedSchema => schema(dialect, table('things', [key(), col('value', dataType, extra)]));

describe('renderManagers: manager names', () => {
  it.each([
    ['order_lines', 'OrderLine'], ['people', 'Person'], ['categories', 'Category'], ['status', 'Status'], ['statuses', 'Status'],
    ['addresses', 'Address'], ['boxes', 'Box'], ['warehouses', 'Warehouse'], ['OrderLines', 'OrderLine'], ['USERS', 'User'],
    ['data', 'Data'], ['analyses', 'Analysis'], ['movies', 'Movie'], ['purchases', 'Purchase'], ['branches', 'Branch'], ['sales_2024', 'Sales2024'],
  ])('names the manager of table %s %s, writing the table', (tableName, expected) => {
    const [spec] = managers(schema('postgres', table(tableName, [key(), col('name', 'text')])));
    expect(spec).toMatchObject({ name: expected, table: tableName });
  });

  it('suffixes a name taken by another manager (or by the GraphQL types another generates) with a number', () => {
    const specs = managers(schema('sqlite', table('order', [key()]), table('orders', [key()]), table('part', [key()]), table('part_pages', [key()])));
    expect(specs.map((spec) => [spec.table, spec.name])).toEqual([['order', 'Order'], ['orders', 'Order2'], ['part', 'Part'], ['part_pages', 'PartPage2']]);
  });

  it.each([['query', 'QueryTable'], ['strings', 'StringTable'], ['dates', 'DateTable'], ['page_infos', 'PageInfoTable'], ['_2fa_codes', 'Table2faCode']])('renames table %s, whose name Plumb reserves or refuses, %s', (tableName, expected) => {
    const [spec] = managers(schema('sqlite', table(tableName, [key()])));
    expect(spec).toMatchObject({ name: expected, table: tableName });
  });
});

describe('renderManagers: fields', () => {
  it('camelCases field names and writes column only where Plumb would derive another one', () => {
    const spec = manager(managers(schema('postgres', table('events', [
      key(), col('created_at', 'timestamp with time zone'), col('line_1', 'text'), col('URL', 'text'), col('startsAt', 'date'), col('address_line2', 'text'),
    ]))), 'events');
    expect(spec.fields).toEqual({
      createdAt: { type: 'datetime' },
      line1: { type: 'string', column: 'line_1' },
      url: { type: 'string', column: 'URL' },
      startsAt: { type: 'date', column: 'startsAt' },
      addressLine2: { type: 'string' },
    });
  });

  it('gives columns named like lookup operators, pk, id or a digit a safe name with their column', () => {
    const spec = manager(managers(schema('postgres', table('rows', [
      key('code', 'text'), col('in', 'text'), col('pk', 'integer'), col('id', 'integer'), col('gt', 'integer'), col('_2nd_place', 'text'), col('_', 'text'),
    ]))), 'rows');
    expect(spec.fields).toEqual({
      id: { type: 'string', column: 'code' },
      inField: { type: 'string', column: 'in' },
      pkField: { type: 'integer', column: 'pk' },
      idField: { type: 'integer', column: 'id' },
      gtField: { type: 'integer', column: 'gt' },
      field2ndPlace: { type: 'string', column: '_2nd_place' },
      field: { type: 'string', column: '_' },
    });
  });

  it('numbers fields whose names collide after camelCasing', () => {
    const spec = manager(managers(schema('postgres', table('events', [key(), col('created_at', 'date'), col('createdAt', 'date')]))), 'events');
    expect(spec.fields).toEqual({ createdAt: { type: 'date' }, createdAt2: { type: 'date', column: 'createdAt' } });
  });

  it('writes nullable: true for nullable columns only', () => {
    const spec = manager(managers(schema('sqlite', table('notes', [key(), col('body', 'TEXT', { nullable: true }), col('title', 'TEXT')]))), 'notes');
    expect(spec.fields).toEqual({ body: { type: 'string', nullable: true }, title: { type: 'string' } });
  });

  it('maps a generated column to nothing, and says why', () => {
    const input = schema('postgres', table('lines', [key(), col('qty', 'integer'), col('double_qty', 'integer', { generated: true, hasDefault: true })]));
    expect(manager(managers(input), 'lines').fields).toEqual({ qty: { type: 'integer' } });
    expect(renderManagers(input).source).toMatch(said('// double_qty is not mapped: computed by the database (a generated column)'));
  });
});

describe('renderManagers: SQLite types by declared type and affinity', () => {
  it.each([
    ['INTEGER', { type: 'integer' }], ['BIGINT', { type: 'integer' }], ['TINYINT', { type: 'integer' }],
    ['VARCHAR(40)', { type: 'string' }], ['CHARACTER(20)', { type: 'string' }], ['NVARCHAR(10)', { type: 'string' }],
    ['TEXT', { type: 'string' }], ['CLOB', { type: 'text' }],
    ['REAL', { type: 'float' }], ['DOUBLE PRECISION', { type: 'float' }], ['FLOAT', { type: 'float' }],
    ['NUMERIC(10,2)', { type: 'float' }], ['DECIMAL', { type: 'float' }],
    ['BOOLEAN', { type: 'boolean' }], ['BOOL', { type: 'boolean' }], ['DATE', { type: 'date' }],
    ['DATETIME', { type: 'datetime' }], ['TIMESTAMP', { type: 'datetime' }], ['JSON', { type: 'json' }], ['UUID', { type: 'string' }],
  ])('maps %s to %j', (declared, expected) => {
    expect(field(manager(managers(oneColumn('sqlite', declared)), 'things'), 'value')).toEqual(expected);
  });

  it('says beside a NUMERIC column that SQLite has no exact decimals', () => {
    expect(renderManagers(oneColumn('sqlite', 'NUMERIC(10,2)')).source).toMatch(/\/\/ SQLite has no exact decimals: NUMERIC\(10,2\) values are stored as floating point\.\n\s+value: \{ type: 'float' \}/);
  });

  it.each(['BLOB', '', 'MONEY'])("skips a column declared '%s' with a comment naming it", (declared) => {
    const input = oneColumn('sqlite', declared, { nullable: true });
    expect(field(manager(managers(input), 'things'), 'value')).toBeUndefined();
    expect(renderManagers(input).source).toMatch(said('// value is not mapped: Plumb has no field type for'));
  });
});

describe('renderManagers: PostgreSQL types', () => {
  it.each([
    ['smallint', { type: 'integer' }], ['integer', { type: 'integer' }], ['bigint', { type: 'integer' }],
    ['numeric(10,2)', { type: 'decimal', scale: 2 }], ['numeric(12,0)', { type: 'decimal', scale: 0 }], ['numeric', { type: 'decimal', scale: 2 }],
    ['real', { type: 'float' }], ['double precision', { type: 'float' }],
    ['text', { type: 'string' }], ['character varying(80)', { type: 'string' }], ['character varying', { type: 'string' }], ['character(3)', { type: 'string' }],
    ['citext', { type: 'string' }], ['public.citext', { type: 'string' }], ['uuid', { type: 'string' }],
    ['boolean', { type: 'boolean' }], ['date', { type: 'date' }],
    ['timestamp without time zone', { type: 'datetime' }], ['timestamp with time zone', { type: 'datetime' }], ['timestamp(3) with time zone', { type: 'datetime' }],
    ['json', { type: 'json' }], ['jsonb', { type: 'json' }],
  ])('maps %s to %j', (dataType, expected) => {
    expect(field(manager(managers(oneColumn('postgres', dataType)), 'things'), 'value')).toEqual(expected);
  });

  it('maps an enum type to an enum field with its values', () => {
    const input = oneColumn('postgres', 'mood', { enumValues: ['happy', 'sad'], defaultExpression: "'sad'::mood", hasDefault: true });
    expect(field(manager(managers(input), 'things'), 'value')).toEqual({ type: 'enum', values: ['happy', 'sad'], default: 'sad' });
  });

  it('says that the scale of an unconstrained numeric is a guess', () => {
    expect(renderManagers(oneColumn('postgres', 'numeric')).source).toMatch(said('// Numeric without a scale: 2 digits after the point is a guess; set the scale the data uses.'));
  });

  it.each(['bytea', 'integer[]', 'interval', 'time without time zone', 'money', 'inet', 'numeric(30,12)'])('skips a %s column with a comment naming it', (dataType) => {
    const input = oneColumn('postgres', dataType, { nullable: true });
    expect(field(manager(managers(input), 'things'), 'value')).toBeUndefined();
    expect(renderManagers(input).source).toMatch(said('// value is not mapped: Plumb'));
  });

  it('skips a table whose required column cannot be mapped, since Plumb could not create its rows', () => {
    const input = schema('postgres', table('files', [key(), col('body', 'bytea')]), table('notes', [key()]));
    expect(managers(input).map((spec) => spec.table)).toEqual(['notes']);
    expect(renderManagers(input).source).toMatch(said('- files: its column body is required, has no default and cannot be mapped (Plumb has no field type for bytea), so Plumb could not create its rows'));
  });
});

describe('renderManagers: defaults', () => {
  it.each([
    ['postgres', 'text', "'draft'::text", 'draft'], ['postgres', 'character varying(10)', "'it''s'::character varying", "it's"],
    ['postgres', 'integer', '0', 0], ['postgres', 'integer', "'-1'::integer", -1], ['postgres', 'boolean', 'true', true],
    ['postgres', 'numeric(10,2)', '0.00', '0.00'], ['postgres', 'double precision', '1.5', 1.5], ['postgres', 'date', "'2024-01-01'::date", '2024-01-01'],
    ['sqlite', 'BOOLEAN', '1', true], ['sqlite', 'TEXT', "'new'", 'new'], ['sqlite', 'INTEGER', '-3', -3],
  ] as const)('turns the %s default of a %s column, %s, into default %j', (dialect, dataType, expression, expected) => {
    const spec = manager(managers(oneColumn(dialect, dataType, { hasDefault: true, defaultExpression: expression })), 'things');
    expect(field(spec, 'value')?.default).toEqual(expected);
  });

  it('leaves a computed default to the database and says what that means for creates', () => {
    const input = schema('postgres', table('events', [key(), col('created_at', 'timestamp with time zone', { hasDefault: true, defaultExpression: 'now()' }), col('seen_at', 'timestamp with time zone', { nullable: true, hasDefault: true, defaultExpression: 'now()' })]));
    const spec = manager(managers(input), 'events');
    expect(spec.fields).toEqual({ createdAt: { type: 'datetime' }, seenAt: { type: 'datetime', nullable: true } });
    const { source } = renderManagers(input);
    expect(source).toMatch(said("// The database fills it (default now()), but Plumb's create still asks for it"));
    expect(source).toMatch(said("// The database's default (now()) does not apply to creates through Plumb, which write null"));
  });
});

describe('renderManagers: keys', () => {
  it.each([
    ['an integer id', key(), undefined],
    ['an integer key of another name', key('author_no'), { type: 'integer', column: 'author_no' }],
    ['a uuid key', key('uid', 'uuid'), { type: 'string', column: 'uid' }],
    ['a varchar key named id', key('id', 'character varying(12)'), { type: 'string' }],
    ['a text key', key('code', 'text'), { type: 'string', column: 'code' }],
  ])('maps %s', (_what, column, expected) => {
    expect(field(manager(managers(schema('postgres', table('authors', [column, col('name', 'text')]))), 'authors'), 'id')).toEqual(expected);
  });

  it.each([
    ['no primary key', table('log', [col('at', 'date'), col('line', 'text')]), '- log: it has no primary key (Plumb needs a single-column key).'],
    ['a composite key', table('stock', [col('shop', 'integer', { primaryKey: true }), col('sku', 'text', { primaryKey: true }), col('qty', 'integer')]), '- stock: its primary key (shop, sku) has 2 columns and it is neither a join table (two foreign keys) nor a list of values per row'],
    ['a date key', table('days', [key('day', 'date')]), "- days: its key day has type date; Plumb's keys are integers or strings"],
  ])('skips a table with %s, saying why in the header', (_what, skipped, reason) => {
    const input = schema('postgres', skipped, table('others', [key()]));
    expect(managers(input).map((spec) => spec.table)).toEqual(['others']);
    expect(renderManagers(input).source).toMatch(said(reason));
    expect(renderManagers(input).summary.skippedTables.map((entry) => entry.table)).toEqual([skipped.name]);
  });

  it('warns when SQLite would not number an integer key (not INTEGER PRIMARY KEY)', () => {
    const input = schema('sqlite', table('counters', [col('id', 'BIGINT', { primaryKey: true }), col('n', 'INTEGER')]));
    expect(renderManagers(input).source).toMatch(said('// The database does not number new rows (SQLite assigns ids only to a column declared INTEGER PRIMARY KEY, and id is declared BIGINT)'));
  });
});

describe('renderManagers: relations', () => {
  const authors = table('authors', [key(), col('name', 'text')]);

  it('makes each single-column foreign key a one relation named after its column', () => {
    const books = table('books', [key(), col('title', 'text'), col('author_id', 'integer', { nullable: true }), col('editor_id', 'integer')], { foreignKeys: [fk('author_id', 'authors'), fk('editor_id', 'people')] });
    const people = table('people', [key(), col('name', 'text')]);
    const spec = manager(managers(schema('postgres', authors, books, people)), 'books');
    expect(spec.relations).toEqual({
      author: { kind: 'one', target: 'Author', column: 'author_id', nullable: true },
      editor: { kind: 'one', target: 'Person', column: 'editor_id' },
    });
    expect(spec.fields).toEqual({ title: { type: 'string' } });
  });

  it('calls a relation authorRef when a field is already called author', () => {
    const books = table('books', [key(), col('author', 'text'), col('author_id', 'integer')], { foreignKeys: [fk('author_id', 'authors')] });
    const spec = manager(managers(schema('postgres', authors, books)), 'books');
    expect(Object.keys(spec.relations ?? {})).toEqual(['authorRef']);
    expect(spec.fields).toEqual({ author: { type: 'string' } });
  });

  it('gives reverse names when two foreign keys of one table point to the same target', () => {
    const people = table('people', [key(), col('name', 'text')]);
    const messages = table('messages', [key(), col('sender_id', 'integer'), col('recipient_id', 'integer')], { foreignKeys: [fk('recipient_id', 'people'), fk('sender_id', 'people')] });
    const spec = manager(managers(schema('postgres', messages, people)), 'messages');
    expect(relation(spec, 'sender')).toEqual({ kind: 'one', target: 'Person', column: 'sender_id', reverse: 'senderMessages' });
    expect(relation(spec, 'recipient')).toEqual({ kind: 'one', target: 'Person', column: 'recipient_id', reverse: 'recipientMessages' });
  });

  it('gives a reverse name when the default one is taken on the target', () => {
    const writers = table('authors', [key(), col('books', 'text')]);
    const books = table('books', [key(), col('author_id', 'integer')], { foreignKeys: [fk('author_id', 'authors')] });
    expect(relation(manager(managers(schema('postgres', writers, books)), 'books'), 'author')).toEqual({ kind: 'one', target: 'Author', column: 'author_id', reverse: 'authorBooks' });
  });

  it('keeps a foreign key it cannot map as a plain field, with a comment saying why', () => {
    const logs = table('logs', [col('at', 'date'), col('line', 'text')]);
    const books = table('books', [key(), col('log_id', 'integer', { nullable: true }), col('shop', 'integer'), col('sku', 'text')], {
      foreignKeys: [fk('log_id', 'logs'), { columns: ['shop', 'sku'], table: 'stock', referencedSchema: undefined, referencedColumns: ['shop', 'sku'] }],
    });
    const input = schema('postgres', books, logs);
    expect(manager(managers(input), 'books').fields).toEqual({ logId: { type: 'integer', nullable: true }, shop: { type: 'integer' }, sku: { type: 'string' } });
    const { source } = renderManagers(input);
    expect(source).toMatch(said('// References logs(id), whose table is not mapped'));
    expect(source).toMatch(said("// Part of a foreign key of 2 columns to stock(shop, sku); Plumb's relations are single-column"));
  });

  it('maps a key that also references another table (one to one) as the key only, and says so', () => {
    const profiles = table('profiles', [key('author_id'), col('bio', 'text')], { foreignKeys: [fk('author_id', 'authors')] });
    const input = schema('postgres', authors, profiles);
    const spec = manager(managers(input), 'profiles');
    expect(spec.fields).toEqual({ id: { type: 'integer', column: 'author_id' }, bio: { type: 'string' } });
    expect(spec.relations).toBeUndefined();
    expect(renderManagers(input).source).toMatch(said('// The key author_id: it also references authors(id) (one to one), and Plumb maps it as the key only.'));
  });

  it('maps a join table to a manyToMany relation on its first target, with no manager of its own', () => {
    const books = table('books', [key(), col('title', 'text')]);
    const tags = table('tags', [key(), col('label', 'text')]);
    const bookTags = table('book_tags', [col('book_id', 'integer', { primaryKey: true }), col('tag_id', 'integer', { primaryKey: true })], { foreignKeys: [fk('book_id', 'books'), fk('tag_id', 'tags')] });
    const specs = managers(schema('postgres', books, tags, bookTags));
    expect(specs.map((spec) => spec.table)).toEqual(['tags', 'books']);
    expect(manager(specs, 'books').relations).toEqual({ tags: { kind: 'manyToMany', target: 'Tag', through: 'book_tags', sourceColumn: 'book_id', targetColumn: 'tag_id' } });
    expect(renderManagers(schema('postgres', books, tags, bookTags)).summary).toMatchObject({ tables: 3, managers: 2, manyToMany: 1 });
  });

  it('takes two foreign keys that are unique together (and no key) as a join table, also to the same table', () => {
    const people = table('people', [key(), col('name', 'text')]);
    const friendships = table('friendships', [col('person_id', 'integer'), col('friend_id', 'integer')], { foreignKeys: [fk('friend_id', 'people'), fk('person_id', 'people')], uniqueKeys: [['person_id', 'friend_id']] });
    const spec = manager(managers(schema('postgres', friendships, people)), 'people');
    expect(spec.relations).toEqual({ friends: { kind: 'manyToMany', target: 'Person', through: 'friendships', sourceColumn: 'person_id', targetColumn: 'friend_id' } });
  });

  it('maps a join table with other columns that may be left out as a manyToMany, saying those columns are not mapped', () => {
    const books = table('books', [key()]);
    const tags = table('tags', [key()]);
    const bookTags = table('book_tags', [col('book_id', 'integer', { primaryKey: true }), col('tag_id', 'integer', { primaryKey: true }), col('added_on', 'date', { nullable: true })], { foreignKeys: [fk('book_id', 'books'), fk('tag_id', 'tags')] });
    const input = schema('postgres', books, tags, bookTags);
    expect(manager(managers(input), 'books').relations).toEqual({ tags: { kind: 'manyToMany', target: 'Tag', through: 'book_tags', sourceColumn: 'book_id', targetColumn: 'tag_id' } });
    expect(renderManagers(input).source).toMatch(said('// tags goes through book_tags, whose other column (added_on) is not mapped'));
  });

  it('skips a join table whose other column is required without a default, saying how to read it', () => {
    const books = table('books', [key()]);
    const tags = table('tags', [key()]);
    const bookTags = table('book_tags', [col('book_id', 'integer', { primaryKey: true }), col('tag_id', 'integer', { primaryKey: true }), col('added_on', 'date')], { foreignKeys: [fk('book_id', 'books'), fk('tag_id', 'tags')] });
    const rendered = renderManagers(schema('postgres', books, tags, bookTags));
    expect(rendered.summary.skippedTables).toEqual([{ table: 'book_tags', reason: expect.stringMatching(/^a join table of books and tags, but its column added_on is required without a default/) }]);
    expect(rendered.source).toContain(' * - book_tags: a join table of books and tags');
  });

  it('skips a list of values per row (one foreign key and a value as the key), saying there is no many-valued field and how to read it', () => {
    const vets = table('vets', [key(), col('name', 'text')]);
    const skills = table('vet_skills', [col('vet_id', 'integer', { primaryKey: true }), col('skill', 'text', { primaryKey: true })], { foreignKeys: [fk('vet_id', 'vets')] });
    const rendered = renderManagers(schema('sqlite', vets, skills));
    expect(rendered.summary.skippedTables).toEqual([{ table: 'vet_skills', reason: expect.stringMatching(/^a list of skill values per row of vets \(its primary key \(vet_id, skill\) has 2 columns: vet_id → vets\), and Plumb has no many-valued field; to read it, give the table a single-column key/) }]);
  });

  it('skips another table keyed by several columns, saying it is neither a join table nor a list of values', () => {
    const readings = table('readings', [col('station', 'text', { primaryKey: true }), col('taken_at', 'datetime', { primaryKey: true }), col('value', 'real')]);
    expect(renderManagers(schema('sqlite', readings)).summary.skippedTables).toEqual([{ table: 'readings', reason: expect.stringMatching(/has 2 columns and it is neither a join table \(two foreign keys\) nor a list of values per row/) }]);
  });

  it('maps a SQLite text column with CHECK (col IN (…)) values as an enum, and leaves a number column with values a number', () => {
    const trips = table('trips', [key(), col('kind', 'TEXT', { enumValues: ['day', 'night'], hasDefault: true, defaultExpression: "'day'" }), col('stops', 'INTEGER', { enumValues: ['1', '2'] })]);
    const spec = manager(managers(schema('sqlite', trips)), 'trips');
    expect(spec.fields).toMatchObject({ kind: { type: 'enum', values: ['day', 'night'], default: 'day' }, stops: { type: 'integer' } });
  });

  it('writes the managers a relation points to first', () => {
    const accounts = table('accounts', [key(), col('zone_id', 'integer')], { foreignKeys: [fk('zone_id', 'zones')] });
    const zones = table('zones', [key(), col('name', 'text')]);
    const { source } = renderManagers(schema('sqlite', accounts, zones));
    expect(source.indexOf('export const Zone ')).toBeLessThan(source.indexOf('export const Account '));
    expect(source).toMatch(/managers: \[Zone, Account\]/);
  });
});

describe('renderManagers: the module', () => {
  const bookshop = schema('postgres',
    table('authors', [key(), col('name', 'character varying(120)'), col('bio', 'text', { nullable: true })]),
    table('books', [key('id', 'bigint'), col('title', 'text'), col('author_id', 'integer', { nullable: true }), col('price', 'numeric(10,2)', { nullable: true }), col('status', 'book_status', { enumValues: ['draft', 'published'] })], { foreignKeys: [fk('author_id', 'authors')] }),
    table('publishers', [key('id', 'uuid'), col('name', 'text')]),
    table('tags', [key(), col('label', 'text')]),
    table('book_tags', [col('book_id', 'bigint', { primaryKey: true }), col('tag_id', 'integer', { primaryKey: true })], { foreignKeys: [fk('book_id', 'books'), fk('tag_id', 'tags')] }),
    table('audit_log', [col('at', 'date')]),
  );
  const dir = tempDirEach('plumb-introspect-render-');

  it('imports from plumb-agent, keeps every manager away from chat, and says what is the host\'s to write', () => {
    const { source } = renderManagers(bookshop);
    expect(source).toContain("import { defineHost, defineManager } from 'plumb-agent';");
    expect(source.match(/chatExposed: false,/g)).toHaveLength(4);
    expect(source).toMatch(/\/\/ Nothing reaches a model until you set this to true\.\n\s+chatExposed: false,/);
    expect(source).toMatch(said("- Descriptions are yours to write. The assistant reads each manager's `description` (and its fields') to know what the table means"));
    expect(source).toMatch(said('- Permissions default to: everyone may read every row; signed-in users may create, update and delete. Tighten them'));
    expect(source).not.toMatch(/description:/);
    expect(source).toMatch(/export default defineHost\(\{\n {2}managers: \[Author, Publisher, Tag, Book\],\n {2}tables: 'attach',\n\}\);\n$/);
  });

  it('is the same text for the same schema, whatever order the tables come in', () => {
    const reversed = { ...bookshop, tables: [...bookshop.tables].reverse() };
    expect(renderManagers(reversed).source).toBe(renderManagers(bookshop).source);
  });

  it('escapes quotes and comment ends that come from the database', () => {
    const input = oneColumn('postgres', 'text', { hasDefault: true, defaultExpression: "'*/ it''s\\'::text" });
    const host = evaluate(renderManagers(input).source);
    expect(field(manager(host.managers, 'things'), 'value')?.default).toBe("*/ it's\\");
  });

  it('type-checks with tsc against Plumb\'s own types', () => {
    const file = join(dir.path, 'managers.ts');
    writeFileSync(file, renderManagers(bookshop).source);
    const program = ts.createProgram([file], {
      strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ['node'], typeRoots: [join(import.meta.dirname, '../../../node_modules/@types')],
      paths: { 'plumb-agent': [join(import.meta.dirname, '../../index.ts')] },
    });
    const problems = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});
