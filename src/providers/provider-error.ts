import { PlumbError } from '../core/index.js';
import type { PlumbErrorJSON } from '../core/index.js';

/** The failure kinds the engine's retry policy distinguishes. */
export type ProviderFailureCode =
  | 'provider_auth'
  | 'provider_rate_limited'
  | 'provider_unavailable'
  | 'provider_context_too_long'
  | 'provider_invalid_request'
  | 'provider_stream_cut'
  | 'provider_timeout'
  | 'provider_network'
  | 'provider_connection_refused'
  | 'provider_bad_response';

const RETRYABLE: ReadonlySet<ProviderFailureCode> = new Set<ProviderFailureCode>([
  'provider_rate_limited',
  'provider_unavailable',
  'provider_stream_cut',
  'provider_timeout',
  'provider_network',
]);

/** Largest slice of a failed response body kept as evidence (bytes of text). */
const MAX_BODY_EVIDENCE = 4096;

export interface ProviderErrorOptions {
  /** The provider name (`openai`, `anthropic`, …). */
  readonly provider: string;
  readonly status?: number;
  readonly requestId?: string;
  /** The provider's own message: untrusted, for the error hook and logs, never for the client. */
  readonly providerMessage?: string;
  /** The raw failed body or SSE payload (truncated to 4 KiB). */
  readonly body?: string;
  readonly retryAfterSeconds?: number;
  /** Overrides the default retry decision (e.g. the server sent `x-should-retry: false`). */
  readonly retryable?: boolean;
  readonly cause?: unknown;
  /** A `provider_timeout`: which clock ran out and how long the stream had waited on it. */
  readonly timeout?: StreamTimeout;
}

/** Which of a stream's clocks ran out (`timeoutSeconds`, `streamTimeoutSeconds`, `attemptTimeoutSeconds`), after how many milliseconds. */
export interface StreamTimeout {
  readonly stage: 'first_byte' | 'between_events' | 'attempt';
  readonly elapsedMs: number;
}

/**
 * A classified model-provider failure. `code` decides retrying (`retryable`); `details` keeps the
 * evidence (provider, status, request id, the provider's message, the failed body) for the error
 * hook. The message is Plumb's own wording and safe to show; `details` is not.
 */
export class ProviderError extends PlumbError {
  declare readonly code: ProviderFailureCode;
  readonly provider: string;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly providerMessage: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly timeout: StreamTimeout | undefined;

  constructor(code: ProviderFailureCode, message: string, options: ProviderErrorOptions) {
    const retryable = options.retryable ?? RETRYABLE.has(code);
    const details: Record<string, unknown> = { provider: options.provider, retryable };
    if (options.status !== undefined) details.status = options.status;
    if (options.requestId !== undefined) details.requestId = options.requestId;
    if (options.providerMessage !== undefined) details.providerMessage = options.providerMessage;
    if (options.retryAfterSeconds !== undefined) details.retryAfterSeconds = options.retryAfterSeconds;
    if (options.body !== undefined) details.body = options.body.slice(0, MAX_BODY_EVIDENCE);
    if (options.timeout !== undefined) details.timeout = { ...options.timeout };
    super(code, message, { details, cause: options.cause });
    this.name = 'ProviderError';
    this.provider = options.provider;
    this.retryable = retryable;
    this.status = options.status;
    this.requestId = options.requestId;
    this.providerMessage = options.providerMessage;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.timeout = options.timeout;
  }

