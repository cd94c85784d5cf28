import pg from 'pg';
import type { Pool, QueryResult as PgQueryResult } from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { CompiledQuery, PostgresPool } from 'kysely';
import { PlumbError } from '../core/index.js';
import type { BulkWriter, ColumnInfo, Database, QueryResult, SqlExecutor, StatementOptions } from './database.js';
import { BulkBuffer } from './postgres-bulk.js';
import { KyselyClient, PostgresConnections, quoteIdentifier } from './postgres-connections.js';
import type { PostgresRow } from './postgres-connections.js';
import { describeTarget, targetOf } from './postgres-errors.js';
import { postgresFragments } from './postgres-fragments.js';
import { defaultMaxConnections, parsePostgresOptions } from './postgres-options.js';
import type { PostgresOptions, ResolvedPostgresOptions } from './postgres-options.js';
import { postgresTypeParsers } from './postgres-types.js';
import { postgresValues } from './value-storage.js';

export type { PostgresOptions } from './postgres-options.js';

/** A PostgreSQL database; `pool` is the pg pool its statements run on, which other parts may share. */
export interface PostgresDatabase extends Database {
  readonly dialect: 'postgres';
  readonly pool: Pool;
  /** The schema given in the options (undefined: the server's current schema). */
  readonly schema: string | undefined;
}

const changingCommands = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

function toResult(result: PgQueryResult<PostgresRow>): QueryResult {
  return { rows: result.rows, changes: changingCommands.has(result.command) ? (result.rowCount ?? 0) : 0 };
}

/** Escapes a startup `options` value: spaces and backslashes are taken as separators and escapes there. */
function startupValue(value: string): string {
  return value.replace(/[\\ ]/g, (char) => `\\${char}`);
}

function ownPool(url: string, options: ResolvedPostgresOptions): Pool {
  // Settings of Plumb's own connections go in the startup packet: no statement per connection.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? defaultMaxConnections,
    connectionTimeoutMillis: options.connectionTimeoutMs,
    ...(options.queryTimeoutMs === undefined ? {} : { statement_timeout: options.queryTimeoutMs }),
    ...(options.schema === undefined ? {} : { options: `-c search_path=${startupValue(quoteIdentifier(options.schema))}` }),
    application_name: 'plumb',
    types: postgresTypeParsers,
  });
  // A connection that dies while idle is dropped by the pool and replaced on demand; without a
  // listener its 'error' event would end the process.
  pool.on('error', () => undefined);
  return pool;
}

