import { existsSync } from 'node:fs';
import { storeLocation } from '../config/index.js';
import type { PlumbConfig } from '../config/index.js';
import { openSqliteStore } from '../store/index.js';
import type { JournalUpkeep, Store } from '../store/index.js';

export interface ConfiguredJournalOptions {
  /** The store's clock (default: now). */
  readonly clock?: () => number;
  /** A SQLite file opened read-only (a PostgreSQL journal opens as usual). */
  readonly readonly?: boolean;
}

/** A journal kept in a database: the store, and its upkeep (sizes, vacuum). */
export type ConfiguredJournal = Store & JournalUpkeep;

/**
 * The configured journal (the `store` setting, resolved from `root`: a SQLite file or a PostgreSQL
 * URL), opened for a command that reads or tidies it; undefined for an in-memory journal or a file
 * that does not exist yet, which hold nothing, and which are not created.
 */
export async function openConfiguredJournal(config: PlumbConfig, root: string, options: ConfiguredJournalOptions = {}): Promise<ConfiguredJournal | undefined> {
  const location = storeLocation(config, root);
  if (location.kind === 'memory' || (location.kind === 'sqlite' && !existsSync(location.path))) return undefined;
  const clock = options.clock === undefined ? {} : { clock: options.clock };
  if (location.kind === 'postgres') {
    // pg loads only for a PostgreSQL journal.
    return (await import('../postgres/index.js')).openPostgresStore({ url: location.url, durability: config.durability, max: 2, ...clock });
  }
  return options.readonly === true ? openSqliteStore({ path: location.path, readonly: true, ...clock }) : openSqliteStore({ path: location.path, durability: config.durability, ...clock });
}
