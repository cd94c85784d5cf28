import { isAbsolute, relative, resolve } from 'node:path';
import { parseDatabaseUrl } from './database-url.js';
import type { DatabaseLocation } from './database-url.js';
import type { PlumbConfig } from './schema.js';

/** Plumb's own folder beside the configuration, where its files go unless told otherwise. */
export const plumbFolder = '.plumb';

/** Where the journal lives when `store` is not set and the data is not in Plumb's own SQLite file. */
export const defaultStorePath = `${plumbFolder}/chat.sqlite`;

/**
 * The journal's location: `store` when set; else, when the data is a SQLite file in Plumb's own
 * folder (`.plumb/`, where the demo and `plumb init` keep it), that file (tables `plumb_*`); an
 * in-memory journal beside an in-memory database; and `.plumb/chat.sqlite` beside any other
 * database — a host's own database, SQLite or PostgreSQL, is never written to unless it asks.
 */
export function storeLocation(config: Pick<PlumbConfig, 'store' | 'database'>, root: string): DatabaseLocation {
  if (config.store !== null) return parseDatabaseUrl(config.store, root, 'store');
  const data = parseDatabaseUrl(config.database, root);
  if (data.kind === 'memory' || (data.kind === 'sqlite' && insidePlumbFolder(data.path, root))) return data;
  return { kind: 'sqlite', path: resolve(root, defaultStorePath) };
}

function insidePlumbFolder(path: string, root: string): boolean {
  const below = relative(resolve(root, plumbFolder), path);
  return below !== '' && !below.startsWith('..') && !isAbsolute(below);
}
