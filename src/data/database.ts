import type { CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { FieldType } from './definition-types.js';
import type { ValueStorage } from './value-storage.js';

/**
 * The SQL seam. Managers and GraphQL build queries with kysely's `sql` templates and run them here;
 * each database (SQLite, PostgreSQL) supplies a kysely instance for its dialect (quoting,
 * placeholders, introspection), a few dialect-specific fragments, how it stores values, and its
 * own execution.
 */
export interface QueryResult {
  readonly rows: readonly Record<string, unknown>[];
  /** Rows changed by an INSERT/UPDATE/DELETE. */
  readonly changes: number;
}

export interface SqlExecutor {
  execute(query: CompiledQuery): Promise<QueryResult>;
}

export interface StatementOptions {
  /**
   * The database stops the statement after this long and it fails with `timeout`: PostgreSQL's
   * `statement_timeout` for this statement alone; on SQLite see `sqlite()`. Milliseconds.
   */
  readonly timeoutMs?: number;
}

/** Storage kinds a manager needs a column for: `id` and `foreignKey` hold integer ids, `key` a string key (a primary key or a foreign key to one). */
export type ColumnKind = FieldType | 'id' | 'foreignKey' | 'key';

export interface ColumnInfo {
  readonly name: string;
  readonly dataType: string;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
  /** The labels of a column of an enumerated type (PostgreSQL `CREATE TYPE … AS ENUM`), in their order. */
  readonly enumValues?: readonly string[];
}

/** SQL that differs between databases. In every test, `%`, `_` and `\` in the value are literal. */
export interface SqlFragments {
  /** Case-sensitive substring test. */
  contains(column: RawBuilder<unknown>, value: string): RawBuilder<unknown>;
  /** Case-sensitive prefix test. */
  startsWith(column: RawBuilder<unknown>, value: string): RawBuilder<unknown>;
  /** Case-insensitive substring test. */
  icontains(column: RawBuilder<unknown>, value: string): RawBuilder<unknown>;
  /** Case-insensitive equality. */
  iexact(column: RawBuilder<unknown>, value: string): RawBuilder<unknown>;
  /** The column type used in CREATE TABLE for a kind of value; `scale` is a decimal's digits after the point. */
  columnType(kind: ColumnKind, scale?: number): string;
  /** Whether an introspected column type holds what `columnType(kind, scale)` would create. */
  typeMatches(kind: ColumnKind, dataType: string, scale?: number): boolean;
}

/**
 * Appends rows inside one bulk transaction. Implementations may buffer: PostgreSQL writes each
 * table's rows together, tables in the order they first appear, rows of a table in append order.
 */
export interface BulkWriter {
  append(table: string, columns: readonly string[], values: readonly unknown[]): void;
}

export interface Database extends SqlExecutor {
  /** One statement outside any transaction (it waits for one under way on SQLite). */
  execute(query: CompiledQuery, options?: StatementOptions): Promise<QueryResult>;
  readonly dialect: 'sqlite' | 'postgres';
  /** Query builder and introspection for this database's dialect. Do not destroy it yourself. */
  readonly kysely: Kysely<unknown>;
  readonly fragments: SqlFragments;
  /** How row-JSON values are bound and read back. */
  readonly values: ValueStorage;
  readonly closed: boolean;
  /**
   * Runs `work` in a transaction. Statements outside it never see its uncommitted rows and are
   * never part of it: on SQLite they wait until it ends; on PostgreSQL they run on other connections.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Trusted bulk insert in one transaction; rolls all of it back if `work` throws or a row is refused. */
  bulk(work: (writer: BulkWriter) => void): Promise<void>;
  /** Columns of a table in the database's schema, or undefined when it does not exist. */
  tableColumns(table: string): Promise<readonly ColumnInfo[] | undefined>;
  /** The names of the tables (and views) in the database's schema. */
  tableNames(): Promise<readonly string[]>;
  /**
   * Moves the id generator of `table` past the largest `column` value, after rows were written
   * with explicit ids (bulk loads), so that the next insert without an id does not collide.
   */
  syncIdentity(table: string, column: string): Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}
