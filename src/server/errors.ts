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
  slow_consumer: 'A WebSocket client read too slowly and its send buffer passed the bound; the socket was closed (4008).',
  invalid_config: 'A configuration key is unknown or its value is invalid; the message names the key.',
  config_not_found: 'The configuration file named by --config (or plumb.config.json) does not exist.',
  config_load_failed: 'The configuration file could not be read, parsed or imported.',
  secret_unavailable: 'The secret file next to the database (which signs router sessions when sessionSecret is not set) could not be created or read, or is too short.',
  invalid_permission: 'The permission setting is neither a function nor a module exporting one.',
  no_exposed_data: 'plumb check: the app exposes no manager to chat, so the assistant can see nothing.',
  invalid_allow_list: 'plumb check: allowedMutations or confirmMutations names a mutation the app does not generate or allow.',
  provider_dependency_missing: 'plumb check: the configured provider needs a package that is not installed.',
  provider_load_failed: 'plumb check: the configured provider could not be created or reports a configuration problem.',
} as const satisfies ErrorCatalogue;

export type ServerErrorCode = keyof typeof serverErrorCodes;