  /**
   * The wire shape leaves out the provider's own words and the failed body (untrusted, possibly
   * private); they stay on `details` for the error hook and logs.
   */
  override toJSON(): PlumbErrorJSON {
    const safe: Record<string, unknown> = { provider: this.provider, retryable: this.retryable };
    if (this.status !== undefined) safe.status = this.status;
    if (this.requestId !== undefined) safe.requestId = this.requestId;
    if (this.retryAfterSeconds !== undefined) safe.retryAfterSeconds = this.retryAfterSeconds;
    if (this.timeout !== undefined) safe.timeout = { ...this.timeout };
    return { code: this.code, message: this.message, details: safe };
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}

const CONTEXT_TOO_LONG =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|exceeds the maximum number of tokens|request too large|maximum input length|num_ctx/i;

export interface HttpFailure {
  readonly provider: string;
  readonly status: number;
  /** Response headers (a Fetch `Headers` or a plain lower-case record). */
  readonly headers?: Headers | Readonly<Record<string, string | undefined>>;
  /** The response body as text (JSON error payloads are read for their message). */
  readonly body?: string;
  /** Seconds since the epoch now, for `Retry-After` dates; defaults to `Date.now()`. */
  readonly nowMs?: number;
}

/** Maps an HTTP failure (status, headers, body) to a classified `ProviderError`. */
export function classifyHttpFailure(failure: HttpFailure): ProviderError {
  const { provider, status } = failure;
  const header = (name: string): string | undefined => readHeader(failure.headers, name);
  const providerMessage = extractProviderMessage(failure.body);
  const requestId = header('x-request-id') ?? header('request-id') ?? header('x-goog-request-id') ?? extractRequestId(failure.body);
  const retryAfterSeconds = parseRetryAfter(header('retry-after-ms'), header('retry-after'), failure.nowMs ?? Date.now());
  const shouldRetry = header('x-should-retry');
  const base = {
    provider,
    status,
    requestId,
    providerMessage,
    body: failure.body,
    retryAfterSeconds,
    // An explicit server prohibition wins; an explicit permission never turns a permanent failure retryable.
    retryable: shouldRetry === 'false' ? false : undefined,
  };
  const code = classifyStatus(status, `${providerMessage ?? ''} ${failure.body ?? ''}`);
  return new ProviderError(code, describe(code, provider, status, retryAfterSeconds), base);
}

function classifyStatus(status: number, text: string): ProviderFailureCode {
  if (status === 401 || status === 403) return 'provider_auth';
  if (status === 429) return 'provider_rate_limited';
  if (status === 408 || status === 504) return status === 408 ? 'provider_timeout' : 'provider_unavailable';
  if (status === 413 || ((status === 400 || status === 422) && CONTEXT_TOO_LONG.test(text))) return 'provider_context_too_long';
  if (status >= 500) return 'provider_unavailable';
  if (status >= 400) return 'provider_invalid_request';
  return 'provider_bad_response';
}

function describe(code: ProviderFailureCode, provider: string, status: number, retryAfterSeconds: number | undefined): string {
  switch (code) {
    case 'provider_auth':
      return `The ${provider} provider rejected the credentials (HTTP ${status}). Check the API key setting or its environment variable.`;
    case 'provider_rate_limited':
      return `The ${provider} provider is rate limiting requests (HTTP 429)${retryAfterSeconds === undefined ? '' : `; retry after ${retryAfterSeconds} s`}.`;
    case 'provider_unavailable':
      return `The ${provider} provider is unavailable or overloaded (HTTP ${status}).`;
    case 'provider_context_too_long':
      return `The conversation is too long for the ${provider} model's context window (HTTP ${status}). Set contextWindowTokens to the model's window so that the history is compacted in time.`;
    case 'provider_invalid_request':
      return `The ${provider} provider rejected the request (HTTP ${status}). Check the model name and settings.`;
    case 'provider_timeout':
      return `The ${provider} provider timed out (HTTP ${status}).`;
    default:
      return `The ${provider} provider answered HTTP ${status} without a readable response.`;
  }
}

function readHeader(headers: HttpFailure['headers'], name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  return (headers as Readonly<Record<string, string | undefined>>)[name];
}

/**
 * `Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); `retry-after-ms`
 * (OpenAI, Anthropic) wins when present. Undefined when absent or unreadable.
 */
export function parseRetryAfter(retryAfterMs: string | undefined, retryAfter: string | undefined, nowMs: number): number | undefined {
  if (retryAfterMs !== undefined && /^\d+(\.\d+)?$/.test(retryAfterMs.trim())) return Number(retryAfterMs.trim()) / 1000;
  if (retryAfter === undefined) return undefined;
  const text = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** The message inside the common error payload shapes (OpenAI, Anthropic, Gemini, Ollama). */
export function extractProviderMessage(body: string | undefined): string | undefined {
  if (body === undefined || body.trim() === '') return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    const found = findMessage(Array.isArray(parsed) ? parsed[0] : parsed);
    if (found !== undefined) return found;
  } catch {
    // not JSON: keep the text itself
  }
  return body.trim().slice(0, 1000);
}

function findMessage(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.error === 'string') return record.error;
  if (typeof record.error === 'object' && record.error !== null) {
    const inner = record.error as Record<string, unknown>;
    if (typeof inner.message === 'string') return inner.message;
  }
  if (typeof record.message === 'string') return record.message;
  return undefined;
}

