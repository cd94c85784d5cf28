import { resolve } from 'node:path';
import { parseDatabaseUrl } from './database-url.js';
import type { DatabaseLocation } from './database-url.js';
import type { PlumbConfig } from './schema.js';

/** Where the journal lives when `store` is not set and the data is not in SQLite. */
export const defaultStorePath = '.plumb/chat.sqlite';

/**
 * The journal's location: `store` when set; else the app's own SQLite file (its tables are
 * `plumb_*`), an in-memory journal beside an in-memory database, and `.plumb/chat.sqlite` beside
 * data on PostgreSQL.
 */
export function storeLocation(config: Pick<PlumbConfig, 'store' | 'database'>, root: string): DatabaseLocation {
  if (config.store !== null) return parseDatabaseUrl(config.store, root, 'store');
  const data = parseDatabaseUrl(config.database, root);
  return data.kind === 'postgres' ? { kind: 'sqlite', path: resolve(root, defaultStorePath) } : data;
}
