import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Pool } from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { PostgresPool } from 'kysely';
import { PlumbError } from '../core/index.js';
import { KyselyClient, PostgresConnections, quoteIdentifier } from '../data/postgres-connections.js';
import { connectFailure, isConnectFailure, statementFailure, targetOf } from '../data/postgres-errors.js';
import { postgresTypeParsers } from '../data/postgres-types.js';
import type { JournalSql, SqlQuery, SqlResult } from '../store/postgres/sql.js';

export interface JournalPoolSettings {
  readonly url: string | undefined;
  readonly pool: Pool | undefined;
  readonly max: number;
  readonly connectionTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly schema: string | undefined;
  /** `normal`: commits do not wait for the WAL flush (`synchronous_commit = off`); `full`: they do. Only on Plumb's own pool. */
  readonly durability: 'normal' | 'full' | undefined;
}

/** The journal's connections: pg's pool through data's `PostgresConnections` (bounded waits, coded errors), and a kysely over them for migrations. */
export interface JournalConnections extends JournalSql {
  readonly kysely: Kysely<unknown>;
  readonly connections: PostgresConnections;
}

function startupValue(value: string): string {
  return value.replace(/[\\ ]/g, (char) => `\\${char}`);
}

function ownPool(url: string, settings: JournalPoolSettings): Pool {
  const options: string[] = [];
  if (settings.schema !== undefined) options.push(`-c search_path=${startupValue(quoteIdentifier(settings.schema))}`);
  if (settings.durability !== undefined) options.push(`-c synchronous_commit=${settings.durability === 'full' ? 'on' : 'off'}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.max,
    connectionTimeoutMillis: settings.connectionTimeoutMs,
    statement_timeout: settings.queryTimeoutMs,
    ...(options.length === 0 ? {} : { options: options.join(' ') }),
    application_name: 'plumb-journal',
    types: postgresTypeParsers,
  });
  // An idle connection that dies is replaced on demand; without a listener its 'error' would end the process.
  pool.on('error', () => undefined);
  return pool;
}

const asResult = (result: { rows: Record<string, unknown>[]; rowCount: number | null }): SqlResult => ({ rows: result.rows, rowCount: result.rowCount ?? 0 });

export function journalConnections(settings: JournalPoolSettings): JournalConnections {
  const owned = settings.pool === undefined;
  const pool = settings.pool ?? ownPool(settings.url ?? '', settings);
  const connections = new PostgresConnections({
    pool,
    owned,
    target: targetOf(pool.options),
    connectionTimeoutMs: settings.connectionTimeoutMs,
    queryTimeoutMs: settings.queryTimeoutMs,
    schema: settings.schema,
  });
  const kyselyPool: PostgresPool = { connect: async () => new KyselyClient(await connections.lease()), end: () => Promise.resolve() };
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: kyselyPool }) });
  let closing: Promise<void> | undefined;
  // On Plumb's own pool every statement is a named one: parsed once per connection and then run
  // from PostgreSQL's plan cache (the journal's CTEs cost more to plan than to run).
  const names = new Map<string, string>();
  const nameOf = (text: string): string => {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `plumb_journal_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
    return name;
  };
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const named = async (text: string, values: readonly unknown[] = []): Promise<SqlResult> => {
    if (closing !== undefined) return asResult(await connections.statement(text, values));
    inFlight++;
    try {
      return asResult(await pool.query<Record<string, unknown>>({ name: nameOf(text), text, values: [...values], types: postgresTypeParsers }));
    } catch (error) {
      throw isConnectFailure(error) ? connectFailure(error, connections.target, settings.connectionTimeoutMs) : statementFailure(error, connections.target, settings);
    } finally {
      if (--inFlight === 0) drained?.();
    }
  };
  /** A transaction on a connection of Plumb's own pool (which bounds the wait for one), its statements named too. */
  const ownTransaction = async <T>(work: (query: SqlQuery) => Promise<T>): Promise<T> => {
    inFlight++;
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      if (--inFlight === 0) drained?.();
      throw connectFailure(error, connections.target, settings.connectionTimeoutMs);
    }
    let broken: Error | undefined;
    // A borrowed client has no error listener of the pool's: a connection dropped meanwhile would be an uncaught 'error'.
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    const query: SqlQuery = async (text, values = []) => {
      try {
        return asResult(await client.query<Record<string, unknown>>({ name: nameOf(text), text, values: [...values], types: postgresTypeParsers }));
      } catch (error) {
        throw statementFailure(error, connections.target, settings);
      }
    };
    try {
      await query('begin');
      let result: T;
      try {
        result = await work(query);
      } catch (error) {
        await query('rollback').catch((failure: unknown) => {
          broken = failure instanceof Error ? failure : new Error(String(failure));
        });
        throw error;
      }
      let committed: pg.QueryResult;
      try {
        committed = await client.query('commit');
      } catch (error) {
        throw statementFailure(error, connections.target, settings);
      }
      if (committed.command === 'ROLLBACK') throw new PlumbError('transaction_aborted', 'A statement inside the journal transaction failed, so PostgreSQL rolled all of it back; nothing was written.');
      return result;
    } finally {
      client.off('error', onError);
      client.release(broken);
      if (--inFlight === 0) drained?.();
    }
  };
  return {
    kysely,
    connections,
    query: owned ? named : async (text, values = []) => asResult(await connections.statement(text, values)),
    async transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T> {
      if (owned && closing === undefined) return ownTransaction(work);
      const lease = await connections.lease();
      try {
        await lease.query('begin');
        let result: T;
        try {
          result = await work(async (text, values = []) => asResult(await lease.query(text, values)));
        } catch (error) {
          await lease.query('rollback').catch(() => lease.discard());
          throw error;
        }
        const committed = await lease.query('commit');
        if (committed.command === 'ROLLBACK') throw new PlumbError('transaction_aborted', 'A statement inside the journal transaction failed, so PostgreSQL rolled all of it back; nothing was written.');
        return result;
      } finally {
        await lease.release();
      }
    },
    close: () =>
      (closing ??= (async () => {
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        await kysely.destroy();
        await connections.end();
      })()),
  };
}
