import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { Option } from 'commander';
import { sql } from 'kysely';
import type { Command } from 'commander';
import { loadConfig, openDatabase, parseDatabaseUrl, redactUrl } from '../../config/index.js';
import { runningPlumb } from '../../running-plumb.js';
import type { DatabaseLocation } from '../../config/index.js';
import { PlumbError } from '../../core/index.js';
import { introspectDatabase, sqlite } from '../../data/index.js';
import type { Database } from '../../data/index.js';
import { configHelp } from '../app-options.js';
import { renderManagers } from '../introspect/render-managers.js';
import type { IntrospectSummary } from '../introspect/render-managers.js';
import { CliFailure, CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';

interface IntrospectOptions {
  readonly database?: string;
  readonly db?: string;
  readonly config?: string;
  readonly out?: string;
  readonly force?: boolean;
}

type FileOrServer = Exclude<DatabaseLocation, { kind: 'memory' }>;

const helpAfter = `
Reads the tables, columns, keys and foreign keys of an existing database and writes one
defineManager per table, attached as they are (tables: 'attach': Plumb never creates or alters
them). Every manager starts with chatExposed: false. Naming and type rules: docs/cli.md.

PostgreSQL: the connection's current schema (usually public); for another, add
?options=-c%20search_path%3DNAME to the URL.

Examples:
  plumb introspect --database sqlite:shop.db --out app/managers.ts
  plumb introspect --database postgres://user:password@127.0.0.1:5432/shop > managers.ts
`;

/** `plumb introspect`: manager definitions generated from an existing SQLite or PostgreSQL schema. */
export function registerIntrospectCommand(program: Command, io: CliIo): void {
  program
    .command('introspect')
    .description('Print (or write) manager definitions generated from the tables of an existing SQLite or PostgreSQL database')
    .option('--database <url>', "the database to read: sqlite:PATH, a SQLite path or postgres://…; default: the configuration's database")
    .addOption(new Option('--db <url>', 'the same as --database').hideHelp())
    .option('--config <file>', `${configHelp}; read for its database when --database is not given`)
    .option('--out <file>', 'write the module to this file instead of stdout')
    .option('--force', 'overwrite the --out file when it exists')
    .addHelpText('after', helpAfter)
    .action(async (options: IntrospectOptions) => {
      const out = options.out === undefined ? undefined : resolve(options.out);
      if (out !== undefined && existsSync(out) && options.force !== true) {
        throw new CliFailure(`${options.out} already exists; nothing was written. Pass --force to overwrite it, or choose another --out.`);
      }
      const { location, shown } = await databaseLocation(options);
      const database = await open(location, shown);
      let rendered: ReturnType<typeof renderManagers>;
      try {
        rendered = renderManagers(await introspectDatabase(database));
      } finally {
        await database.close();
      }
      const { source, summary } = rendered;
      if (summary.managers === 0) throw new CliFailure(`${nothingToMap(summary, shown)}; nothing was written.`);
      if (out === undefined) io.stdout(source);
      else {
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, source, { flag: options.force === true ? 'w' : 'wx' });
      }
      io.stderr(`plumb introspect: ${summaryLine(summary)}${out === undefined ? '' : `; wrote ${shortPath(out)}`}\n`);
    });
}

/** `--database`, else the configuration's `database` (relative to its folder); the host module is not loaded. */
async function databaseLocation(options: IntrospectOptions): Promise<{ location: FileOrServer; shown: string }> {
  const given = options.database ?? options.db;
  let location: DatabaseLocation;
  if (given !== undefined) location = parseDatabaseUrl(given, process.cwd(), '--database');
  else {
    // `app: null`: the configuration may name the very module this command is about to write.
    const loaded = await loadConfig({ ...(options.config === undefined ? {} : { path: options.config }), overrides: { app: null }, runningPlumb });
    if (loaded.file === undefined) {
      throw new CliUsageError(`say which database to read: --database sqlite:PATH or --database postgres://USER:PASSWORD@HOST:PORT/DATABASE, or run it where a plumb.config.* sets database (none was found from ${loaded.root} upward)`);
    }
    location = parseDatabaseUrl(loaded.config.database, loaded.root);
  }
  if (location.kind === 'memory') throw new CliUsageError("':memory:' is a new, empty database: name an existing SQLite file or a postgres:// URL");
  return { location, shown: location.kind === 'sqlite' ? location.path : redactUrl(location.url) };
}

async function open(location: FileOrServer, shown: string): Promise<Database> {
  if (location.kind === 'postgres') return openDatabase(location, 'attach');
  if (!existsSync(location.path)) {
    throw new PlumbError('database_not_found', `No SQLite database at '${location.path}'. plumb introspect reads a database that exists: check the path (a relative --database starts at the current folder, a configuration's database at the configuration's folder).`, {
      details: { path: location.path },
    });
  }
  // Read-only: introspecting never switches the file to WAL mode or writes to it.
  const database = sqlite({ path: location.path, readonly: true });
  try {
    await database.execute(sql`select count(*) as tables from sqlite_schema`.compile(database.kysely));
  } catch (error) {
    await database.close();
    throw new CliFailure(`'${shown}' is not a SQLite database Plumb can read (${error instanceof Error ? error.message : String(error)}).`);
  }
  return database;
}

/** Relative to the current folder when it is below it. */
function shortPath(path: string): string {
  const near = relative(process.cwd(), path);
  return near === '' || near.startsWith('..') ? path : near;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function summaryLine(summary: IntrospectSummary): string {
  const parts = [`${plural(summary.tables, 'table')} → ${plural(summary.managers, 'manager')}`, `${summary.manyToMany} many-to-many`];
  const skipped: string[] = [];
  if (summary.skippedTables.length > 0) skipped.push(`${plural(summary.skippedTables.length, 'table')} (${summary.skippedTables.map((table) => table.table).join(', ')})`);
  if (summary.skippedColumns > 0) skipped.push(plural(summary.skippedColumns, 'column'));
  return `${parts.join(', ')}${skipped.length === 0 ? '' : `; skipped ${skipped.join(' and ')}, each said why in the output`}`;
}

function nothingToMap(summary: IntrospectSummary, shown: string): string {
  if (summary.tables === 0) return `${shown} has no tables to map`;
  const reasons = summary.skippedTables.map((table) => `${table.table}: ${table.reason}`).join('; ');
  return `no table of ${shown} can be a manager (${reasons})`;
}
