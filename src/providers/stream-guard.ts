import { PlumbError, isPlumbError } from '../core/index.js';
import { ProviderError, networkFailure, streamCut } from './provider-error.js';
import type { CompletionRequest, Provider, ProviderEvent } from './protocol.js';

/** The two stream clocks (seconds). Defaults: 60 until the first event, 30 between events. */
export interface StreamTimeouts {
  /** Longest wait for the first event, in seconds (default 60). */
  readonly timeoutSeconds?: number;
  /** Longest wait between later events, in seconds (default 30). */
  readonly streamTimeoutSeconds?: number;
}

export const DEFAULT_TIMEOUT_SECONDS = 60;
export const DEFAULT_STREAM_TIMEOUT_SECONDS = 30;

export interface GuardOptions extends StreamTimeouts {
  /** The provider's name, for messages and error details. */
  readonly provider: string;
  /** The caller's signal: aborting it stops the stream and rethrows its reason. */
  readonly signal: AbortSignal;
  /** Fail with `provider_stream_cut` when the stream ends without a `done` event (default true). */
  readonly requireDone?: boolean;
}

/** Validates a timeout setting; misuse throws `provider_config_invalid` at once. */
export function checkSeconds(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new PlumbError('provider_config_invalid', `${name} must be a positive number of seconds, got ${String(value)}.`);
  }
  return value;
}

/**
 * Runs `open(signal)` and re-yields its events under both clocks and the caller's signal. A clock
 * that runs out aborts the inner stream and fails with `provider_timeout`; a stream that ends without
 * `done` fails with `provider_stream_cut`; anything thrown that is not a Plumb error becomes
 * `provider_network`. Usage events and empty text deltas do not restart the between-events clock.
 */
export async function* guardStream(
  open: (signal: AbortSignal) => AsyncIterable<ProviderEvent>,
  options: GuardOptions,
): AsyncGenerator<ProviderEvent, void, undefined> {
  const firstMs = checkSeconds('timeoutSeconds', options.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS) * 1000;
  const betweenMs = checkSeconds('streamTimeoutSeconds', options.streamTimeoutSeconds, DEFAULT_STREAM_TIMEOUT_SECONDS) * 1000;
  const { signal, provider } = options;
  signal.throwIfAborted();
  const inner = new AbortController();
  let rejectAbort: (reason: unknown) => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    rejectAbort = reject;
  });
  aborted.catch(() => undefined);
  const onAbort = (): void => {
    inner.abort(signal.reason);
    rejectAbort(signal.reason);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  let iterator: AsyncIterator<ProviderEvent> | undefined;
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    iterator = open(inner.signal)[Symbol.asyncIterator]();
    let sawEvent = false;
    let sawDone = false;
    let progressAt = Date.now();
    for (;;) {
      const limitMs = sawEvent ? betweenMs : firstMs;
      const waitMs = Math.max(0, limitMs - (Date.now() - progressAt));
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(resolve, waitMs, 'timeout');
      });
      const result = await Promise.race([iterator.next(), timedOut, aborted]);
      clearTimeout(timer);
      if (result === 'timeout') {
        const error = new ProviderError(
          'provider_timeout',
          sawEvent
            ? `The ${provider} provider sent nothing for ${betweenMs / 1000} s mid-stream (streamTimeoutSeconds).`
            : `The ${provider} provider sent no first event within ${firstMs / 1000} s (timeoutSeconds).`,
          { provider },
        );
        inner.abort(error);
        throw error;
      }
      if (result.done === true) {
        finished = true;
        if (!sawDone && options.requireDone !== false) throw streamCut(provider, 'its terminal event');
        return;
      }
      const event = result.value;
      if (event.type === 'done') sawDone = true;
      if (!(event.type === 'usage' || (event.type === 'text' && event.text === ''))) {
        sawEvent = true;
        progressAt = Date.now();
      }
      yield event;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (isPlumbError(error)) throw error;
    throw networkFailure(provider, error);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    // A stream that ended normally needs no abort: aborting builds a DOMException and notifies listeners for nothing.
    if (!finished && !inner.signal.aborted) inner.abort();
    if (!finished && iterator?.return !== undefined) {
      // The consumer stopped early: release the inner stream without waiting on it.
      iterator.return().catch(() => undefined);
    }
  }
}

/**
 * Wraps a provider so that every completion runs under `guardStream`: the engine wraps each
 * configured provider with this once.
 */
export function withStreamGuard(provider: Provider, timeouts: StreamTimeouts = {}): Provider {
  const timeoutSeconds = checkSeconds('timeoutSeconds', timeouts.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS);
  const streamTimeoutSeconds = checkSeconds('streamTimeoutSeconds', timeouts.streamTimeoutSeconds, DEFAULT_STREAM_TIMEOUT_SECONDS);
  return {
    name: provider.name,
    model: provider.model,
    checkConfiguration: () => provider.checkConfiguration(),
    complete: (request: CompletionRequest) =>
      guardStream((signal) => provider.complete({ ...request, signal }), {
        provider: provider.name,
        signal: request.signal,
        timeoutSeconds,
        streamTimeoutSeconds,
      }),
  };
}
