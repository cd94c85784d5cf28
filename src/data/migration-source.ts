import { columnDefinition } from './column-definition.js';
import type { ColumnDefinition } from './column-definition.js';
import type { Database } from './database.js';
import type { SchemaChange } from './migration-plan.js';
import { indexName } from './schema-sync.js';
import type { ExpectedTable } from './schema-sync.js';

/**
 * The text of a migration file for `changes`, written with kysely's schema builder for the
 * database's dialect, so that the host can read and edit it like a migration of their own.
 * `ifNotExists` on every table and index keeps a baseline harmless where they already exist.
 */
export function migrationSource(database: Database, changes: readonly SchemaChange[], heading: string): string {
  const lines: string[] = [];
  for (const change of changes) {
    if (change.kind === 'createTable') lines.push(...createTableLines(database, change.table));
    else {
      const column = columnDefinition(database, { primaryKey: undefined }, change.column, true);
      lines.push(`  await db.schema.alterTable(${quote(change.table)}).addColumn(${quote(column.name)}, ${quote(column.type)}${modifiers(column)}).execute();`);
      if (change.index) lines.push(indexLine(change.table, change.column.name));
    }
  }
  return [
    `// ${heading}`,
    `// Written by plumb migrate generate for ${database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}. Review it, then run plumb migrate up:`,
    '// every migration runs in one transaction, so a failing step leaves nothing half done.',
    "import type { Kysely } from 'plumb-agent';",
    '',
    'export async function up(db: Kysely<unknown>): Promise<void> {',
    ...lines,
    '}',
    '',
  ].join('\n');
}

function createTableLines(database: Database, table: ExpectedTable): string[] {
  const lines = [`  await db.schema`, `    .createTable(${quote(table.name)})`, '    .ifNotExists()'];
  for (const expected of table.columns) {
    const column = columnDefinition(database, table, expected, false);
    lines.push(`    .addColumn(${quote(column.name)}, ${quote(column.type)}${modifiers(column)})`);
  }
  if (table.primaryKey !== undefined) lines.push(`    .addPrimaryKeyConstraint(${quote(`${table.name}_pkey`)}, [${table.primaryKey.map(quote).join(', ')}])`);
  lines.push('    .execute();');
  for (const column of table.indexes) lines.push(indexLine(table.name, column));
  return lines;
}

function indexLine(table: string, column: string): string {
  return `  await db.schema.createIndex(${quote(indexName(table, column))}).ifNotExists().on(${quote(table)}).column(${quote(column)}).execute();`;
}

function modifiers(column: ColumnDefinition): string {
  const calls: string[] = [];
  if (column.primaryKey) calls.push('primaryKey()');
  if (column.identity) calls.push('generatedByDefaultAsIdentity()');
  if (column.notNull) calls.push('notNull()');
  if (column.defaultValue !== undefined) calls.push(`defaultTo(${JSON.stringify(column.defaultValue)})`);
  if (column.references !== undefined) calls.push(`references(${quote(column.references)})`);
  if (column.onDeleteCascade) calls.push("onDelete('cascade')");
  return calls.length === 0 ? '' : `, (col) => col.${calls.join('.')}`;
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
