import { PlumbError } from '../core/index.js';

/**
 * What an existing database holds, read from its catalogue: the raw material `plumb introspect`
 * turns into manager definitions. Only the database's own tables: not views, not SQLite's
 * internal tables, not Plumb's (`plumb_*`) nor kysely's migration tables.
 */
export interface IntrospectedColumn {
  readonly name: string;
  /**
   * The declared type. SQLite: as written in CREATE TABLE ('VARCHAR(40)', '' when none).
   * PostgreSQL: as `format_type` writes it ('numeric(10,2)', 'character varying(80)',
   * 'timestamp with time zone', an enum type's name).
   */
  readonly dataType: string;
  readonly nullable: boolean;
  /**
   * The database fills the column when an insert leaves it out: a DEFAULT, an identity or serial
   * column, SQLite's rowid key, a generated column.
   */
  readonly hasDefault: boolean;
  /** The DEFAULT expression as the database writes it (`'draft'::text`, `now()`, `0`); undefined when there is none. */
  readonly defaultExpression: string | undefined;
  /** Computed by the database (GENERATED ALWAYS AS …), so never written. */
  readonly generated: boolean;
  readonly primaryKey: boolean;
  /**
   * The values the column may hold, in their order: a PostgreSQL enum type's labels, or the string
   * literals of a `CHECK (col IN ('a', 'b', …))` (PostgreSQL: `col = ANY (ARRAY[…])`) on the column
   * or its table. Undefined when the schema names none.
   */
  readonly enumValues: readonly string[] | undefined;
}

export interface IntrospectedForeignKey {
  /** This table's columns, in constraint order. */
  readonly columns: readonly string[];
  readonly table: string;
  /** PostgreSQL: the referenced table's schema when it is not the schema read; undefined otherwise. */
  readonly referencedSchema: string | undefined;
  /** The referenced columns, paired with `columns`. */
  readonly referencedColumns: readonly string[];
}

export interface IntrospectedTable {
  readonly name: string;
  /** In the table's column order. */
  readonly columns: readonly IntrospectedColumn[];
  /** The primary key's columns in key order; empty when the table has none. */
  readonly primaryKey: readonly string[];
  /** Sorted by their columns. */
  readonly foreignKeys: readonly IntrospectedForeignKey[];
  /** Column sets under a unique constraint or a full (not partial, not expression) unique index, other than the primary key. */
  readonly uniqueKeys: readonly (readonly string[])[];
}

export interface IntrospectedSchema {
  readonly dialect: 'sqlite' | 'postgres';
  /** The PostgreSQL schema read; 'main' on SQLite. */
  readonly schema: string;
  /** Sorted by name. */
  readonly tables: readonly IntrospectedTable[];
}

export interface IntrospectOptions {
  /** Aborting rejects with a `timeout` error between statements. */
  readonly signal?: AbortSignal;
}

/** Tables that are Plumb's own (journal, confirmations, migrations) or kysely's migration bookkeeping. */
export function isInternalTable(name: string): boolean {
  return name.startsWith('plumb_') || name === 'kysely_migration' || name === 'kysely_migration_lock';
}

export function checkSignal(signal: AbortSignal | undefined): void {
  if (signal?.aborted !== true) return;
  const reason: unknown = signal.reason;
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'it was aborted';
  throw new PlumbError('timeout', `Reading the database schema did not finish: ${text}.`, { cause: reason });
}

/** Code-point order, so that the output does not depend on the machine's locale. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}


/** A table with its keys in a stable order (foreign keys and unique keys sorted by their columns). */
export function sortedTable(table: IntrospectedTable): IntrospectedTable {
  const key = (columns: readonly string[]): string => columns.join('\u0000');
  return {
    ...table,
    foreignKeys: [...table.foreignKeys].sort((a, b) => byName(key(a.columns), key(b.columns)) || byName(a.table, b.table)),
    uniqueKeys: [...new Map(table.uniqueKeys.map((columns) => [key(columns), columns])).values()].sort((a, b) => byName(key(a), key(b))),
  };
}
