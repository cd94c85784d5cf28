import type { ErrorCatalogue } from '../core/index.js';

/** Every error code the data layer raises. Codes are stable: never renamed, never reused. */
export const dataErrorCodes = {
  invalid_definition: 'A manager declaration or the set of managers given to defineApp is invalid.',
  invalid_settings: 'The data settings do not match their schema (unknown key or bad value).',
  schema_mismatch: 'An existing SQL table does not match its manager definition.',
  unknown_manager: 'No manager has that name.',
  unknown_filter_key: 'A filter or exclude names a lookup key the manager does not have.',
  unsupported_operator: 'A lookup uses an operator that the field type does not support.',
  invalid_filter_value: 'A filter value has the wrong type for its lookup.',
  invalid_page: 'page or pageSize is below 1, or pageSize is above the maximum page size.',
  invalid_input: 'A create, update or load input has a missing, unknown or badly typed field.',
  not_found: 'The row does not exist or the actor may not see it.',
  forbidden: 'The actor may not perform this mutation.',
  row_referenced: 'The row cannot be deleted because other rows refer to it.',
  conflict: 'The write violates a uniqueness or reference constraint in the database.',
  result_too_large: 'A request read more rows than maxRowsPerRequest allows.',
  timeout: 'The operation was aborted by its signal before it finished.',
  closed: 'The app or database has been closed.',
} as const satisfies ErrorCatalogue;

export type DataErrorCode = keyof typeof dataErrorCodes;
