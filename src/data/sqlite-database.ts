import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import type { CompiledQuery } from 'kysely';
import { PlumbError, sqliteDriver } from '../core/index.js';
import type { BulkWriter, ColumnInfo, ColumnKind, Database, QueryResult, SqlExecutor, SqlFragments, StatementOptions } from './database.js';
import { escapeLike } from './like-pattern.js';
import { SqliteReader } from './sqlite-reader.js';
import { sqliteValues } from './value-storage.js';

export interface SqliteOptions {
  /** A file path (opened in WAL mode) or ':memory:'. */
  readonly path: string;
  /** Prepared statements kept for reuse (statements). Default 500. */
  readonly statementCacheSize?: number;
  readonly readonly?: boolean;
}

/** A SQLite database; `sqlite` is the better-sqlite3 handle, which other parts (the engine's store) may share. */
export interface SqliteDatabase extends Database {
  readonly dialect: 'sqlite';
  readonly sqlite: BetterSqlite3.Database;
  readonly path: string;
}

const sqliteTypes: Record<ColumnKind, string> = {
  id: 'integer', foreignKey: 'integer', key: 'text', string: 'text', text: 'text', integer: 'integer', decimal: 'integer',
  float: 'real', boolean: 'integer', date: 'text', datetime: 'text', enum: 'text', json: 'text',
};

/** SQLite's type affinity of a declared column type (https://sqlite.org/datatype3.html, 3.1). */
function affinity(declared: string): 'integer' | 'text' | 'blob' | 'real' | 'numeric' {
  const type = declared.toUpperCase();
  if (type.includes('INT')) return 'integer';
  if (type.includes('CHAR') || type.includes('CLOB') || type.includes('TEXT')) return 'text';
  if (type === '' || type.includes('BLOB')) return 'blob';
  if (type.includes('REAL') || type.includes('FLOA') || type.includes('DOUB')) return 'real';
  return 'numeric';
}

/**
 * Which declared column types hold a kind, by affinity, so that a host's own tables (`VARCHAR(80)`,
 * `BIGINT`, `DATETIME`, `BOOLEAN`) fit. Decimals are scaled integers: a `NUMERIC` or `REAL` column
 * holds floats, not exact decimals, so it fits a float field only.
 */
function sqliteTypeMatches(kind: ColumnKind, dataType: string): boolean {
  const found = affinity(dataType);
  const declared = dataType.toUpperCase();
  switch (kind) {
    case 'id':
    case 'foreignKey':
    case 'integer':
    case 'decimal':
      return found === 'integer';
    case 'boolean':
      return found === 'integer' || declared.startsWith('BOOL');
    case 'float':
      return found === 'real' || (found === 'numeric' && /^(NUMERIC|DECIMAL)/.test(declared));
    case 'date':
    case 'datetime':
      return found === 'text' || /^(DATE|TIME)/.test(declared);
    case 'key':
    case 'string':
    case 'text':
    case 'enum':
    case 'json':
      return found === 'text' || (kind === 'json' && declared === 'JSON');
    default:
      return kind satisfies never;
  }
}

const fragments: SqlFragments = {
  contains: (column, value) => sql`instr(${column}, ${value}) > 0`,
  startsWith: (column, value) => sql`substr(${column}, 1, ${[...value].length}) = ${value}`,
  icontains: (column, value) => sql`lower(${column}) like lower(${`%${escapeLike(value)}%`}) escape '\\'`,
  iexact: (column, value) => sql`lower(${column}) = lower(${value})`,
  // Decimals are scaled integers here, so the scale does not change the column type.
  columnType: (kind) => sqliteTypes[kind],
  typeMatches: sqliteTypeMatches,
};

/** Page cache during bulk loads (KiB). */
const bulkCacheKib = 512 * 1024;

