import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { migrateToLatest, migrationState, PlumbError, sqliteMigrationKysely } from '../../core/index.js';
import type { MigrationState, Migrations } from '../../core/index.js';
import { journalSchemaMismatch } from '../schema-mismatch.js';
import { leaseStatements, queueStatements, schemaStatements, schemaVersion, threadPageStatements, upgradeFromV1Statements } from './schema.js';

/**
 * The SQLite journal's migrations, applied with kysely's Migrator like the app's own (their
 * applied list is `<prefix>journal_migrations`). The first one creates the schema, or adopts a
 * journal written before migrations, whose version sits in `<prefix>meta`: version 2 is this
 * schema as it is, version 1 is upgraded in place. The second adds the engines' leases, the third
 * the thread queue, the fourth a thread's title source and fork origin.
 */
export function journalMigrations(prefix: string): Migrations {
  return {
    '0001_journal': {
      async up(db: Kysely<unknown>): Promise<void> {
        const legacy = await legacyVersion(db, `${prefix}meta`);
        let statements: readonly string[];
        if (legacy === undefined) statements = schemaStatements(prefix);
        else if (legacy === '1') statements = upgradeFromV1Statements(prefix);
        else if (legacy === String(schemaVersion)) statements = [];
        else throw newerJournal(legacy);
        for (const statement of statements) await sql.raw(statement).execute(db);
        if (legacy !== undefined) await sql.raw(`DROP TABLE ${prefix}meta`).execute(db);
      },
    },
    '0002_leases': {
      async up(db: Kysely<unknown>): Promise<void> {
        for (const statement of leaseStatements(prefix)) await sql.raw(statement).execute(db);
      },
    },
    '0003_queue': {
      async up(db: Kysely<unknown>): Promise<void> {
        for (const statement of queueStatements(prefix)) await sql.raw(statement).execute(db);
      },
    },
    '0004_thread_pages': {
      async up(db: Kysely<unknown>): Promise<void> {
        for (const statement of threadPageStatements(prefix)) await sql.raw(statement).execute(db);
      },
    },
  };
}

/** Brings the journal's tables up to this build's schema (in one IMMEDIATE transaction). */
export async function migrateJournal(db: Database.Database, prefix: string): Promise<void> {
  try {
    await migrateToLatest(migrationTarget(db, prefix));
  } catch (error) {
    if (error instanceof PlumbError && error.cause instanceof PlumbError && error.cause.code === 'store_schema_mismatch') throw error.cause;
    throw journalSchemaMismatch(error);
  }
}

/** The journal's applied and pending migrations, read without changing anything. */
export async function journalMigrationState(db: Database.Database, prefix: string): Promise<MigrationState> {
  return migrationState(migrationTarget(db, prefix)).catch((error: unknown) => {
    throw journalSchemaMismatch(error);
  });
}

function migrationTarget(db: Database.Database, prefix: string) {
  return { kysely: sqliteMigrationKysely(db), migrations: journalMigrations(prefix), table: `${prefix}journal_migrations` };
}

async function legacyVersion(db: Kysely<unknown>, meta: string): Promise<string | undefined> {
  const found = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = ${meta}`.execute(db);
  if (found.rows.length === 0) return undefined;
  const row = await sql<{ value: string }>`select value from ${sql.table(meta)} where key = 'schema_version'`.execute(db);
  return row.rows[0]?.value;
}

function newerJournal(version: string): PlumbError {
  const known = /^\d+$/.test(version) && Number(version) > schemaVersion ? 'newer than this build' : 'unknown to this build';
  return new PlumbError('store_schema_mismatch', `The database has Plumb schema version ${version} (${known}, which knows ${schemaVersion}). Upgrade Plumb, or point the store at another database.`);
}
