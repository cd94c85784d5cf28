import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { sql } from 'kysely';
import { PlumbError } from '../core/index.js';
import { defineApp, sqlite } from '../data/index.js';
import type { App, Database } from '../data/index.js';
import type { RulebookInput, VocabularyFile } from '../router/index.js';
import type { Tool } from '../tools/index.js';
import { parseDatabaseUrl, redactUrl } from './database-url.js';
import type { DatabaseLocation } from './database-url.js';
import type { HostDefinition, SeedBatch, TableMode } from './host.js';
import { loadMigrationFiles } from './migration-files.js';
import type { ModuleLoader } from './modules.js';

/** An app opened from its host definition: the data, the host's tools and router files. */
export interface OpenedApp extends AsyncDisposable {
  readonly app: App;
  readonly host: HostDefinition;
  readonly tables: TableMode;
  readonly tools: readonly Tool[];
  readonly vocabulary: string | VocabularyFile | undefined;
  readonly rulebook: string | RulebookInput | undefined;
  readonly examples: readonly string[];
  /** Rows the seed loaded on this open (0 when the database already held data). */
  readonly seeded: number;
  /** Closes the app and its database. */
  close(): Promise<void>;
}

export interface OpenAppOptions {
  readonly host: HostDefinition;
  /** The `database` setting, or an opened database. */
  readonly database: string | Database;
  /** Where relative database paths resolve from. */
  readonly root?: string;
  /** Replaces the host's seed (the demo's `--scale`). */
  readonly seed?: HostDefinition['seed'];
  /** The migrations folder (the `migrations` setting) and the loader its files go through. */
  readonly migrations?: { readonly folder: string; readonly load: ModuleLoader };
  readonly onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

/**
 * Opens the database a setting names, defines the app over it, makes sure its tables are there
 * (created in a new database of an `own` app; checked, never changed, in `attach` mode), and loads
 * the host's seed into an `own` app whose tables are all empty.
 */
export async function openHostApp(options: OpenAppOptions): Promise<OpenedApp> {
  const { host } = options;
  const tables = host.tables ?? 'own';
  const database = typeof options.database === 'string' ? await openDatabase(parseDatabaseUrl(options.database, options.root ?? process.cwd()), tables) : options.database;
  let app: App;
  try {
    app = defineApp({
      managers: host.managers,
      ...(host.catalog === undefined ? {} : { catalog: host.catalog }),
      database,
      tables,
      ...(options.migrations === undefined ? {} : { migrations: () => loadMigrationFiles(options.migrations!.folder, options.migrations!.load) }),
      ...(host.data === undefined ? {} : { settings: host.data }),
      ...(options.onQuery === undefined ? {} : { onQuery: options.onQuery }),
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  try {
    await app.ready();
    const seed = options.seed ?? host.seed;
    const seeded = tables !== 'attach' && seed !== undefined && (await allEmpty(app)) ? await loadSeed(app, seed) : 0;
    const tools = typeof host.tools === 'function' ? host.tools(app) : (host.tools ?? []);
    const close = (): Promise<void> => app.close();
    return { app, host, tables, tools, vocabulary: host.vocabulary, rulebook: host.rulebook, examples: host.examples ?? [], seeded, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** Opens the database a location names; an `attach` app never gets a new, empty SQLite file. */
export async function openDatabase(location: DatabaseLocation, tables: TableMode = 'own'): Promise<Database> {
  switch (location.kind) {
    case 'memory':
      return sqlite({ path: ':memory:' });
    case 'sqlite':
      if (!existsSync(location.path)) {
        if (tables === 'attach') {
          throw new PlumbError('database_not_found', `No SQLite database at '${location.path}'. An app with tables: 'attach' maps tables that already exist: check the database setting (relative paths start at the configuration's folder).`, {
            details: { path: location.path },
          });
        }
        mkdirSync(dirname(location.path), { recursive: true });
      }
      return sqlite({ path: location.path });
    case 'postgres': {
      const { postgres } = await import('../postgres/index.js');
      const database = postgres({ url: location.url });
      try {
        await database.execute(sql`select 1 as one`.compile(database.kysely));
      } catch (error) {
        await database.close();
        if (error instanceof PlumbError) throw error;
        throw new PlumbError('database_unreachable', `Could not reach ${redactUrl(location.url)}: ${(error as Error).message}.`, { cause: error });
      }
      return database;
    }
    default:
      return location satisfies never;
  }
}

async function allEmpty(app: App): Promise<boolean> {
  for (const manager of app.managers) {
    const found = await app.database.execute(sql`select 1 as one from ${sql.table(manager.table)} limit 1`.compile(app.database.kysely));
    if (found.rows.length > 0) return false;
  }
  return true;
}

async function loadSeed(app: App, seed: NonNullable<HostDefinition['seed']>): Promise<number> {
  const batches: Iterable<SeedBatch> = typeof seed === 'function' ? await seed() : seed;
  let loaded = 0;
  for (const batch of batches) loaded += await app.load(batch.manager, batch.rows);
  return loaded;
}