function extractRequestId(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  const match = /"request_id"\s*:\s*"([^"]+)"/.exec(body);
  return match?.[1];
}

/** A `provider_stream_cut` for a stream that ended before its terminal event. */
export function streamCut(provider: string, what: string, cause?: unknown): ProviderError {
  return new ProviderError('provider_stream_cut', `The ${provider} stream stopped before ${what}.`, { provider, cause });
}

/** A `provider_network` for a connection that failed or broke. */
export function networkFailure(provider: string, cause: unknown): ProviderError {
  const reason = innermostMessage(cause);
  return new ProviderError('provider_network', `Could not reach the ${provider} provider: ${reason}.`, { provider, cause, providerMessage: reason });
}

/**
 * A request that never reached the provider at `url`. A refused connection to this machine means
 * nothing listens there — a local model server that is not running — and no retry changes that, so
 * it fails at once (`provider_connection_refused`, not retried) with the address and what to check
 * (`hint`, e.g. "Is `ollama serve` running?"). Anything else is a retried `provider_network`
 * naming the address.
 */
export function connectionFailure(provider: string, url: string, cause: unknown, hint = 'Is the model server running?'): ProviderError {
  const address = originOf(url);
  if (isLoopback(url) && hasCode(cause, 'ECONNREFUSED')) {
    return new ProviderError(
      'provider_connection_refused',
      `Nothing is listening at ${address} for the ${provider} provider (connection refused). ${hint} Or set providerConfig.baseUrl (--base-url) to where it listens.`,
      { provider, cause, providerMessage: innermostMessage(cause), retryable: false },
    );
  }
  const reason = innermostMessage(cause);
  return new ProviderError('provider_network', `Could not reach the ${provider} provider at ${address}: ${reason}.`, { provider, cause, providerMessage: reason });
}

/** Scheme, host and port only: a path or query may hold a key. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'its base URL';
  }
}

function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether `code` is on the error, its causes, or (happy eyeballs tries every address) any of an AggregateError's errors. */
function hasCode(error: unknown, code: string, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (record.code === code) return true;
  if (Array.isArray(record.errors) && record.errors.length > 0 && record.errors.every((inner) => hasCode(inner, code, depth + 1))) return true;
  return hasCode(record.cause, code, depth + 1);
}

/** The most specific message in a chain of causes (`fetch failed` says less than `connect ECONNREFUSED 127.0.0.1:11434`). */
function innermostMessage(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++) {
    current = current.cause;
    if (current instanceof Error && current.message !== '') message = current.message;
  }
  return message;
}

/** A `provider_bad_response` for a payload that is not what the provider documents. */
export function badResponse(provider: string, what: string, payload?: string): ProviderError {
  return new ProviderError('provider_bad_response', `The ${provider} provider sent ${what}.`, { provider, body: payload });
}
