import type { ErrorCatalogue } from '../core/index.js';

export const serverErrorCodes = {
  bad_request: 'The request body is not the JSON the route expects (malformed JSON, a missing or non-string field).',
  payload_too_large: 'The request body is larger than the configured body limit.',
  not_found: 'No route answers this method and path.',
  unauthenticated: 'The credentials sent name no known user.',
  internal_error: 'An unexpected failure; the detail goes to the log only.',
} as const satisfies ErrorCatalogue;

export type ServerErrorCode = keyof typeof serverErrorCodes;
