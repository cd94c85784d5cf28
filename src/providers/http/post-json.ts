import { classifyHttpFailure, connectionFailure } from '../provider-error.js';

/** The most of an error body read as evidence. */
const MAX_ERROR_BODY = 64 * 1024;

export interface PostJsonOptions {
  readonly provider: string;
  readonly fetch: typeof fetch;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly signal: AbortSignal;
  /** What to check when nothing listens at a local `url` ("Is `ollama serve` running?"). */
  readonly notRunningHint?: string;
}

/**
 * POSTs a JSON body and returns a streaming 2xx response. A connection failure becomes
 * `provider_network` (or, refused on this machine, `provider_connection_refused`), a non-2xx answer is classified from its status, headers and body, and an
 * abort rethrows the signal's reason.
 */
export async function postJson(options: PostJsonOptions): Promise<AsyncIterable<Uint8Array>> {
  let response: Response;
  try {
    response = await options.fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    throw connectionFailure(options.provider, options.url, error, options.notRunningHint);
  }
  if (!response.ok || response.body === null) {
    const text = await readBounded(response, options.signal);
    throw classifyHttpFailure({ provider: options.provider, status: response.status, headers: response.headers, body: text });
  }
  return response.body;
}

async function readBounded(response: Response, signal: AbortSignal): Promise<string> {
  if (response.body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.length >= MAX_ERROR_BODY) break;
    }
  } catch {
    if (signal.aborted) throw signal.reason;
    // keep what arrived: the status still classifies the failure
  }
  return text.slice(0, MAX_ERROR_BODY);
}
