import type { Database } from './database.js';
import { introspectPostgres } from './introspect-postgres.js';
import { introspectSqlite } from './introspect-sqlite.js';
import { checkSignal } from './introspected-schema.js';
import type { IntrospectedSchema, IntrospectOptions } from './introspected-schema.js';

export type { IntrospectedColumn, IntrospectedForeignKey, IntrospectedSchema, IntrospectedTable, IntrospectOptions } from './introspected-schema.js';

/**
 * Reads the tables, columns, keys and foreign keys of a database's own schema (PostgreSQL: the
 * database's `schema`, else `current_schema()`), in a fixed number of catalogue statements.
 */
export async function introspectDatabase(database: Database, options: IntrospectOptions = {}): Promise<IntrospectedSchema> {
  checkSignal(options.signal);
  const schema = database.dialect === 'sqlite' ? await introspectSqlite(database, options.signal) : await introspectPostgres(database, options.signal);
  checkSignal(options.signal);
  return schema;
}
