import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PlumbError } from '../core/index.js';
import { storeLocation } from '../config/index.js';
import type { PlumbConfig } from '../config/index.js';
import { openSqliteStore } from '../store/index.js';
import { openConfiguredJournal } from './configured-journal.js';

/** What `plumb store backup` did: a SQLite file copied, or, for PostgreSQL, the pg_dump line to run. */
export type BackupReport =
  | { readonly kind: 'sqlite'; readonly file: string; readonly bytes: number; readonly pages: number; readonly ms: number }
  | { readonly kind: 'postgres'; readonly command: string; readonly restore: string };

/** What `plumb store vacuum` did: the journal's bytes by part before and after (`JournalUpkeep.sizes`). */
export interface VacuumReport {
  readonly before: Readonly<Record<string, number>>;
  readonly after: Readonly<Record<string, number>>;
  readonly ms: number;
}

/**
 * `plumb store backup <file>`: a SQLite journal is copied into `file` with SQLite's online backup
 * API, as one snapshot, while servers go on writing (docs/store.md, "Upkeep"). The copy is made
 * beside `file` and renamed onto it once whole, so that `file` is never half written; an existing
 * `file` is replaced only with `force`. A PostgreSQL journal is not copied here: the report is the
 * pg_dump line that copies its tables (and the pg_restore line that puts them back), without the
 * URL's password.
 */
export async function backupStore(config: PlumbConfig, options: { readonly root: string; readonly file: string; readonly force?: boolean }): Promise<BackupReport> {
  const location = storeLocation(config, options.root);
  const file = resolve(options.root, options.file);
  if (location.kind === 'postgres') return postgresBackup(location.url, file);
  if (location.kind === 'memory' || !existsSync(location.path)) throw noJournal(location.kind === 'memory' ? undefined : location.path);
  checkTarget(file, location.path, options.force === true);
  const started = performance.now();
  const partial = `${file}.partial-${process.pid}`;
  const store = await openSqliteStore({ path: location.path, readonly: true });
  try {
    rmSync(partial, { force: true });
    const { pages } = await store.backup(partial);
    renameSync(partial, file);
    return { kind: 'sqlite', file, bytes: statSync(file).size, pages, ms: Math.round(performance.now() - started) };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    await store.close();
  }
}

/**
 * `plumb store vacuum`: gives back the space of deleted rows (`JournalUpkeep.vacuum`: SQLite's
 * VACUUM holds the write lock while it runs; PostgreSQL's blocks neither reads nor writes).
 */
export async function vacuumStore(config: PlumbConfig, options: { readonly root: string }): Promise<VacuumReport> {
  const store = await openConfiguredJournal(config, options.root);
  if (store === undefined) {
    const location = storeLocation(config, options.root);
    throw noJournal(location.kind === 'sqlite' ? location.path : undefined);
  }
  try {
    const started = performance.now();
    const before = await store.sizes();
    await store.vacuum();
    return { before, after: await store.sizes(), ms: Math.round(performance.now() - started) };
  } finally {
    await store.close();
  }
}

function checkTarget(file: string, journal: string, force: boolean): void {
  const directory = dirname(file);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new PlumbError('store_backup_directory_missing', `The backup's folder '${directory}' does not exist. Create it first, or name a file in a folder that exists.`, { details: { file } });
  }
  if (file === resolve(journal)) throw new PlumbError('store_backup_exists', `'${file}' is the journal itself. Name another file for its backup.`, { details: { file } });
  if (existsSync(file) && !force) throw new PlumbError('store_backup_exists', `'${file}' exists already. Name another file, or pass --force to replace it.`, { details: { file } });
}

function noJournal(path: string | undefined): PlumbError {
  const where = path === undefined ? 'The journal is in memory (store :memory:): it is gone when its process ends' : `The journal '${path}' is not made yet (no turn was recorded)`;
  return new PlumbError('store_no_journal', `${where}, so there is nothing to back up or vacuum. Point store at a SQLite file or a postgres:// URL.`);
}

/** The pg_dump and pg_restore lines for the journal's tables (`plumb_*`), the password left out (give it in PGPASSWORD or ~/.pgpass). */
function postgresBackup(url: string, file: string): BackupReport {
  const target = new URL(url);
  target.password = '';
  const database = shellWord(target.toString());
  return {
    kind: 'postgres',
    command: `pg_dump --format=custom --table='plumb_*' --file=${shellWord(file)} ${database}`,
    restore: `pg_restore --dbname=${database} ${shellWord(file)}`,
  };
}

/** One word for a POSIX shell: single-quoted, a quote inside written '\''. */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
