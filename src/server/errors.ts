import type { ErrorCatalogue } from '../core/index.js';

/**
 * The chat service's own codes. Turn-level codes the engine declares (`bad_message`,
 * `turn_in_progress`, `confirmation_unavailable`, `chat_error`, the limits) keep their engine
 * meaning and are not repeated here; docs/protocol.md lists every code a client can meet.
 */
export const serverErrorCodes = {
  bad_request: 'The request body is not the JSON the route expects (malformed JSON, a missing or non-string field).',
  payload_too_large: 'The request body is larger than the configured body limit.',
  not_found: 'No route answers this method and path, or the thread is not the actor\'s.',
  method_not_allowed: 'The route exists but does not answer this HTTP method.',
  unauthenticated: 'The credentials sent name no known user.',
  internal_error: 'An unexpected failure outside a chat turn; the detail goes to the log only.',
  csrf_failed: 'A POST chat route was called without the CSRF cookie and a matching X-CSRF-Token header.',
  permission_denied: 'The permission callable refused this actor for this scope.',
  origin_not_allowed: 'A WebSocket handshake came from an origin that allowedOrigins (or the server\'s own host) does not allow.',
  bad_event: 'A WebSocket frame or confirmation payload is malformed, of an unknown type, or names no valid confirmation id.',
  confirmation_pending: 'A message arrived on a socket that is still waiting for a confirmation to be resolved.',
  confirmation_required_transport: 'The write needs a confirmation and plain HTTP cannot pause; use SSE or WebSocket.',
  rate_limited: 'The actor exceeded a request or token budget; retry after retry_after_seconds.',
  slow_consumer: 'A WebSocket client read too slowly and its send buffer passed the bound; the socket was closed (4008). Over the fetch handler, an SSE body read too slowly is cut off with this error.',
  server_closed: 'The fetch handler was closed; it answers every request with 503.',
  secret_unavailable: 'The secret file next to the database (which signs router sessions when sessionSecret is not set) could not be created or read, or is too short.',
} as const satisfies ErrorCatalogue;

export type ServerErrorCode = keyof typeof serverErrorCodes;
