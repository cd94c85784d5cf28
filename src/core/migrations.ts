import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, Migrator, SqliteAdapter, SqliteDialect, SqliteDriver } from 'kysely';
import type { DatabaseConnection, DialectAdapter, Driver, Migration, MigrationProvider } from 'kysely';
import { PlumbError } from './plumb-error.js';

/** Named migrations, applied in the order of their names. */
export type Migrations = Readonly<Record<string, Migration>>;

/** Where a database stands against a set of migrations. */
export interface MigrationState {
  /** Applied, in order. */
  readonly applied: readonly string[];
  /** Known and not applied yet, in the order `up` would run them. */
  readonly pending: readonly string[];
}

/**
 * SQLite through kysely, for migrations: kysely's own SQLite dialect runs each migration without
 * a transaction (its adapter says DDL is not transactional, which SQLite's is). This one runs
 * them in one `BEGIN IMMEDIATE` transaction, which takes the write lock before the applied list is
 * read: two processes opening one file at once migrate it once, and a failed step leaves nothing
 * half done.
 */
export function sqliteMigrationKysely(database: BetterSqlite3.Database): Kysely<unknown> {
  return new Kysely<unknown>({ dialect: new ImmediateSqliteDialect({ database }) });
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #database: BetterSqlite3.Database;
  constructor(config: { database: BetterSqlite3.Database }) {
    super(config);
    this.#database = config.database;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.#database });
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter();
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /** The handle is the caller's: destroying this kysely never closes it. */
  override async destroy(): Promise<void> {}
}

class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Where the applied list of one set of migrations lives (`<table>` and `<table>_lock`). */
export interface MigrationTarget {
  readonly kysely: Kysely<unknown>;
  readonly migrations: Migrations | (() => Promise<Migrations>);
  readonly table: string;
  /**
   * The schema the applied list lives in (PostgreSQL). Without it kysely looks for the table in
   * every schema, and one in another schema (another app's journal) would pass for this one's.
   */
  readonly schema?: string;
}

function migrator(target: MigrationTarget): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => (typeof target.migrations === 'function' ? target.migrations() : target.migrations) };
  return new Migrator({
    db: target.kysely,
    provider,
    migrationTableName: target.table,
    migrationLockTableName: `${target.table}_lock`,
    ...(target.schema === undefined ? {} : { migrationTableSchema: target.schema }),
  });
}

/** Which migrations are applied and which are pending; `migration_unknown` when the database applied one this code does not have. */
export async function migrationState(target: MigrationTarget): Promise<MigrationState> {
  const found = await migrator(target).getMigrations();
  const known = new Set(found.map((migration) => migration.name));
  const applied = await appliedNames(target);
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0) throw unknownMigrations(target.table, unknown);
  return { applied, pending: found.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name) };
}

/** Applies every pending migration in order, each in its transaction where the database allows; returns the names applied. */
export async function migrateToLatest(target: MigrationTarget): Promise<readonly string[]> {
  const { error, results } = await migrator(target).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    if (/corrupted migrations: previously executed migration .* is missing/.test(message)) throw unknownMigrations(target.table, [message.replace(/.*migration (\S+) is missing.*/, '$1')]);
    throw new PlumbError('migration_failed', `${failed === undefined ? 'Migrating' : `Migration '${failed}'`} failed: ${message}. Nothing of ${failed === undefined ? 'it' : 'that migration'} was kept where the database runs migrations in a transaction; fix it and run the migrations again.`, {
      cause: error,
      details: { migration: failed ?? null },
    });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

async function appliedNames(target: MigrationTarget): Promise<string[]> {
  const tables = await target.kysely.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === target.table && (target.schema === undefined || table.schema === target.schema))) return [];
  const from = target.schema === undefined ? target.table : `${target.schema}.${target.table}`;
  const rows = await target.kysely.selectFrom(from as never).select('name' as never).orderBy('name' as never).execute();
  return rows.map((row) => String((row as { name: unknown }).name));
}

function unknownMigrations(table: string, names: readonly string[]): PlumbError {
  return new PlumbError('migration_unknown', `The database has applied migrations this code does not have (${names.join(', ')}, in ${table}): it was migrated by a newer version or another branch. Upgrade, or restore the missing migration files.`, {
    details: { table, migrations: names },
  });
}
