import { sql } from 'kysely';
import { PlumbError } from '../core/index.js';
import type { ColumnInfo, ColumnKind, Database } from './database.js';
import type { Manager } from './model.js';

interface ExpectedColumn {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly nullable: boolean;
  readonly what: string;
  readonly primaryKey?: boolean;
  readonly references?: { readonly table: string; readonly column: string };
}

interface ExpectedTable {
  readonly name: string;
  readonly owner: string;
  readonly columns: readonly ExpectedColumn[];
  readonly indexes: readonly string[];
  /** Composite primary key (join tables). */
  readonly primaryKey?: readonly string[];
}

/** The tables, columns and indexes the managers need. */
export function expectedTables(managers: readonly Manager[]): ExpectedTable[] {
  const tables: ExpectedTable[] = [];
  const joins = new Set<string>();
  for (const manager of managers) {
    const columns: ExpectedColumn[] = [];
    const indexes: string[] = [];
    for (const field of manager.fields) {
      columns.push({ name: field.column, kind: field.primaryKey ? 'id' : field.type, nullable: field.nullable, what: `${manager.name}.${field.name} (${field.type})`, primaryKey: field.primaryKey });
      if (field.filterable && !field.primaryKey && field.type !== 'json') indexes.push(field.column);
    }
    for (const relation of manager.relations) {
      if (relation.kind !== 'one') continue;
      columns.push({
        name: relation.column, kind: 'foreignKey', nullable: relation.nullable, what: `${manager.name}.${relation.name} (id of a ${relation.target.name})`,
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
          { name: relation.sourceColumn, kind: 'foreignKey', nullable: false, what: `${manager.name}.${relation.name} (join)`, references: { table: self.table, column: self.fields[0]!.column } },
          { name: relation.targetColumn, kind: 'foreignKey', nullable: false, what: `${manager.name}.${relation.name} (join)`, references: { table: relation.target.table, column: relation.target.fields[0]!.column } },
        ],
        indexes: [relation.targetColumn],
        primaryKey: [relation.sourceColumn, relation.targetColumn],
      });
    }
  }
  return tables;
}

/**
 * Creates missing tables and indexes; checks existing tables column by column. Never alters an
 * existing table: a mismatch is a `schema_mismatch` error naming the table and the column.
 */
export async function syncSchema(database: Database, managers: readonly Manager[]): Promise<void> {
  const problems: string[] = [];
  const tables = expectedTables(managers);
  const missing: ExpectedTable[] = [];
  for (const table of tables) {
    const existing = await database.tableColumns(table.name);
    if (existing === undefined) missing.push(table);
    else problems.push(...tableProblems(database, table, existing));
  }
  if (problems.length > 0) {
    throw new PlumbError('schema_mismatch', `The database does not match the managers:\n- ${problems.join('\n- ')}`, { details: { problems } });
  }
  for (const table of missing) await createTable(database, table);
  for (const table of tables) await createIndexes(database, table.name, table.indexes);
}

function indexName(table: string, column: string): string {
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
    builder = builder.addColumn(expected.name, sql.raw(database.fragments.columnType(expected.kind)), (col) => {
      let definition = col;
      if (expected.primaryKey === true) definition = definition.primaryKey();
      else if (!expected.nullable) definition = definition.notNull();
      if (expected.references !== undefined) {
        definition = definition.references(`${expected.references.table}.${expected.references.column}`);
        if (table.primaryKey !== undefined) definition = definition.onDelete('cascade');
      }
      return definition;
    });
  }
  if (table.primaryKey !== undefined) builder = builder.addPrimaryKeyConstraint(`${table.name}_pkey`, [...table.primaryKey] as never);
  await builder.execute();
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
    if (!database.fragments.typeMatches(expected.kind, info.dataType)) {
      problems.push(`Table '${table.name}' column '${expected.name}' has type '${info.dataType.toLowerCase()}', but ${expected.what} needs '${database.fragments.columnType(expected.kind)}'.`);
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
