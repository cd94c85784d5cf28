import { sql } from 'kysely';
import { PlumbError } from '../core/index.js';
import type { ColumnInfo, ColumnKind, Database } from './database.js';
import { columnDefinition } from './column-definition.js';
import type { ValueShape } from './field-values.js';
import { assignsKeys, fieldShape } from './keys.js';
import type { Manager } from './model.js';

export interface ExpectedColumn {
  readonly name: string;
  readonly kind: ColumnKind;
  /** Digits after the point of a decimal column; 0 for the others. */
  readonly scale: number;
  readonly nullable: boolean;
  /** The declared values of an enum field. */
  readonly values?: readonly string[];
  readonly what: string;
  readonly primaryKey?: boolean;
  readonly references?: { readonly table: string; readonly column: string };
  /** The field's default in row-JSON form and the shape of its values, when it has one (a new column of a table with rows needs it). */
  readonly defaultValue?: { readonly value: unknown; readonly shape: ValueShape };
}

export interface ExpectedTable {
  readonly name: string;
  readonly owner: string;
  readonly columns: readonly ExpectedColumn[];
  readonly indexes: readonly string[];
  /** Composite primary key (join tables). */
  readonly primaryKey?: readonly string[];
}

/** The column kind of a manager's key: an integer id (`id`, or `foreignKey` elsewhere) or a string `key`. */
function keyColumn(manager: Manager, integer: 'id' | 'foreignKey'): ColumnKind {
  return assignsKeys(manager) ? integer : 'key';
}

/** The tables, columns and indexes the managers need. */
export function expectedTables(managers: readonly Manager[]): ExpectedTable[] {
  const tables: ExpectedTable[] = [];
  const joins = new Set<string>();
  for (const manager of managers) {
    const columns: ExpectedColumn[] = [];
    const indexes: string[] = [];
    for (const field of manager.fields) {
      columns.push({
        name: field.column, kind: field.primaryKey ? keyColumn(manager, 'id') : field.type, scale: field.scale, nullable: field.nullable, what: `${manager.name}.${field.name} (${field.type})`, primaryKey: field.primaryKey,
        ...(field.values === undefined ? {} : { values: field.values }),
        ...(field.hasDefault ? { defaultValue: { value: field.default, shape: fieldShape(field) } } : {}),
      });
      if (field.filterable && !field.primaryKey && field.type !== 'json') indexes.push(field.column);
    }
    for (const relation of manager.relations) {
      if (relation.kind !== 'one') continue;
      columns.push({
        name: relation.column, kind: keyColumn(relation.target, 'foreignKey'), scale: 0, nullable: relation.nullable, what: `${manager.name}.${relation.name} (id of a ${relation.target.name})`,
        references: { table: relation.target.table, column: relation.target.fields[0]!.column },
      });
      indexes.push(relation.column);
    }
    tables.push({ name: manager.table, owner: manager.name, columns, indexes });
    for (const relation of manager.relations) {
      if (relation.kind !== 'manyToMany' || !relation.declared || joins.has(relation.through)) continue;
      joins.add(relation.through);
      const self = relation.target.relation(relation.reverseName)!.target;
      tables.push({
        name: relation.through,
        owner: `${manager.name}.${relation.name}`,
        columns: [
          { name: relation.sourceColumn, kind: keyColumn(self, 'foreignKey'), scale: 0, nullable: false, what: `${manager.name}.${relation.name} (join)`, references: { table: self.table, column: self.fields[0]!.column } },
          { name: relation.targetColumn, kind: keyColumn(relation.target, 'foreignKey'), scale: 0, nullable: false, what: `${manager.name}.${relation.name} (join)`, references: { table: relation.target.table, column: relation.target.fields[0]!.column } },
        ],
        indexes: [relation.targetColumn],
        primaryKey: [relation.sourceColumn, relation.targetColumn],
      });
    }
  }
  return tables;
}

/**
 * Compares the managers' tables with the database's, changing nothing: every mismatch of an
 * existing table (named by table and column), and the tables that do not exist. In `attach` mode
 * a missing table is a mismatch too.
 */
export async function checkTables(database: Database, managers: readonly Manager[], mode: 'own' | 'attach' = 'own'): Promise<{ problems: string[]; missing: string[] }> {
  const problems: string[] = [];
  const missing: string[] = [];
  for (const table of expectedTables(managers)) {
    const existing = await database.tableColumns(table.name);
    if (existing === undefined) {
      if (mode === 'attach') problems.push(`Table '${table.name}' (for ${table.owner}) does not exist.`);
      else missing.push(table.name);
    } else problems.push(...tableProblems(database, table, existing));
  }
  return { problems, missing };
}

/** How `syncSchema` treats the app's tables. */
export type SchemaMode =
  /** Plumb's tables, no migrations yet: missing tables are created, unless the database holds tables of someone else's. */
  | 'own'
  /** As `own`, and missing tables are created beside tables that are not the app's (asked for with `tables: 'create'`). */
  | 'create'
  /** Plumb's tables, changed by migrations only: a missing table is a mismatch. */
  | 'migrated'
  /** The host's tables: checked, never created or altered. */
  | 'attach';

const ownHint = 'The tables are Plumb\'s: run plumb migrate generate to write a migration for the difference, review it, then plumb migrate up.';
const mismatchHints: Record<SchemaMode, string> = {
  own: ownHint,
  create: ownHint,
  migrated: ownHint,
  attach: 'The tables are yours (tables: \'attach\'): change the managers to fit them (plumb introspect prints definitions that do), or change the tables with your own migrations.',
};