class PostgresDatabaseImpl implements PostgresDatabase {
  readonly dialect = 'postgres' as const;
  readonly kysely: Kysely<unknown>;
  readonly fragments = postgresFragments;
  readonly values = postgresValues;
  readonly pool: Pool;
  readonly schema: string | undefined;
  readonly #connections: PostgresConnections;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: ResolvedPostgresOptions) {
    const owned = options.pool === undefined;
    this.pool = options.pool ?? ownPool(options.url ?? '', options);
    this.schema = options.schema;
    this.#connections = new PostgresConnections({
      pool: this.pool,
      owned,
      target: targetOf(this.pool.options),
      connectionTimeoutMs: options.connectionTimeoutMs,
      queryTimeoutMs: options.queryTimeoutMs,
      schema: options.schema,
    });
    const kyselyPool: PostgresPool = {
      connect: async () => new KyselyClient(await this.#connections.lease()),
      // The pool is ended by close() (and only when Plumb created it), not by kysely.
      end: () => Promise.resolve(),
    };
    this.kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: kyselyPool }) });
  }

  get closed(): boolean {
    return this.#closed;
  }

  #check(): void {
    if (this.#closed) throw new PlumbError('closed', `The PostgreSQL database ${describeTarget(this.#connections.target)} is closed.`);
  }

  async execute(query: CompiledQuery, options: StatementOptions = {}): Promise<QueryResult> {
    this.#check();
    if (options.timeoutMs !== undefined) return toResult(await this.#connections.timedStatement(query.sql, query.parameters, options.timeoutMs));
    return toResult(await this.#connections.statement(query.sql, query.parameters));
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    this.#check();
    const lease = await this.#connections.lease();
    try {
      await lease.query('begin');
      let result: T;
      try {
        result = await work({ execute: async (query) => toResult(await lease.query(query.sql, query.parameters)) });
      } catch (error) {
        await lease.query('rollback').catch(() => lease.discard());
        throw error;
      }
      // COMMIT answers ROLLBACK when a statement failed inside and `work` carried on regardless.
      const committed = await lease.query('commit');
      if (committed.command === 'ROLLBACK') {
        throw new PlumbError('transaction_aborted', 'A statement inside the transaction failed, so PostgreSQL rolled all of it back; nothing was written.');
      }
      return result;
    } finally {
      await lease.release();
    }
  }

  async bulk(work: (writer: BulkWriter) => void): Promise<void> {
    this.#check();
    const buffer = new BulkBuffer();
    work(buffer); // synchronous: if it throws, nothing has been sent
    await this.transaction(async (tx) => {
      for (const statement of buffer.statements()) await tx.execute(statement);
    });
  }

  async tableNames(): Promise<readonly string[]> {
    this.#check();
    const result = await this.execute(
      sql`select c.relname as name from pg_catalog.pg_class as c join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'f') order by c.relname`.compile(this.kysely),
    );
    return result.rows.map((row) => String(row.name));
  }

  async tableColumns(table: string): Promise<readonly ColumnInfo[] | undefined> {
    this.#check();
    // One statement: the current schema (null when none of search_path exists), the table, its columns.
    const result = await this.execute(
      sql`select s.name as schema_name, c.oid is not null as found, a.attname as name, format_type(a.atttypid, a.atttypmod) as data_type,
            a.attnotnull as not_null, (a.atthasdef or a.attidentity <> '') as has_default,
            (select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_catalog.pg_enum as e where e.enumtypid = a.atttypid) as enum_values
          from (select current_schema() as name) as s
          left join pg_catalog.pg_namespace as n on n.nspname = s.name
          left join pg_catalog.pg_class as c on c.relnamespace = n.oid and c.relname = ${table} and c.relkind in ('r', 'p', 'v', 'm', 'f')
          left join pg_catalog.pg_attribute as a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
          order by a.attnum`.compile(this.kysely),
    );
    const first = result.rows[0];
    if (first?.schema_name === null || first?.schema_name === undefined) {
      const schema = this.schema === undefined ? 'search_path names no existing schema' : `the schema '${this.schema}' does not exist`;
      throw new PlumbError('unknown_database', `In PostgreSQL at ${describeTarget(this.#connections.target)}, ${schema}. Create it (CREATE SCHEMA) or fix the schema option.`);
    }
    if (first.found !== true) return undefined;
    return result.rows
      .filter((row) => row.name !== null)
      .map((row) => ({
        name: String(row.name),
        dataType: String(row.data_type),
        nullable: row.not_null !== true,
        hasDefault: row.has_default === true,
        ...(Array.isArray(row.enum_values) ? { enumValues: row.enum_values.map(String) } : {}),
      }));
  }

  async syncIdentity(table: string, column: string): Promise<void> {
    this.#check();
    // pg_get_serial_sequence reads its first argument as SQL (so it is quoted), its second literally;
    // it answers null for a column without a sequence, and setval(null, …) does nothing.
    await this.execute(
      sql`select setval(pg_get_serial_sequence(${quoteIdentifier(table)}, ${column}), coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false) as next`.compile(this.kysely),
    );
  }

  /** Refuses new work, waits for statements and transactions under way, then ends the pool if Plumb created it. */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= (async () => {
      await this.kysely.destroy();
      await this.#connections.end();
    })();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Opens a PostgreSQL database: `postgres({ url: 'postgres://user:password@host/db' })` on a pool
 * Plumb creates and closes, or `postgres({ pool })` on the host's pg pool, which Plumb never ends.
 * Connecting is lazy: the first statement opens the first connection.
 */
export function postgres(options: PostgresOptions): PostgresDatabase {
  return new PostgresDatabaseImpl(parsePostgresOptions(options));
}
