/**
 * `plumb/postgres`: the PostgreSQL parts of Plumb in one entry, so that `pg` loads only for an
 * app that uses PostgreSQL. `postgres({ url } | { pool })` is a data backend for `defineApp`.
 */
export { postgres } from '../data/postgres-database.js';
export type { PostgresDatabase, PostgresOptions } from '../data/postgres-database.js';
