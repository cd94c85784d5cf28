import { abortableSleep, guardStream } from '../../providers/index.js';
import type { ChatMessage, FinishReason, Provider, ProviderError, ToolCallPart, ToolDefinition } from '../../providers/index.js';
import type { Completion } from './decide.js';
import { freshRetryState, retryDecision } from './retry-policy.js';
import type { EngineSettings } from '../settings.js';
import type { RetryInfo } from './retry-notice.js';

export interface RoundOptions {
  readonly provider: Provider;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly settings: EngineSettings;
  readonly signal: AbortSignal;
  readonly clock: () => number;
  readonly random: () => number;
  /** Each text delta as it arrives (may await: the reader's backpressure). */
  readonly onText?: (text: string) => Promise<void> | undefined;
  /** The controller for the stream's signal, reused across a run's rounds while not aborted (see `guardStream`). */
  readonly streamController?: () => AbortController;
  /** This request's output budget, computed for it (`outputBudget`); absent: the `maxOutputTokens` setting. */
  readonly maxOutputTokens?: number | undefined;
  /** An attempt starts (the first, and each retry once its delay passed). */
  readonly onAttempt?: () => Promise<void> | undefined;
  /** A failed attempt is about to be retried: the text shown for it must be dropped. */
  readonly onRetry?: (info: RetryInfo) => Promise<void> | undefined;
}

/**
 * One provider round: streams a completion under its clocks (first event, between events, the
 * whole attempt), and retries retryable failures
 * with backoff. A failed attempt's text and calls are discarded; only the successful attempt's
 * completion is returned. Throws the last failure (or the abort reason).
 */
export async function runProviderRound(options: RoundOptions): Promise<Completion> {
  let state = freshRetryState;
  for (;;) {
    try {
      const starting = options.onAttempt?.();
      if (starting !== undefined) await starting;
      return await attempt(options);
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      const decision = retryDecision(error, state, options.clock(), options.settings.retry, options.random);
      if (!decision.retry) throw error;
      state = decision.state;
      const { code, timeout } = error as ProviderError;
      const waiting = options.onRetry?.({ attempt: state.attempts, limit: options.settings.retry.maxAttempts, code, delayMs: decision.delayMs, timeout });
      if (waiting !== undefined) await waiting;
      await abortableSleep(decision.delayMs, options.signal);
    }
  }
}

async function attempt(options: RoundOptions): Promise<Completion> {
  const { provider, settings } = options;
  const maxOutputTokens = 'maxOutputTokens' in options ? options.maxOutputTokens : (settings.maxOutputTokens ?? undefined);
  const stream = guardStream(
    (signal) =>
      provider.complete({
        messages: options.messages,
        tools: options.tools,
        signal,
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      }),
    {
      provider: provider.name,
      signal: options.signal,
      timeoutSeconds: settings.timeoutSeconds,
      streamTimeoutSeconds: settings.streamTimeoutSeconds,
      attemptTimeoutSeconds: settings.attemptTimeoutSeconds,
      ...(options.streamController === undefined ? {} : { innerController: options.streamController() }),
    },
  );
  let text = '';
  const toolCalls: ToolCallPart[] = [];
  let inputTokens = 0;
  let outputTokens = 0;
  let finishReason: FinishReason = 'other';
  for await (const event of stream) {
    switch (event.type) {
      case 'text': {
        if (event.text === '') break;
        text += event.text;
        const waiting = options.onText?.(event.text);
        if (waiting !== undefined) await waiting;
        break;
      }
      case 'tool_call':
        toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments, ...(event.providerData === undefined ? {} : { providerData: event.providerData }) });
        break;
      case 'usage':
        inputTokens += event.inputTokens;
        outputTokens += event.outputTokens;
        break;
      case 'done':
        finishReason = event.finishReason;
        break;
    }
  }
  return { text, toolCalls, usage: { inputTokens, outputTokens }, finishReason };
}
