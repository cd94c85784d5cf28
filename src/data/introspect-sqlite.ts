import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { allowedValues, sqliteInListChecks } from './check-values.js';
import type { Database } from './database.js';
import { byName, checkSignal, isInternalTable, sortedTable } from './introspected-schema.js';
import type { IntrospectedColumn, IntrospectedForeignKey, IntrospectedSchema } from './introspected-schema.js';

type Row = Readonly<Record<string, unknown>>;

// The table-valued pragmas joined over pragma_table_list read every table in one statement each.
// `type = 'table'` leaves out views, virtual tables and their shadow tables.
const tableFilter = sql`t.schema = 'main' and t.type = 'table' and t.name not like 'sqlite\\_%' escape '\\'`;

async function rows(database: Database, query: RawBuilder<unknown>, signal: AbortSignal | undefined): Promise<readonly Row[]> {
  checkSignal(signal);
  return (await database.execute(query.compile(database.kysely))).rows;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : '';
}

/**
 * SQLite: tables from pragma_table_list, columns from pragma_table_xinfo, keys from the index and
 * foreign-key pragmas, and the values of `CHECK (col IN (…))` from each CREATE TABLE's text.
 */
export async function introspectSqlite(database: Database, signal: AbortSignal | undefined): Promise<IntrospectedSchema> {
  const columnRows = await rows(database, sql`
    select t.name as table_name, t.wr as without_rowid, c.cid, c.name, c.type, c."notnull" as not_null, c.dflt_value, c.pk, c.hidden
    from pragma_table_list as t join pragma_table_xinfo(t.name) as c
    where ${tableFilter}
    order by t.name, c.cid`, signal);
  const keyRows = await rows(database, sql`
    select t.name as table_name, f.id, f.seq, f."table" as referenced_table, f."from" as column_name, f."to" as referenced_column
    from pragma_table_list as t join pragma_foreign_key_list(t.name) as f
    where ${tableFilter}
    order by t.name, f.id, f.seq`, signal);
  const indexRows = await rows(database, sql`
    select t.name as table_name, i.name as index_name, i.origin, x.seqno, x.name as column_name
    from pragma_table_list as t join pragma_index_list(t.name) as i join pragma_index_info(i.name) as x
    where ${tableFilter} and i."unique" = 1 and i.partial = 0 and i.origin <> 'pk'
    order by t.name, i.name, x.seqno`, signal);
  const createRows = await rows(database, sql`
    select t.name as table_name, s.sql as create_sql
    from pragma_table_list as t join sqlite_schema as s on s.type = 'table' and s.name = t.name
    where ${tableFilter}`, signal);
  // Column names are case-insensitive in SQLite: a check may spell one differently.
  const checked = new Map(createRows.map((row) => [text(row.table_name), new Map([...allowedValues(sqliteInListChecks(text(row.create_sql)))].map(([column, values]) => [column.toLowerCase(), values]))]));

  const tables = new Map<string, { columns: IntrospectedColumn[]; primaryKey: { column: string; position: number }[]; withoutRowid: boolean }>();
  for (const row of columnRows) {
    const table = text(row.table_name);
    if (isInternalTable(table)) continue;
    let entry = tables.get(table);
    if (entry === undefined) tables.set(table, (entry = { columns: [], primaryKey: [], withoutRowid: row.without_rowid === 1 }));
    const position = Number(row.pk);
    if (position > 0) entry.primaryKey.push({ column: text(row.name), position });
    // hidden: 1 for a virtual table's hidden column, 2 and 3 for generated (virtual, stored) columns.
    const generated = Number(row.hidden) >= 2;
    const defaultExpression = row.dflt_value === null || row.dflt_value === undefined ? undefined : text(row.dflt_value);
    entry.columns.push({
      name: text(row.name),
      dataType: text(row.type),
      nullable: Number(row.not_null) === 0 && position === 0,
      hasDefault: defaultExpression !== undefined || generated,
      defaultExpression,
      generated,
      primaryKey: position > 0,
      enumValues: checked.get(table)?.get(text(row.name).toLowerCase()),
    });
  }

  const foreignKeys = new Map<string, Map<number, { table: string; columns: string[]; referenced: (string | undefined)[] }>>();
  for (const row of keyRows) {
    const table = text(row.table_name);
    if (!tables.has(table)) continue;
    let byId = foreignKeys.get(table);
    if (byId === undefined) foreignKeys.set(table, (byId = new Map<number, { table: string; columns: string[]; referenced: (string | undefined)[] }>()));
    const id = Number(row.id);
    let key = byId.get(id);
    if (key === undefined) byId.set(id, (key = { table: text(row.referenced_table), columns: [], referenced: [] }));
    key.columns.push(text(row.column_name));
    key.referenced.push(row.referenced_column === null ? undefined : text(row.referenced_column));
  }

  const uniqueKeys = new Map<string, Map<string, (string | null)[]>>();
  for (const row of indexRows) {
    const table = text(row.table_name);
    if (!tables.has(table)) continue;
    let byIndex = uniqueKeys.get(table);
    if (byIndex === undefined) uniqueKeys.set(table, (byIndex = new Map<string, (string | null)[]>()));
    const index = text(row.index_name);
    let columns = byIndex.get(index);
    if (columns === undefined) byIndex.set(index, (columns = []));
    // An expression in the index has no column name: such an index is not a unique key of columns.
    columns.push(row.column_name === null ? null : text(row.column_name));
  }

  const primaryKeys = new Map([...tables].map(([name, entry]) => [name, entry.primaryKey.sort((a, b) => a.position - b.position).map((key) => key.column)]));
  const result = [...tables].map(([name, entry]) => {
    const primaryKey = primaryKeys.get(name) ?? [];
    // Only an INTEGER PRIMARY KEY of a rowid table is an alias of the rowid, which SQLite assigns.
    const rowidKey = !entry.withoutRowid && primaryKey.length === 1 ? entry.columns.find((column) => column.name === primaryKey[0] && column.dataType.toUpperCase() === 'INTEGER') : undefined;
    const keys: IntrospectedForeignKey[] = [...(foreignKeys.get(name)?.values() ?? [])].map((key) => {
      // `REFERENCES other` without columns means the other table's primary key.
      const implied = primaryKeys.get(key.table) ?? [];
      return { columns: key.columns, table: key.table, referencedSchema: undefined, referencedColumns: key.referenced.map((column, index) => column ?? implied[index] ?? '') };
    });
    return sortedTable({
      name,
      columns: entry.columns.map((column) => (column === rowidKey ? { ...column, hasDefault: true } : column)),
      primaryKey,
      foreignKeys: keys,
      uniqueKeys: [...(uniqueKeys.get(name)?.values() ?? [])].filter((columns): columns is string[] => columns.every((column) => column !== null)),
    });
  });
  return { dialect: 'sqlite', schema: 'main', tables: result.sort((a, b) => byName(a.name, b.name)) };
}
