/**
 * `plumb-agent/postgres`: the PostgreSQL parts of Plumb in one entry, so that `pg` loads only for an
 * app that uses PostgreSQL. `postgres({ url } | { pool })` is a data backend for `defineApp`;
 * `openPostgresStore({ url } | { pool })` is the journal on PostgreSQL.
 */
export { postgres } from '../data/postgres-database.js';
export type { PostgresDatabase, PostgresOptions } from '../data/postgres-database.js';
export { openPostgresStore, inspectPostgresJournal } from './journal.js';
export type { PostgresStoreConnectOptions, PostgresJournalReport } from './journal.js';
export { PostgresStore } from '../store/postgres/postgres-store.js';
export type { PostgresStoreOptions } from '../store/postgres/postgres-store.js';
