import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { PlumbError } from '../core/index.js';
import { allowedValues, postgresInListCheck } from './check-values.js';
import type { InListCheck } from './check-values.js';
import type { Database } from './database.js';
import { byName, checkSignal, isInternalTable, sortedTable } from './introspected-schema.js';
import type { IntrospectedColumn, IntrospectedForeignKey, IntrospectedSchema } from './introspected-schema.js';

type Row = Readonly<Record<string, unknown>>;

// The string types whose CHECK (col IN (…)) reads as an enum; a check on a date or a number does not.
const textType = /^(?:text|character varying|character|citext|bpchar)\b/;

// Ordinary and partitioned tables; a partition is read as part of its parent, not on its own.
const tableKinds = sql`c.relkind in ('r', 'p') and not c.relispartition`;

async function rows(database: Database, query: RawBuilder<unknown>, signal: AbortSignal | undefined): Promise<readonly Row[]> {
  checkSignal(signal);
  return (await database.execute(query.compile(database.kysely))).rows;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : '';
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.map(text) : [];
}

/** The schema to read: the database's `schema` option, else the server's current schema. */
async function schemaName(database: Database, signal: AbortSignal | undefined): Promise<string> {
  const given = 'schema' in database && typeof database.schema === 'string' ? database.schema : null;
  const [row] = await rows(database, sql`
    select s.name, n.oid is not null as found
    from (select coalesce(cast(${given} as text), current_schema()) as name) as s
    left join pg_catalog.pg_namespace as n on n.nspname = s.name`, signal);
  if (row === undefined || row.name === null || row.found !== true) {
    const what = given === null ? 'the search_path names no schema that exists' : `the schema '${given}' does not exist`;
    throw new PlumbError('unknown_database', `Cannot read the database's tables: ${what}. Point the connection at an existing schema (the schema option, or ?options=-c%20search_path%3DNAME in the URL).`, {
      details: { schema: given },
    });
  }
  return text(row.name);
}

/**
 * PostgreSQL: one schema from pg_catalog in five statements whatever the number of tables (the
 * schema, then columns, unique indexes, foreign keys and check constraints side by side).
 */
export async function introspectPostgres(database: Database, signal: AbortSignal | undefined): Promise<IntrospectedSchema> {
  const schema = await schemaName(database, signal);
  const [columnRows, indexRows, keyRows, checkRows] = await Promise.all([
    rows(database, sql`
      select c.relname::text as table_name, a.attname::text as name, format_type(a.atttypid, a.atttypmod) as data_type,
        a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as default_expression,
        a.attidentity <> '' as identity, a.attgenerated <> '' as generated,
        case when t.typtype = 'e' then array(select e.enumlabel::text from pg_catalog.pg_enum as e where e.enumtypid = t.oid order by e.enumsortorder) end as enum_values
      from pg_catalog.pg_class as c
      join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
      join pg_catalog.pg_attribute as a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type as t on t.oid = a.atttypid
      left join pg_catalog.pg_attrdef as d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = ${schema} and ${tableKinds}
      order by c.relname, a.attnum`, signal),
    // Key columns only (not INCLUDE columns); partial and expression indexes are not keys of columns.
    rows(database, sql`
      select c.relname::text as table_name, i.indisprimary as is_primary,
        array(select a.attname::text from unnest(i.indkey::int2[]) with ordinality as k(attnum, position)
              join pg_catalog.pg_attribute as a on a.attrelid = i.indrelid and a.attnum = k.attnum
              where k.position <= i.indnkeyatts order by k.position) as columns
      from pg_catalog.pg_index as i
      join pg_catalog.pg_class as c on c.oid = i.indrelid
      join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
      where n.nspname = ${schema} and ${tableKinds} and (i.indisprimary or i.indisunique) and i.indpred is null and i.indexprs is null`, signal),
    // conparentid <> 0: the copies PostgreSQL makes for each partition of a referenced partitioned table.
    rows(database, sql`
      select c.relname::text as table_name, f.relname::text as referenced_table, fn.nspname::text as referenced_schema,
        array(select a.attname::text from unnest(k.conkey) with ordinality as u(attnum, position)
              join pg_catalog.pg_attribute as a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.position) as columns,
        array(select a.attname::text from unnest(k.confkey) with ordinality as u(attnum, position)
              join pg_catalog.pg_attribute as a on a.attrelid = k.confrelid and a.attnum = u.attnum order by u.position) as referenced_columns
      from pg_catalog.pg_constraint as k
      join pg_catalog.pg_class as c on c.oid = k.conrelid
      join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
      join pg_catalog.pg_class as f on f.oid = k.confrelid
      join pg_catalog.pg_namespace as fn on fn.oid = f.relnamespace
      where n.nspname = ${schema} and ${tableKinds} and k.contype = 'f' and k.conparentid = 0`, signal),
    rows(database, sql`
      select c.relname::text as table_name, pg_get_constraintdef(k.oid) as definition
      from pg_catalog.pg_constraint as k
      join pg_catalog.pg_class as c on c.oid = k.conrelid
      join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
      where n.nspname = ${schema} and ${tableKinds} and k.contype = 'c'`, signal),
  ]);

  const checks = new Map<string, InListCheck[]>();
  for (const row of checkRows) {
    const check = postgresInListCheck(text(row.definition));
    if (check !== undefined) checks.set(text(row.table_name), [...(checks.get(text(row.table_name)) ?? []), check]);
  }
  const checked = new Map([...checks].map(([table, list]) => [table, allowedValues(list)]));

  const primaryKeys = new Map<string, string[]>();
  const uniqueKeys = new Map<string, string[][]>();
  for (const row of indexRows) {
    const table = text(row.table_name);
    const columns = texts(row.columns);
    if (row.is_primary === true) primaryKeys.set(table, columns);
    else uniqueKeys.set(table, [...(uniqueKeys.get(table) ?? []), columns]);
  }

  const columns = new Map<string, IntrospectedColumn[]>();
  for (const row of columnRows) {
    const table = text(row.table_name);
    if (isInternalTable(table)) continue;
    const name = text(row.name);
    const generated = row.generated === true;
    const defaultExpression = generated || row.default_expression === null ? undefined : text(row.default_expression);
    const list = columns.get(table) ?? [];
    columns.set(table, list);
    list.push({
      name,
      dataType: text(row.data_type),
      nullable: row.not_null !== true,
      hasDefault: defaultExpression !== undefined || generated || row.identity === true,
      defaultExpression,
      generated,
      primaryKey: primaryKeys.get(table)?.includes(name) === true,
      enumValues: row.enum_values !== null ? texts(row.enum_values) : textType.test(text(row.data_type)) ? checked.get(table)?.get(name) : undefined,
    });
  }

  const foreignKeys = new Map<string, IntrospectedForeignKey[]>();
  for (const row of keyRows) {
    const table = text(row.table_name);
    const referencedSchema = text(row.referenced_schema);
    const list = foreignKeys.get(table) ?? [];
    foreignKeys.set(table, list);
    list.push({
      columns: texts(row.columns),
      table: text(row.referenced_table),
      referencedSchema: referencedSchema === schema ? undefined : referencedSchema,
      referencedColumns: texts(row.referenced_columns),
    });
  }

  const tables = [...columns].map(([name, list]) => sortedTable({
    name,
    columns: list,
    primaryKey: primaryKeys.get(name) ?? [],
    foreignKeys: foreignKeys.get(name) ?? [],
    uniqueKeys: uniqueKeys.get(name) ?? [],
  }));
  return { dialect: 'postgres', schema, tables: tables.sort((a, b) => byName(a.name, b.name)) };
}
