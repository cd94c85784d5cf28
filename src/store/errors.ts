import type { ErrorCatalogue } from '../core/index.js';

/** Every code the store folder raises. Documented in docs/store.md under "Error codes". */
export const storeErrorCodes = {
  store_closed: 'The store was closed; open a new one to keep working.',
  store_not_found: 'A thread, turn or confirmation named in a write (or in `plumb store inspect --thread`) does not exist.',
  store_invalid_record: 'A record handed to the store is malformed (not JSON, duplicate id, bad status).',
  store_schema_mismatch: 'The database holds Plumb tables of a newer schema version than this code knows.',
  store_no_journal: '`plumb store backup` or `vacuum` on a journal in memory, or on a file not made yet: there is nothing to copy or compact.',
  store_backup_exists: 'The backup file given to `plumb store backup` exists already (pass --force to replace it), or is the journal itself.',
  store_backup_directory_missing: 'The folder of the backup file given to `plumb store backup` does not exist.',
} as const satisfies ErrorCatalogue;

export type StoreErrorCode = keyof typeof storeErrorCodes;
