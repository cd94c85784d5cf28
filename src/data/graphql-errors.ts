import { GraphQLError } from 'graphql';
import { isPlumbError, PlumbError } from '../core/index.js';
import { resolveLookup } from './lookups.js';
import type { Manager } from './model.js';

/** `extensions.code` of each data error code on the GraphQL wire. */
export const graphqlCodeOf: Readonly<Record<string, string>> = {
  forbidden: 'FORBIDDEN',
  permission_error: 'PERMISSION_ERROR',
  not_found: 'NOT_FOUND',
  timeout: 'TIMEOUT',
  closed: 'SERVICE_UNAVAILABLE',
  database_unreachable: 'SERVICE_UNAVAILABLE',
  database_auth_failed: 'SERVICE_UNAVAILABLE',
  unknown_database: 'SERVICE_UNAVAILABLE',
  database_busy: 'SERVICE_UNAVAILABLE',
  schema_mismatch: 'INTERNAL_SERVER_ERROR',
  number_out_of_range: 'INTERNAL_SERVER_ERROR',
  transaction_aborted: 'INTERNAL_SERVER_ERROR',
};

export function plumbGraphqlError(error: PlumbError, base?: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: base?.nodes,
    source: base?.source,
    positions: base?.positions,
    path: base?.path,
    originalError: error,
    extensions: { code: graphqlCodeOf[error.code] ?? 'BAD_USER_INPUT', plumbCode: error.code, ...(error.details === undefined ? {} : { details: error.details }) },
  });
}

const unknownFilterField = /Field "([^"]+)" is not defined by type "([A-Za-z0-9]+)Filter"/;

/**
 * Rewrites an error of a request (parse, validation, variables, resolver) into its wire form:
 * Plumb errors keep their message and gain `extensions.code`; an unknown filter key says which
 * keys exist; anything unexpected is an internal error whose details stay on the server.
 */
export function toWireError(error: GraphQLError, phase: 'parse' | 'validate' | 'execute', managers: ReadonlyMap<string, Manager>): GraphQLError {
  const original = error.originalError;
  if (isPlumbError(original)) return plumbGraphqlError(original, error);
  const filterMatch = unknownFilterField.exec(error.message);
  if (filterMatch !== null) {
    const manager = managers.get(filterMatch[2]!);
    if (manager !== undefined) {
      try {
        resolveLookup(manager, filterMatch[1]!);
      } catch (lookupError) {
        if (isPlumbError(lookupError)) return plumbGraphqlError(lookupError, error);
      }
    }
  }
  if (phase === 'parse') return withCode(error, 'GRAPHQL_PARSE_FAILED');
  if (phase === 'validate') return withCode(error, 'GRAPHQL_VALIDATION_FAILED');
  if (original === undefined || original instanceof GraphQLError) return withCode(error, 'BAD_USER_INPUT');
  return new GraphQLError('Internal error while answering this field.', {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: original,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}

function withCode(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}

export function timeoutError(message: string): GraphQLError {
  return plumbGraphqlError(new PlumbError('timeout', message));
}
