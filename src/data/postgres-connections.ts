import type { Pool, PoolClient, QueryResult } from 'pg';
import type { PostgresCursor, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { PlumbError } from '../core/index.js';
import { connectFailure, describeTarget, isConnectFailure, statementFailure } from './postgres-errors.js';
import type { PostgresTarget } from './postgres-errors.js';
import { postgresTypeParsers } from './postgres-types.js';

export type PostgresRow = Record<string, unknown>;

export interface ConnectionSettings {
  readonly pool: Pool;
  /** Plumb created the pool: it ends it, and its connections start with the settings below. */
  readonly owned: boolean;
  readonly target: PostgresTarget;
  readonly connectionTimeoutMs: number;
  readonly queryTimeoutMs: number | undefined;
  readonly schema: string | undefined;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** One connection borrowed from the pool: statements run on it until `release`. */
export class Lease {
  readonly #client: PoolClient;
  readonly #settings: ConnectionSettings;
  readonly #reset: string | undefined;
  readonly #onReleased: () => void;
  #broken: Error | undefined;
  #released = false;
  // A borrowed client has no error listener of the pool's: without one, a connection dropped
  // between statements would be an uncaught 'error' event.
  readonly #onError = (error: Error): void => {
    this.#broken = error;
  };

  constructor(client: PoolClient, settings: ConnectionSettings, reset: string | undefined, onReleased: () => void) {
    this.#client = client;
    this.#settings = settings;
    this.#reset = reset;
    this.#onReleased = onReleased;
    client.on('error', this.#onError);
  }

  async query(text: string, values: readonly unknown[] = []): Promise<QueryResult<PostgresRow>> {
    try {
      return await this.#client.query<PostgresRow>({ text, values: [...values], types: postgresTypeParsers });
    } catch (error) {
      throw statementFailure(error, this.#settings.target, this.#settings);
    }
  }

  /** Drops the connection instead of returning it (its state is unknown). */
  discard(): void {
    this.#broken ??= new Error('connection discarded: its state is unknown');
  }

  /** Gives the connection back, first undoing the settings applied to a host's connection. Never rejects. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    try {
      if (this.#reset !== undefined && this.#broken === undefined) await this.#client.query(this.#reset);
    } catch (error) {
      this.#broken = error instanceof Error ? error : new Error(String(error));
    } finally {
      this.#client.off('error', this.#onError);
      this.#client.release(this.#broken);
      this.#onReleased();
    }
  }
}

/**
 * The pool as Plumb uses it: every connection it borrows comes through `lease`, which bounds the
 * wait and turns connection failures into coded errors. On a host's pool, `schema` and
 * `queryTimeoutMs` hold for the time of a lease only: SET when the connection is borrowed, RESET
 * before it goes back (SET LOCAL would need a transaction around every single statement), so the
 * host's own queries keep the host's settings.
 */
export class PostgresConnections {
  readonly #settings: ConnectionSettings;
  /** SET/RESET statements for a host's pool (a pool Plumb creates passes them at connection start instead). */
  readonly #enter: string | undefined;
  readonly #leave: string | undefined;
  #active = 0;
  #drained: (() => void) | undefined;
  #ended: Promise<void> | undefined;

  constructor(settings: ConnectionSettings) {
    this.#settings = settings;
    const assignments: [string, string][] = [];
    if (settings.schema !== undefined) assignments.push(['search_path', quoteIdentifier(settings.schema)]);
    if (settings.queryTimeoutMs !== undefined) assignments.push(['statement_timeout', String(settings.queryTimeoutMs)]);
    if (!settings.owned && assignments.length > 0) {
      this.#enter = assignments.map(([name, value]) => `set ${name} to ${value}`).join('; ');
      this.#leave = assignments.map(([name]) => `reset ${name}`).join('; ');
    }
  }

  get target(): PostgresTarget {
    return this.#settings.target;
  }

  /**
   * One statement on its own. On Plumb's own pool (whose connections start with their settings)
   * it is pg's `pool.query`, which borrows and returns the connection itself: no lease, timer or
   * listener per statement, which on loopback is a measurable share of a small query.
   */
  async statement(text: string, values: readonly unknown[]): Promise<QueryResult<PostgresRow>> {
    if (!this.#settings.owned) {
      const lease = await this.lease();
      try {
        return await lease.query(text, values);
      } finally {
        await lease.release();
      }
    }
    if (this.#ended !== undefined) throw new PlumbError('closed', `The PostgreSQL database ${describeTarget(this.#settings.target)} is closed.`);
    this.#active++;
    try {
      return await this.#settings.pool.query<PostgresRow>({ text, values: [...values], types: postgresTypeParsers });
    } catch (error) {
      throw isConnectFailure(error) ? connectFailure(error, this.#settings.target, this.#settings.connectionTimeoutMs) : statementFailure(error, this.#settings.target, this.#settings);
    } finally {
      this.#done();
    }
  }

  /**
   * One statement the server stops after `timeoutMs` (at most the connection's own
   * `queryTimeoutMs`): `SET LOCAL statement_timeout` in a transaction of its own, so the setting
   * ends with it whatever happens. The server cancels the statement itself, unlike pg's
   * `query_timeout`, which only stops waiting while the server runs on.
   */
  async timedStatement(text: string, values: readonly unknown[], timeoutMs: number): Promise<QueryResult<PostgresRow>> {
    const limit = Math.max(1, Math.floor(Math.min(timeoutMs, this.#settings.queryTimeoutMs ?? timeoutMs)));
    const lease = await this.lease();
    try {
      await lease.query(`begin; set local statement_timeout to ${limit}`);
      try {
        const result = await lease.query(text, values);
        await lease.query('commit');
        return result;
      } catch (error) {
        await lease.query('rollback').catch(() => lease.discard());
        throw timedOut(error, limit);
      }
    } finally {
      await lease.release();
    }
  }

  async lease(): Promise<Lease> {
    if (this.#ended !== undefined) throw new PlumbError('closed', `The PostgreSQL database ${describeTarget(this.#settings.target)} is closed.`);
    this.#active++;
    let client: PoolClient;
    try {
      client = await this.#connect();
    } catch (error) {
      this.#done();
      throw error;
    }
    const lease = new Lease(client, this.#settings, this.#leave, () => this.#done());
    if (this.#enter !== undefined) {
      try {
        await lease.query(this.#enter);
      } catch (error) {
        lease.discard();
        await lease.release();
        throw error;
      }
    }
    return lease;
  }

  /** pool.connect(), bounded: a host's pool may have no connection timeout of its own. */
  #connect(): Promise<PoolClient> {
    const { pool, owned, target, connectionTimeoutMs } = this.#settings;
    return new Promise<PoolClient>((resolve, reject) => {
      let late = false;
      // Plumb's own pool enforces the timeout itself (and says which wait ran out); this is the backstop.
      const timer = setTimeout(() => {
        late = true;
        const waiting = pool.totalCount >= (pool.options.max ?? 10);
        reject(connectFailure(new Error(waiting ? 'timeout exceeded when trying to connect' : 'connection timeout'), target, connectionTimeoutMs));
      }, owned ? connectionTimeoutMs + 1000 : connectionTimeoutMs);
      pool.connect().then(
        (client) => {
          clearTimeout(timer);
          if (late) client.release();
          else resolve(client);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (!late) reject(connectFailure(error, target, connectionTimeoutMs));
        },
      );
    });
  }

  #done(): void {
    this.#active--;
    if (this.#active === 0) this.#drained?.();
  }

  /** Refuses new leases, waits for the current ones, then ends the pool if Plumb created it. Idempotent. */
  end(): Promise<void> {
    this.#ended ??= (async () => {
      if (this.#active > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      if (this.#settings.owned) await this.#settings.pool.end();
    })();
    return this.#ended;
  }
}

/** A statement stopped by its own limit says which limit that was. */
function timedOut(error: unknown, limitMs: number): unknown {
  if (!(error instanceof PlumbError) || error.code !== 'timeout') return error;
  return new PlumbError('timeout', `PostgreSQL stopped the statement after ${limitMs} ms (its statement timeout).`, { details: error.details, cause: error.cause });
}

/** kysely's view of a lease, so that kysely (schema building, migrations) runs through the same connections and settings. */
export class KyselyClient implements PostgresPoolClient {
  readonly #lease: Lease;

  constructor(lease: Lease) {
    this.#lease = lease;
  }

  query<R>(sqlText: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters: readonly unknown[] = []): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') throw new TypeError('Plumb does not use kysely cursors for PostgreSQL.');
    return this.#lease.query(sqlOrCursor, parameters) as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    void this.#lease.release();
  }
}
