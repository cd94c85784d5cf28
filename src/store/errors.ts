import type { ErrorCatalogue } from '../core/index.js';

/** Every code the store folder raises. Documented in docs/store.md under "Error codes". */
export const storeErrorCodes = {
  store_closed: 'The store was closed; open a new one to keep working.',
  store_not_found: 'A thread, turn or confirmation named in a write (or in `plumb store inspect --thread`) does not exist.',
  store_invalid_record: 'A record handed to the store is malformed (not JSON, duplicate id, bad status).',
  store_schema_mismatch: 'The database holds Plumb tables of a newer schema version than this code knows.',
} as const satisfies ErrorCatalogue;

export type StoreErrorCode = keyof typeof storeErrorCodes;
