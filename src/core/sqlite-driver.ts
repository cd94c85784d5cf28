import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { PlumbError } from './plumb-error.js';

let driver: typeof BetterSqlite3 | undefined;

/**
 * better-sqlite3, loaded on first use: it is an optional dependency (a native module), so a host
 * whose data and journal are on PostgreSQL installs and runs without compiling it.
 */
export function sqliteDriver(): typeof BetterSqlite3 {
  if (driver !== undefined) return driver;
  try {
    driver = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    return driver;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND';
    throw new PlumbError(
      'sqlite_unavailable',
      missing
        ? 'SQLite needs the better-sqlite3 package, which is not installed: npm install better-sqlite3@12 (or put the data and the journal on PostgreSQL: database and store set to postgres://…).'
        : `better-sqlite3 is installed but does not load on this machine (${(error as Error).message}): reinstall it (npm rebuild better-sqlite3) for Node ${process.versions.node}.`,
      { cause: error },
    );
  }
}
