import type { ErrorCatalogue } from '../core/index.js';

/**
 * The client's own codes. A refusal the server answers with its envelope (`{ error: { code,
 * message } }`) keeps the server's code (`rate_limited`, `csrf_failed`, …).
 */
export const clientErrorCodes = {
  request_failed: 'The request did not reach the server or its connection broke (network, CORS, an aborted fetch).',
  bad_response: 'The server answered something that is not the chat protocol (not JSON, a stream that is not SSE, an unexpected status).',
} as const satisfies ErrorCatalogue;

export type ClientErrorCode = keyof typeof clientErrorCodes;
