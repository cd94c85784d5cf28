import type { ErrorCatalogue } from '../core/index.js';

/**
 * The chat service's own codes. Turn-level codes the engine declares (`bad_message`,
 * `turn_in_progress`, `confirmation_unavailable`, `chat_error`, the limits) keep their engine
 * meaning and are not repeated here; docs/protocol.md lists every code a client can meet.
 */
export const serverErrorCodes = {
  bad_request: 'The request body is not the JSON the route expects (malformed JSON, a missing or non-string field).',
  payload_too_large: 'The request body is larger than the configured body limit.',
  unsupported_media_type: 'A request body was sent with a Content-Type other than application/json.',
  bad_url: "The request's path cannot be decoded (a '%' that starts no percent-encoded byte, or bytes that are not UTF-8).",
  uri_too_long: 'A segment of the path (an id) is longer than the router takes (100 characters).',
  header_too_large: 'The request line and headers together are larger than the server takes (16 KiB).',
  request_timeout: 'The client did not finish sending its request in time.',
  not_found: 'No route answers this method and path, or the thread is not the actor\'s.',
  method_not_allowed: 'The route exists but does not answer this HTTP method.',
  unauthenticated: 'The credentials sent name no known user.',
  internal_error: 'An unexpected failure outside a chat turn; the detail goes to the log only.',
  csrf_failed: 'A POST chat route was called without the CSRF cookie and a matching X-CSRF-Token header issued to this same session.',
  permission_denied: 'The permission callable refused this actor for this scope.',
  origin_not_allowed: 'A WebSocket handshake came from an origin that allowedOrigins (or the server\'s own host) does not allow.',
  bad_event: 'A WebSocket frame or confirmation payload is malformed, of an unknown type, or names no valid confirmation id.',
  confirmation_pending: 'A message arrived on a socket that is still waiting for a confirmation to be resolved, and the thread\'s queue is full.',
  confirmation_required_transport: 'The write needs a confirmation and plain HTTP cannot pause; use SSE or WebSocket.',
  rate_limited: 'The actor (a user, or an anonymous client by its address) exceeded a request, token or new-session budget; retry after retry_after_seconds.',
  rate_limit_unavailable: 'The shared rate-limit counters (redis) did not answer within redisTimeoutMs and rateLimit.whenUnavailable is closed; retry after retry_after_seconds.',
  slow_consumer: 'A WebSocket client read too slowly and its send buffer passed the bound; the socket was closed (4008). Over the fetch handler, an SSE body read too slowly is cut off with this error.',
  not_ready: 'GET /readyz: a check failed (the journal or Redis did not answer, a migration is pending, startup recovery is not done); the body\'s checks say which.',
  server_closed: 'The server is shutting down, or the fetch handler was closed; it answers every request with 503.',
  secret_unavailable: 'The secret file next to the database (which signs router sessions when sessionSecret is not set) could not be created or read, or is too short.',
  views_unavailable: 'A WebSocket subscribe frame reached a server that serves no live thread views (it follows no threads: createServer or plumbChat without following).',
  cancel_timeout: 'A cancel asked the process running the turn (another one) to stop it, and the turn did not end within cancelTimeoutMs; it may stop later: read the thread.',
  too_many_subscriptions: 'A WebSocket subscribe frame would make the socket follow more threads than viewsPerSocket; unsubscribe from one first.',
} as const satisfies ErrorCatalogue;

export type ServerErrorCode = keyof typeof serverErrorCodes;
