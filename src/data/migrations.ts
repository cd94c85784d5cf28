import type { Kysely } from 'kysely';
import { migrateToLatest, migrationState, PlumbError, sqliteMigrationKysely } from '../core/index.js';
import type { Migrations, MigrationState } from '../core/index.js';
import type { Database } from './database.js';
import type { SqliteDatabase } from './sqlite-database.js';

/** The table that lists the app's applied migrations (and `<table>_lock`, PostgreSQL's lock row). */
export const dataMigrationTable = 'plumb_migrations';

/** The app's migrations: the files of its migrations folder, or given in code. */
export type MigrationSource = Migrations | (() => Promise<Migrations>);

/** A kysely that runs migrations in a transaction that locks out other processes (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock). */
function migrationKysely(database: Database): Kysely<unknown> {
  return database.dialect === 'sqlite' ? sqliteMigrationKysely((database as SqliteDatabase).sqlite) : database.kysely;
}

export function dataMigrationState(database: Database, migrations: MigrationSource): Promise<MigrationState> {
  return migrationState({ kysely: migrationKysely(database), migrations, table: dataMigrationTable });
}

export function applyDataMigrations(database: Database, migrations: MigrationSource): Promise<readonly string[]> {
  return migrateToLatest({ kysely: migrationKysely(database), migrations, table: dataMigrationTable });
}

/** Refuses to start over migrations that are not applied yet, naming them and the command that applies them. */
export async function assertMigrated(database: Database, migrations: MigrationSource): Promise<MigrationState> {
  const state = await dataMigrationState(database, migrations);
  if (state.pending.length > 0) {
    throw new PlumbError('migrations_pending', `${state.pending.length} migration${state.pending.length === 1 ? ' is' : 's are'} not applied to the database yet (${state.pending.join(', ')}). Run plumb migrate up to apply ${state.pending.length === 1 ? 'it' : 'them in order'}, then start again.`, {
      details: { pending: state.pending },
    });
  }
  return state;
}
