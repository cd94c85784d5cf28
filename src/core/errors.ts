import type { ErrorCatalogue } from './plumb-error.js';

/** Codes of what every layer shares: running a set of migrations. */
export const coreErrorCodes = {
  migration_failed: 'A migration raised an error while it ran; where the database runs migrations in a transaction (SQLite, PostgreSQL), nothing of it was kept.',
  sqlite_unavailable: 'A SQLite database or journal is configured and better-sqlite3 (an optional dependency) is not installed or does not load: the message says how to install it.',
  migration_unknown: 'The database has applied a migration this code does not have: it was migrated by a newer version or another branch.',
} as const satisfies ErrorCatalogue;

export type CoreErrorCode = keyof typeof coreErrorCodes;
