import { PlumbError, isPlumbError } from '../core/index.js';
import { ProviderError, networkFailure, streamCut } from './provider-error.js';
import type { CompletionRequest, Provider, ProviderEvent } from './protocol.js';
import { describeProvider } from './provider-view.js';

/** The two stream clocks (seconds). Defaults: 60 until the first event, 30 between events. */
export interface StreamTimeouts {
  /** Longest wait for the first event, in seconds (default 60). */
  readonly timeoutSeconds?: number;
  /** Longest wait between later events, in seconds (default 30). */
  readonly streamTimeoutSeconds?: number;
  /**
   * Longest time of the whole stream, in seconds, however steadily its events arrive: a stream that
   * trickles keeps resetting the between-events clock but not this one (default: none).
   */
  readonly attemptTimeoutSeconds?: number;
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
  /**
   * The controller whose signal the inner stream gets, for a caller that streams many times in a
   * row (a turn's rounds): building an AbortSignal per stream is a measurable cost. The stream
   * aborts it when it stops early (a timeout, the caller's abort, a consumer that leaves); an
   * aborted controller is used no more and the caller passes a fresh one next time. Default: a new
   * controller per stream.
   */
  readonly innerController?: AbortController;
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
 * Runs `open(signal)` and re-yields its events under both clocks (and the whole-stream cap, when
 * given) and the caller's signal. A clock
 * that runs out aborts the inner stream and fails with `provider_timeout`; a stream that ends without
 * `done` fails with `provider_stream_cut`; anything thrown that is not a Plumb error becomes
 * `provider_network`. Usage events and empty text deltas do not restart the between-events clock.
 *
 * One timer watches the whole stream: an event only records when progress was made, and the timer,
 * when it fires early, re-arms itself for the time still left (no timer or race per event). Time
 * the consumer spends on an event counts, as the provider's silence would. A stream that ignores
 * its signal is still cut off: each pending read is settled by the timer or the caller's abort,
 * whichever comes first.
 */
export async function* guardStream(
  open: (signal: AbortSignal) => AsyncIterable<ProviderEvent>,
  options: GuardOptions,
): AsyncGenerator<ProviderEvent, void, undefined> {
  const firstMs = checkSeconds('timeoutSeconds', options.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS) * 1000;
  const betweenMs = checkSeconds('streamTimeoutSeconds', options.streamTimeoutSeconds, DEFAULT_STREAM_TIMEOUT_SECONDS) * 1000;
  const attemptMs = options.attemptTimeoutSeconds === undefined ? Infinity : checkSeconds('attemptTimeoutSeconds', options.attemptTimeoutSeconds, 0) * 1000;
  const { signal, provider } = options;
  signal.throwIfAborted();
  const startedAt = Date.now();
  const reused = options.innerController;
  const inner = reused !== undefined && !reused.signal.aborted ? reused : new AbortController();
  let sawEvent = false;
  let progressAt = Date.now();
  /** Why the stream stopped early (the caller's abort reason or the timeout), once it has. */
  let stopped: { readonly reason: unknown } | undefined;
  /** Settles the read in flight with a failure. */
  let failRead: ((reason: unknown) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  // Methods, not arrows in consts: under tsx (esbuild keepNames) each such arrow is renamed at runtime, on every stream.
  const watch = {
    stop(this: void, reason: unknown): void {
      if (stopped !== undefined) return;
      stopped = { reason };
      failRead?.(reason);
    },
    onAbort(this: void): void {
      inner.abort(signal.reason);
      watch.stop(signal.reason);
    },
    check(this: void): void {
      const now = Date.now();
      const limitMs = sawEvent ? betweenMs : firstMs;
      const leftMs = limitMs - (now - progressAt);
      const attemptLeftMs = attemptMs - (now - startedAt);
      timer = undefined;
      if (leftMs > 0 && attemptLeftMs > 0) {
        timer = setTimeout(watch.check, Math.min(leftMs, attemptLeftMs));
        return;
      }
      // The clock ran out while the consumer held an event: the next read gets no more time (re-armed at 0 when it starts).
      if (failRead === undefined) return;
      const error = new ProviderError(
        'provider_timeout',
        attemptLeftMs <= 0
          ? `The ${provider} provider's stream did not finish within ${attemptMs / 1000} s (attemptTimeoutSeconds).`
          : sawEvent
            ? `The ${provider} provider sent nothing for ${betweenMs / 1000} s mid-stream (streamTimeoutSeconds).`
            : `The ${provider} provider sent no first event within ${firstMs / 1000} s (timeoutSeconds).`,
        { provider, timeout: attemptLeftMs <= 0 ? { stage: 'attempt', elapsedMs: now - startedAt } : { stage: sawEvent ? 'between_events' : 'first_byte', elapsedMs: now - progressAt } },
      );
      inner.abort(error);
      watch.stop(error);
    },
    /** A read of the next event that the timer or the caller's abort can also settle. */
    read(this: void, resolve: (result: IteratorResult<ProviderEvent>) => void, reject: (reason: unknown) => void): void {
      failRead = reject;
      iterator!.next().then(resolve, reject);
    },
  };
  signal.addEventListener('abort', watch.onAbort, { once: true });
  let iterator: AsyncIterator<ProviderEvent> | undefined;
  let finished = false;
  try {
    iterator = open(inner.signal)[Symbol.asyncIterator]();
    timer = setTimeout(watch.check, Math.min(firstMs, attemptMs));
    let sawDone = false;
    for (;;) {
      if (stopped !== undefined) throw stopped.reason;
      timer ??= setTimeout(watch.check, 0);
      const result = await new Promise<IteratorResult<ProviderEvent>>(watch.read);
      failRead = undefined;
      // Set by the timer or the caller's abort while the read was pending (TypeScript cannot see it).
      const late = stopped as { readonly reason: unknown } | undefined;
      if (late !== undefined) throw late.reason;
      if (result.done === true) {
        finished = true;
        if (!sawDone && options.requireDone !== false) throw streamCut(provider, 'its terminal event');
        return;
      }
      const event = result.value;
      if (event.type === 'done') sawDone = true;
      if (!(event.type === 'usage' || (event.type === 'text' && event.text === ''))) {
        progressAt = Date.now();
        if (!sawEvent) {
          // The first event switches clocks: the timer now watches the (usually shorter) gap between events.
          sawEvent = true;
          clearTimeout(timer);
          timer = setTimeout(watch.check, Math.min(betweenMs, attemptMs - (Date.now() - startedAt)));
        }
      }
      yield event;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (isPlumbError(error)) throw error;
    throw networkFailure(provider, error);
  } finally {
    failRead = undefined;
    clearTimeout(timer);
    signal.removeEventListener('abort', watch.onAbort);
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
    describe: () => describeProvider(provider),
    complete: (request: CompletionRequest) =>
      guardStream((signal) => provider.complete({ ...request, signal }), {
        provider: provider.name,
        signal: request.signal,
        timeoutSeconds,
        streamTimeoutSeconds,
        ...(timeouts.attemptTimeoutSeconds === undefined ? {} : { attemptTimeoutSeconds: timeouts.attemptTimeoutSeconds }),
      }),
  };
}