function bindable(value: unknown): unknown {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

class SqliteDatabaseImpl implements SqliteDatabase {
  readonly dialect = 'sqlite' as const;
  readonly kysely: Kysely<unknown>;
  readonly fragments = fragments;
  readonly values = sqliteValues;
  readonly sqlite: BetterSqlite3.Database;
  readonly path: string;
  readonly #cacheSize: number;
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  #transaction: Promise<void> | undefined;
  #reader: SqliteReader | undefined;
  #closed = false;

  constructor(options: SqliteOptions) {
    this.path = options.path;
    this.#cacheSize = options.statementCacheSize ?? 500;
    this.sqlite = new (sqliteDriver())(options.path, { readonly: options.readonly === true });
    if (options.path !== ':memory:' && options.path !== '' && options.readonly !== true) this.sqlite.pragma('journal_mode = WAL');
    this.sqlite.pragma('foreign_keys = ON');
    this.sqlite.pragma('busy_timeout = 5000');
    this.kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: this.sqlite }) });
  }

  get closed(): boolean {
    return this.#closed;
  }

  #check(): void {
    if (this.#closed) throw new PlumbError('closed', `The SQLite database '${this.path}' is closed.`);
  }

  #prepare(text: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(text);
    if (statement !== undefined) {
      // Refresh its place: the Map's insertion order is the eviction order.
      this.#statements.delete(text);
      this.#statements.set(text, statement);
      return statement;
    }
    statement = this.sqlite.prepare(text);
    if (this.#cacheSize > 0) {
      if (this.#statements.size >= this.#cacheSize) {
        const oldest = this.#statements.keys().next();
        if (oldest.done !== true) this.#statements.delete(oldest.value);
      }
      this.#statements.set(text, statement);
    }
    return statement;
  }

  #run(query: CompiledQuery): QueryResult {
    this.#check();
    const statement = this.#prepare(query.sql);
    const parameters = query.parameters.map(bindable);
    if (statement.reader) return { rows: statement.all(...parameters) as Record<string, unknown>[], changes: 0 };
    return { rows: [], changes: statement.run(...parameters).changes };
  }

  /**
   * A read with `timeoutMs` on a file runs in the reader process (sqlite-reader.ts), which is killed
   * at the limit; a `:memory:` database is this connection's alone, so there it runs here, unbounded.
   */
  async execute(query: CompiledQuery, options: StatementOptions = {}): Promise<QueryResult> {
    while (this.#transaction !== undefined) await this.#transaction;
    if (options.timeoutMs === undefined || this.path === ':memory:' || this.path === '') return this.#run(query);
    this.#check();
    if (!this.#prepare(query.sql).reader) return this.#run(query);
    this.#reader ??= new SqliteReader(this.path);
    return this.#reader.read(query.sql, query.parameters.map(bindable), options.timeoutMs);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    while (this.#transaction !== undefined) await this.#transaction;
    this.#check();
    let release!: () => void;
    this.#transaction = new Promise<void>((resolve) => (release = resolve));
    const tx: SqlExecutor = { execute: (query) => Promise.resolve(this.#run(query)) };
    try {
      this.sqlite.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(tx);
        this.sqlite.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.#transaction = undefined;
      release();
    }
  }

  async bulk(work: (writer: BulkWriter) => void): Promise<void> {
    while (this.#transaction !== undefined) await this.#transaction;
    this.#check();
    const inserts = new Map<string, BetterSqlite3.Statement>();
    const writer: BulkWriter = {
      append: (table, columns, values) => {
        const key = `${table}\u0000${columns.join('\u0000')}`;
        let statement = inserts.get(key);
        if (statement === undefined) {
          const quoted = columns.map((column) => `"${column}"`).join(', ');
          statement = this.sqlite.prepare(`insert into "${table}" (${quoted}) values (${columns.map(() => '?').join(', ')})`);
          inserts.set(key, statement);
        }
        statement.run(...values);
      },
    };
    // A large page cache keeps index B-trees in memory while millions of rows go in (else every
    // insert into a big index pages through the disk); restored afterwards.
    const cacheSize = this.sqlite.pragma('cache_size', { simple: true }) as number;
    this.sqlite.pragma(`cache_size = ${-bulkCacheKib}`);
    try {
      this.sqlite.transaction(() => work(writer)).immediate();
    } finally {
      this.sqlite.pragma(`cache_size = ${cacheSize}`);
    }
  }

  async tableNames(): Promise<readonly string[]> {
    this.#check();
    return (await this.kysely.introspection.getTables()).map((table) => table.name);
  }

  async tableColumns(table: string): Promise<readonly ColumnInfo[] | undefined> {
    this.#check();
    const tables = await this.kysely.introspection.getTables();
    const found = tables.find((candidate) => candidate.name === table);
    return found?.columns.map((column) => ({
      name: column.name,
      dataType: column.dataType,
      nullable: column.isNullable,
      hasDefault: column.hasDefaultValue,
    }));
  }

  syncIdentity(): Promise<void> {
    // An INTEGER PRIMARY KEY takes max(rowid) + 1: nothing to move.
    return new Promise((resolve) => {
      this.#check();
      resolve();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    while (this.#transaction !== undefined) await this.#transaction;
    this.#closed = true;
    this.#reader?.close();
    this.#statements.clear();
    await this.kysely.destroy();
    if (this.sqlite.open) this.sqlite.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Opens a SQLite database: `sqlite({ path: 'app.db' })` (WAL mode) or `sqlite({ path: ':memory:' })`. */
export function sqlite(options: SqliteOptions): SqliteDatabase {
  return new SqliteDatabaseImpl(options);
}
