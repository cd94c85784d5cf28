import type { CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { FieldType } from './definition-types.js';

/**
 * The SQL seam. Managers and GraphQL build queries with kysely's `sql` templates and run them here;
 * each database (SQLite now, PostgreSQL later) supplies a kysely instance for its dialect (quoting,
 * placeholders, introspection), a few dialect-specific fragments, and its own execution.
 */
export interface QueryResult {
  readonly rows: readonly Record<string, unknown>[];
  /** Rows changed by an INSERT/UPDATE/DELETE. */
  readonly changes: number;
}

export interface SqlExecutor {
  execute(query: CompiledQuery): Promise<QueryResult>;
}

/** Storage kinds a manager needs a column for. */
export type ColumnKind = FieldType | 'id' | 'foreignKey';

export interface ColumnInfo {
  readonly name: string;
  readonly dataType: string;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
}

/** SQL that differs between databases. */
export interface SqlFragments {
  /** Case-sensitive substring test. */
  contains(column: RawBuilder<unknown>, value: string): RawBuilder<unknown>;
  /** Case-sensitive prefix test. */
  startsWith(column: RawBuilder<unknown>, value: string): RawBuilder<unknown>;
  /** The column type used in CREATE TABLE for a kind of value. */
  columnType(kind: ColumnKind): string;
  /** Whether an introspected column type is what `columnType(kind)` would create. */
  typeMatches(kind: ColumnKind, dataType: string): boolean;
}

/** Appends rows inside one bulk transaction (implementations may buffer). */
export interface BulkWriter {
  append(table: string, columns: readonly string[], values: readonly unknown[]): void;
}

export interface Database extends SqlExecutor {
  readonly dialect: 'sqlite' | 'postgres';
  /** Query builder and introspection for this database's dialect. Do not destroy it yourself. */
  readonly kysely: Kysely<unknown>;
  readonly fragments: SqlFragments;
  readonly closed: boolean;
  /** Runs `work` in a transaction; other statements wait until it ends. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Trusted bulk insert in one transaction with prepared statements; rolls back if `work` throws. */
  bulk(work: (writer: BulkWriter) => void): Promise<void>;
  /** Columns of a table, or undefined when it does not exist. */
  tableColumns(table: string): Promise<readonly ColumnInfo[] | undefined>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}
