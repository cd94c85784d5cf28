import type { ErrorCatalogue } from '../core/index.js';

/** Every error code the providers folder raises. Documented in docs/providers.md "Error codes". */
export const providersErrorCodes = {
  provider_auth: 'The provider rejected the credentials (HTTP 401/403); never retried.',
  provider_rate_limited: 'The provider is rate limiting (HTTP 429); retried after Retry-After.',
  provider_unavailable: 'The provider is overloaded or failing (HTTP 5xx, 529); retried.',
  provider_context_too_long: 'The request exceeds the model context window; not retried as-is (the engine compacts the history and sends it once more).',
  provider_invalid_request: 'The provider rejected the request (HTTP 400 and other 4xx); never retried.',
  provider_stream_cut: 'The stream stopped before its terminal event; retried.',
  provider_timeout: 'No event arrived within timeoutSeconds (first) or streamTimeoutSeconds (between), or the stream outlasted attemptTimeoutSeconds; retried.',
  provider_network: 'The connection failed or broke before a response; retried.',
  provider_connection_refused: 'Nothing listens at a provider URL on this machine (connection refused): a local model server that is not running; not retried.',
  provider_bad_response: 'The provider sent a response Plumb cannot read (malformed JSON, unknown shape); not retried.',
  provider_config_invalid: 'The provider configuration is invalid (bad base URL, missing model, bad setting).',
  provider_unknown: 'No provider has that name and no module exports a provider under that path.',
  provider_package_missing: 'The provider needs a package that is not installed; the message names it.',
  provider_script_invalid: 'A scripted-provider script does not match the documented shape.',
  provider_script_exhausted: 'The scripted provider has no completion left that matches this round.',
} as const satisfies ErrorCatalogue;

export type ProvidersErrorCode = keyof typeof providersErrorCodes;
