import { PlumbError } from '../core/index.js';

/** A migration this build does not know is a newer journal's: `store_schema_mismatch`, on SQLite and PostgreSQL alike; any other error as it came. */
export function journalSchemaMismatch(error: unknown): unknown {
  if (error instanceof PlumbError && error.code === 'migration_unknown') return new PlumbError('store_schema_mismatch', `${error.message} (the journal)`, { cause: error, details: error.details });
  return error;
}
