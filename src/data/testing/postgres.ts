import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Pool, QueryResult } from 'pg';
import { afterAll, afterEach, describe, it } from 'vitest';
import { postgres } from '../postgres-database.js';
import type { PostgresDatabase, PostgresOptions } from '../postgres-database.js';

/** The server the PostgreSQL tests run against: `postgres://user:password@host:port/database`. */
export const postgresUrlVariable = 'PLUMB_TEST_POSTGRES_URL';

export interface TestPostgres {
  readonly url: string;
  /** Runs SQL on the test server as the URL's user, outside any test's schema. */
  admin(text: string, values?: readonly unknown[]): Promise<QueryResult>;
  /** A new, empty schema, dropped (with everything in it) after the current test. */
  freshSchema(): Promise<string>;
  /** `postgres({ url, schema })` on a fresh schema; closed after the current test. */
  open(options?: Omit<Partial<PostgresOptions>, 'url' | 'pool'>): Promise<PostgresDatabase>;
  /** A host-side pool on the test server (ended after the current test), for `postgres({ pool })`. */
  hostPool(config?: pg.PoolConfig): Pool;
}

function ready(url: string): TestPostgres & { cleanUp(): Promise<void>; end(): Promise<void> } {
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  admin.on('error', () => undefined);
  const schemas: string[] = [];
  const databases: PostgresDatabase[] = [];
  const pools: Pool[] = [];
  const freshSchema = async (): Promise<string> => {
    // Unique across the parallel test files: each runs in its own process.
    const name = `plumb_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin.query(`create schema "${name}"`);
    schemas.push(name);
    return name;
  };
  return {
    url,
    admin: (text, values = []) => admin.query(text, [...values]),
    freshSchema,
    open: async (options = {}) => {
      const database = postgres({ url, schema: await freshSchema(), ...options });
      databases.push(database);
      return database;
    },
    hostPool: (config = {}) => {
      const pool = new pg.Pool({ connectionString: url, ...config });
      pool.on('error', () => undefined);
      pools.push(pool);
      return pool;
    },
    cleanUp: async () => {
      for (const database of databases.splice(0)) await database.close();
      for (const pool of pools.splice(0)) await pool.end();
      for (const name of schemas.splice(0)) await admin.query(`drop schema if exists "${name}" cascade`);
    },
    end: () => admin.end(),
  };
}

/**
 * `describe` for tests that need a real PostgreSQL server, named by PLUMB_TEST_POSTGRES_URL.
 * Without it the tests fail when CI is set (CI must run them) and are skipped, with a notice,
 * on a developer's machine. Each test's schemas, databases and pools are removed after it.
 */
export function describeWithPostgres(title: string, body: (server: TestPostgres) => void): void {
  const url = process.env[postgresUrlVariable];
  if (url === undefined || url === '') {
    const reason = `${postgresUrlVariable} is not set: point it at a PostgreSQL server (postgres://user:password@127.0.0.1:5432/postgres); .ci/run starts one.`;
    if (process.env.CI !== undefined && process.env.CI !== '') {
      describe(title, () => {
        it('has a PostgreSQL server to run against', () => {
          throw new Error(`${reason} CI must run the PostgreSQL tests.`);
        });
      });
      return;
    }
    // eslint-disable-next-line no-console -- test support: say why a suite did not run
    console.warn(`[plumb] skipping "${title}": ${reason}`);
    describe.skip(title, () => {
      it('needs a PostgreSQL server', () => undefined);
    });
    return;
  }
  describe(title, () => {
    const server = ready(url);
    afterEach(() => server.cleanUp());
    afterAll(() => server.end());
    body(server);
  });
}
