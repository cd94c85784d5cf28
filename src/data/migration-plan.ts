import type { Database } from './database.js';
import type { Manager } from './model.js';
import { expectedTables } from './schema-sync.js';
import type { ExpectedColumn, ExpectedTable } from './schema-sync.js';

/** One change a generated migration makes: nothing in it loses data. */
export type SchemaChange =
  | { readonly kind: 'createTable'; readonly table: ExpectedTable }
  | { readonly kind: 'addColumn'; readonly table: string; readonly column: ExpectedColumn; readonly index: boolean };

/**
 * The difference between the managers and the database: the changes a migration can make safely,
 * and the differences it never makes on its own (a column dropped, retyped, made required, or a
 * required column without a default added to an existing table), each said in a sentence.
 */
export interface MigrationPlan {
  readonly changes: readonly SchemaChange[];
  readonly destructive: readonly string[];
  /** The app's tables that exist, as the database has them now (what a baseline migration recreates on a new database). */
  readonly existing: readonly ExpectedTable[];
}

export async function planMigration(database: Database, managers: readonly Manager[]): Promise<MigrationPlan> {
  const changes: SchemaChange[] = [];
  const destructive: string[] = [];
  const existing: ExpectedTable[] = [];
  for (const table of expectedTables(managers)) {
    const columns = await database.tableColumns(table.name);
    if (columns === undefined) {
      changes.push({ kind: 'createTable', table });
      continue;
    }
    const byName = new Map(columns.map((column) => [column.name, column]));
    const present: ExpectedColumn[] = [];
    for (const expected of table.columns) {
      const info = byName.get(expected.name);
      if (info === undefined) {
        if (expected.nullable || expected.defaultValue !== undefined) changes.push({ kind: 'addColumn', table: table.name, column: expected, index: table.indexes.includes(expected.name) });
        else destructive.push(`${expected.what} is a new required column of '${table.name}', which may hold rows: give the field a default or make it nullable, or write the migration by hand (add the column, fill it, then make it required).`);
        continue;
      }
      present.push(expected);
      if (!database.fragments.typeMatches(expected.kind, info.dataType, expected.scale)) {
        destructive.push(`'${table.name}.${expected.name}' is '${info.dataType.toLowerCase()}' in the database but ${expected.what} needs '${database.fragments.columnType(expected.kind, expected.scale)}': retyping a column may lose data, so write that migration by hand.`);
      } else if (expected.primaryKey !== true && info.nullable !== expected.nullable) {
        destructive.push(
          expected.nullable
            ? `'${table.name}.${expected.name}' is required in the database but ${expected.what} is nullable: write the migration that drops its NOT NULL by hand.`
            : `'${table.name}.${expected.name}' is nullable in the database but ${expected.what} is required: fill its empty rows and add NOT NULL in a migration written by hand.`,
        );
      }
    }
    const known = new Set(table.columns.map((column) => column.name));
    for (const column of columns) {
      if (!known.has(column.name)) destructive.push(`'${table.name}.${column.name}' maps to no field of ${table.owner} any more: dropping a column loses its data, so write that migration by hand (or map the column to a field again).`);
    }
    existing.push({ ...table, columns: present, indexes: table.indexes.filter((name) => present.some((column) => column.name === name)) });
  }
  return { changes, destructive, existing };
}
