import type { ErrorCatalogue } from '../core/index.js';

/** Every error code the data layer raises. Codes are stable: never renamed, never reused. */
export const dataErrorCodes = {
  invalid_definition: 'A manager declaration or the set of managers given to defineApp is invalid.',
  invalid_catalog: "The host's catalog names a manager the app lacks or does not expose, holds a badly typed entry, or is a function that threw.",
  invalid_condition: "A manager's named condition has a bad name or shape, or a filter key the manager does not have.",
  invalid_settings: 'The data settings do not match their schema (unknown key or bad value).',
  schema_mismatch: 'An existing SQL table does not match its manager definition.',
  tables_not_created: "An app that owns its tables lacks some of them in a database that holds other tables: attach to yours, or ask for tables: 'create'.",
  migrations_pending: 'The app has migrations that are not applied to its database yet; plumb migrate up applies them.',
  unknown_manager: 'No manager has that name.',
  unknown_filter_key: 'A filter or exclude names a lookup key the manager does not have.',
  unsupported_operator: 'A lookup uses an operator that the field type does not support.',
  invalid_filter_value: 'A filter value has the wrong type for its lookup.',
  invalid_page: 'page or pageSize is below 1, or pageSize is above the maximum page size.',
  invalid_input: 'A create, update or load input has a missing, unknown or badly typed field.',
  not_found: 'The row does not exist or the actor may not see it.',
  forbidden: 'The actor may not perform this mutation.',
  permission_error: "A manager's read permission failed (it threw, or returned a condition on a key the manager does not have): the request is refused with no schema detail, and the detail goes to the error report.",
  row_referenced: 'The row cannot be deleted because other rows refer to it.',
  conflict: 'The write violates a uniqueness or reference constraint in the database.',
  result_too_large: 'A request read more rows than maxRowsPerRequest allows.',
  timeout: 'The operation was aborted by its signal, or the database stopped a statement at its timeout, before it finished.',
  closed: 'The app or database has been closed.',
  database_unreachable: 'The database server could not be reached (refused, unknown host, no answer in time) or dropped the connection.',
  database_auth_failed: 'The database server refused the user name or password.',
  unknown_database: 'The database, or the schema given to postgres(), does not exist on the server.',
  database_busy: 'No database connection became free within the connection timeout: the pool or the server is at its limit.',
  number_out_of_range: 'A number read from the database does not fit a JavaScript number exactly (beyond Number.MAX_SAFE_INTEGER).',
  transaction_aborted: 'A statement inside a transaction failed, so the database rolled the whole transaction back.',
} as const satisfies ErrorCatalogue;

export type DataErrorCode = keyof typeof dataErrorCodes;