/**
 * Checks existing tables column by column and, in `own` mode, creates the missing ones with their
 * indexes. Never alters an existing table: a mismatch is a `schema_mismatch` error naming every
 * table and column, and saying how to go on.
 */
export async function syncSchema(database: Database, managers: readonly Manager[], mode: SchemaMode = 'own'): Promise<void> {
  const creates = mode === 'own' || mode === 'create';
  const { problems, missing: missingNames } = await checkTables(database, managers, creates ? 'own' : 'attach');
  if (problems.length > 0) {
    throw new PlumbError('schema_mismatch', `The database does not match the managers:\n- ${problems.join('\n- ')}\n${mismatchHints[mode]}`, { details: { problems } });
  }
  if (!creates) return;
  const tables = expectedTables(managers);
  const missing = tables.filter((table) => missingNames.includes(table.name));
  if (mode === 'own' && missing.length > 0) {
    const refusal = await tablesNotCreated(database, managers, missingNames);
    if (refusal !== undefined) throw refusal;
  }
  for (const table of missing) await createTable(database, table);
  for (const table of tables) await createIndexes(database, table.name, table.indexes);
}

/**
 * A database that already holds tables which are not the app's is someone's own: an `own` app
 * creates nothing there (a misspelt table name would otherwise become a new, empty table in it).
 */
export async function tablesNotCreated(database: Database, managers: readonly Manager[], missing: readonly string[]): Promise<PlumbError | undefined> {
  const expected = new Set(expectedTables(managers).map((table) => table.name));
  const others = (await database.tableNames()).filter((name) => !expected.has(name) && !name.startsWith('plumb_'));
  if (others.length === 0) return undefined;
  return new PlumbError(
    'tables_not_created',
    `The database already has tables of its own (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}) and the app's ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not there. If these are your tables, set tables: 'attach' and check the table names (plumb introspect prints definitions that fit); to have Plumb create ${missing.length === 1 ? 'it' : 'them'} beside yours, set tables: 'create'.`,
    { details: { missing: [...missing], others: others.slice(0, 20) } },
  );
}

export function indexName(table: string, column: string): string {
  return `${table}_${column}_idx`;
}

/** The indexed columns of a manager's own table. */
export function indexedColumns(manager: Manager): string[] {
  return expectedTables([manager])[0]!.indexes.slice();
}

export async function createIndexes(database: Database, table: string, columns: readonly string[]): Promise<void> {
  for (const indexed of columns) await database.kysely.schema.createIndex(indexName(table, indexed)).ifNotExists().on(table).column(indexed).execute();
}

export async function dropIndexes(database: Database, table: string, columns: readonly string[]): Promise<void> {
  for (const indexed of columns) await database.kysely.schema.dropIndex(indexName(table, indexed)).ifExists().execute();
}

async function createTable(database: Database, table: ExpectedTable): Promise<void> {
  let builder = database.kysely.schema.createTable(table.name);
  for (const expected of table.columns) {
    const column = columnDefinition(database, table, expected, false);
    builder = builder.addColumn(column.name, sql.raw(column.type), (col) => {
      let definition = col;
      if (column.primaryKey) definition = definition.primaryKey();
      if (column.identity) definition = definition.generatedByDefaultAsIdentity();
      if (column.notNull) definition = definition.notNull();
      if (column.references !== undefined) definition = definition.references(column.references);
      if (column.onDeleteCascade) definition = definition.onDelete('cascade');
      return definition;
    });
  }
  if (table.primaryKey !== undefined) builder = builder.addPrimaryKeyConstraint(`${table.name}_pkey`, [...table.primaryKey] as never);
  await builder.execute();
}

/** A column of an enumerated type holds a string or enum field whose values it has. */
function enumProblems(table: string, expected: ExpectedColumn, labels: readonly string[]): string[] {
  if (expected.kind !== 'enum' && expected.kind !== 'string') return [`Table '${table}' column '${expected.name}' is of an enumerated type (${labels.join(', ')}), but ${expected.what} needs '${expected.kind}'.`];
  const missing = (expected.values ?? []).filter((value) => !labels.includes(value));
  return missing.length === 0 ? [] : [`Table '${table}' column '${expected.name}' is of an enumerated type without ${missing.map((value) => `'${value}'`).join(', ')}, which ${expected.what} declares.`];
}

function tableProblems(database: Database, table: ExpectedTable, existing: readonly ColumnInfo[]): string[] {
  const problems: string[] = [];
  const byName = new Map(existing.map((info) => [info.name, info]));
  for (const expected of table.columns) {
    const info = byName.get(expected.name);
    if (info === undefined) {
      problems.push(`Table '${table.name}' has no column '${expected.name}' for ${expected.what}.`);
      continue;
    }
    if (info.enumValues !== undefined) problems.push(...enumProblems(table.name, expected, info.enumValues));
    else if (!database.fragments.typeMatches(expected.kind, info.dataType, expected.scale)) {
      problems.push(`Table '${table.name}' column '${expected.name}' has type '${info.dataType.toLowerCase()}', but ${expected.what} needs '${database.fragments.columnType(expected.kind, expected.scale)}'.`);
    }
    if (expected.primaryKey !== true && info.nullable !== expected.nullable) {
      problems.push(`Table '${table.name}' column '${expected.name}' is ${info.nullable ? 'nullable' : 'not null'}, but ${expected.what} is ${expected.nullable ? 'nullable' : 'required'}.`);
    }
  }
  const known = new Set(table.columns.map((expected) => expected.name));
  for (const info of existing) {
    if (!known.has(info.name) && !info.nullable && !info.hasDefault) {
      problems.push(`Table '${table.name}' column '${info.name}' is required but no field of ${table.owner} fills it.`);
    }
  }
  return problems;
}
