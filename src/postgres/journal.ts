import type { Pool } from 'pg';
import { z } from 'zod';
import { migrateToLatest, migrationState, PlumbError } from '../core/index.js';
import type { MigrationState } from '../core/index.js';
import { describeTarget } from '../data/postgres-errors.js';
import { journalSchemaMismatch } from '../store/schema-mismatch.js';
import { postgresJournalMigrations } from '../store/postgres/schema.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import type { StoreOptions } from '../store/index.js';
import { journalConnections } from './journal-sql.js';
import type { JournalConnections } from './journal-sql.js';

export interface PostgresStoreConnectOptions extends StoreOptions {
  /** `postgres://user:password@host:port/database` (a pool Plumb creates and ends), or */
  readonly url?: string;
  /** the host's pg pool (Plumb never ends it; its connections keep the server's settings). */
  readonly pool?: Pool;
  /** The schema the journal's tables live in (default: the connection's current schema). It must exist. */
  readonly schema?: string;
  /** Prefix of every table. Default `plumb_`. */
  readonly tablePrefix?: string;
  /** Most connections of the pool Plumb creates. Default 10. */
  readonly max?: number;
  /** Longest wait to open a connection, or for a free one when all are busy. Milliseconds, default 5000. */
  readonly connectionTimeoutMs?: number;
  /** PostgreSQL's statement_timeout for the journal's statements. Milliseconds, default 30,000. */
  readonly queryTimeoutMs?: number;
  /** `normal` (default on Plumb's own pool): `synchronous_commit = off`; `full`: on (docs/store.md, "PostgreSQL"). */
  readonly durability?: 'normal' | 'full';
}

const optionsSchema = z.strictObject({
  url: z.string().refine((value) => /^postgres(ql)?:\/\//i.test(value), 'expected a postgres:// or postgresql:// URL').optional(),
  pool: z.custom<Pool>((value) => typeof value === 'object' && value !== null && typeof (value as { connect?: unknown }).connect === 'function', 'expected a pg Pool').optional(),
  schema: z.string().min(1).refine((name) => Buffer.byteLength(name) <= 63, 'at most 63 bytes').optional(),
  tablePrefix: z.string().optional(),
  max: z.int().min(1).max(1000).default(10),
  connectionTimeoutMs: z.int().min(1).max(600_000).default(5000),
  queryTimeoutMs: z.int().min(1).max(2_147_483_647).default(30_000),
  durability: z.enum(['normal', 'full']).optional(),
  ids: z.custom<() => string>((value) => typeof value === 'function').optional(),
  clock: z.custom<() => number>((value) => typeof value === 'function').optional(),
});

function connect(options: PostgresStoreConnectOptions): { connections: JournalConnections; parsed: z.output<typeof optionsSchema> } {
  const result = optionsSchema.safeParse(options);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(options)'}: ${issue.message}`);
    throw new PlumbError('store_invalid_record', `Invalid PostgreSQL store options: ${problems.join('; ')}.`, { details: { problems } });
  }
  const parsed = result.data;
  if ((parsed.url === undefined) === (parsed.pool === undefined)) throw new PlumbError('store_invalid_record', 'openPostgresStore needs exactly one of `url` and `pool`.');
  const durability = parsed.pool === undefined ? (parsed.durability ?? 'normal') : undefined;
  const connections = journalConnections({ url: parsed.url, pool: parsed.pool, max: parsed.max, connectionTimeoutMs: parsed.connectionTimeoutMs, queryTimeoutMs: parsed.queryTimeoutMs, schema: parsed.schema, durability });
  return { connections, parsed };
}

/** The journal's migrations, their applied list in the connection's current schema (where its tables go). */
async function target(prefix: string, connections: JournalConnections) {
  const { rows } = await connections.query('select current_schema() as schema');
  const schema = rows[0]?.schema;
  if (typeof schema !== 'string') throw new PlumbError('unknown_database', `In PostgreSQL at ${describeTarget(connections.connections.target)}, search_path names no existing schema for the journal. Create it (CREATE SCHEMA) or fix the schema option.`);
  return { kysely: connections.kysely, migrations: postgresJournalMigrations(prefix), table: `${prefix}journal_migrations`, schema };
}

/** The journal's applied and pending migrations, changing nothing. */
async function readMigrations(prefix: string, connections: JournalConnections): Promise<MigrationState> {
  return migrationState(await target(prefix, connections)).catch((error: unknown) => {
    throw journalSchemaMismatch(error);
  });
}

/**
 * Opens the journal on PostgreSQL: connects, brings its tables up to this build's schema with
 * kysely's Migrator (an advisory lock, each migration in its transaction: processes starting at
 * once migrate once), and returns the store. Coded errors for a server that cannot be reached
 * (`database_unreachable`), refused credentials (`database_auth_failed`), an unknown database or
 * schema (`unknown_database`).
 */
export async function openPostgresStore(options: PostgresStoreConnectOptions): Promise<PostgresStore> {
  const { connections, parsed } = connect(options);
  const prefix = parsed.tablePrefix ?? 'plumb_';
  try {
    const store = new PostgresStore(connections, { tablePrefix: prefix, migrationState: () => readMigrations(prefix, connections), ...(parsed.ids === undefined ? {} : { ids: parsed.ids }), ...(parsed.clock === undefined ? {} : { clock: parsed.clock }) });
    await migrateToLatest(await target(prefix, connections)).catch((error: unknown) => {
      throw journalSchemaMismatch(error);
    });
    return store;
  } catch (error) {
    await connections.close();
    throw error;
  }
}

export interface PostgresJournalReport extends MigrationState {
  /** `host:port/database`, never the password. */
  readonly target: string;
}

/** What `plumb check` reports of a PostgreSQL journal: it connects and reads the applied migrations, changing nothing. */
export async function inspectPostgresJournal(options: PostgresStoreConnectOptions): Promise<PostgresJournalReport> {
  const { connections, parsed } = connect(options);
  try {
    const state = await readMigrations(parsed.tablePrefix ?? 'plumb_', connections);
    return { target: describeTarget(connections.connections.target), ...state };
  } finally {
    await connections.close();
  }
}
