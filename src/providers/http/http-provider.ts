import { guardStream } from '../stream-guard.js';
import { ProviderError, streamCut } from '../provider-error.js';
import { recognizeTextToolCalls } from '../text-tool-calls.js';
import type { CompletionRequest, Provider, ProviderCheck, ProviderEvent, ProviderSettingsView } from '../protocol.js';
import type { ResolvedSettings } from '../adapter-settings.js';
import { postJson } from './post-json.js';
import { NdjsonSplitter, SseSplitter, readRecords } from './wire-records.js';

/**
 * Turns one provider's stream records into Plumb events. `push` appends what a record yields to
 * `out` (and throws a `ProviderError` for an in-stream error); `end` appends what remains and
 * throws `provider_stream_cut` when the terminal record never came. `finished` turns true at the
 * terminal record.
 */
export interface StreamDecoder {
  readonly finished: boolean;
  push(data: string, event: string | undefined, out: ProviderEvent[]): void;
  end(out: ProviderEvent[]): void;
}

/** What an adapter contributes: how to build its request and how to read its stream. */
export interface WireFormat {
  readonly name: string;
  readonly framing: 'sse' | 'ndjson';
  request(request: CompletionRequest, settings: ResolvedSettings): { url: string; headers: Record<string, string>; body: unknown };
  decoder(settings: ResolvedSettings): StreamDecoder;
  /** Problems found without calling the network. */
  check(settings: ResolvedSettings): ProviderCheck[];
  /** A failure to raise before sending (e.g. a required key is missing), or undefined. */
  precondition?(settings: ResolvedSettings): ProviderError | undefined;
  /** What to check when nothing listens at a local base URL (a local server's start command). */
  readonly notRunningHint?: string;
}

/** What `HttpProvider.describe()` reports: the effective settings, never the key (the shape of every provider's `ProviderSettingsView`). */
export interface ProviderDescription extends ProviderSettingsView {
  readonly name: string;
  readonly model: string;
  readonly baseUrl: string;
  /** `apiKey`, the environment variable the key came from, or undefined when there is none. */
  readonly apiKeySource: string | undefined;
  readonly timeoutSeconds: number;
  readonly streamTimeoutSeconds: number;
  readonly maxTokens: number | undefined;
  readonly parseTextToolCalls: boolean;
}

/** A provider over `fetch`: posts the request, splits the body, decodes, guards both clocks. */
export class HttpProvider implements Provider {
  readonly name: string;
  readonly model: string;
  readonly #settings: ResolvedSettings;
  readonly #format: WireFormat;

  constructor(format: WireFormat, settings: ResolvedSettings) {
    this.#format = format;
    this.name = format.name;
    this.model = settings.model;
    this.#settings = settings;
  }

  /** The effective settings without the key itself (safe to log or print in `plumb check`). */
  describe(): ProviderDescription {
    const settings = this.#settings;
    return {
      name: this.name,
      model: settings.model,
      baseUrl: settings.baseUrl,
      apiKeySource: settings.apiKeySource,
      timeoutSeconds: settings.timeoutSeconds,
      streamTimeoutSeconds: settings.streamTimeoutSeconds,
      maxTokens: settings.maxTokens,
      parseTextToolCalls: settings.parseTextToolCalls,
    };
  }

  toJSON(): ProviderDescription {
    return this.describe();
  }

  checkConfiguration(): readonly ProviderCheck[] {
    return this.#format.check(this.#settings);
  }

  complete(request: CompletionRequest): AsyncIterable<ProviderEvent> {
    const guarded = guardStream((signal) => this.#stream(request, signal), {
      provider: this.name,
      signal: request.signal,
      timeoutSeconds: this.#settings.timeoutSeconds,
      streamTimeoutSeconds: this.#settings.streamTimeoutSeconds,
    });
    return this.#settings.parseTextToolCalls ? recognizeTextToolCalls(guarded, request.tools, this.#settings.newId) : guarded;
  }

  async *#stream(request: CompletionRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent, void, undefined> {
    const failure = this.#format.precondition?.(this.#settings);
    if (failure !== undefined) throw failure;
    const { url, headers, body } = this.#format.request(request, this.#settings);
    const stream = await postJson({ provider: this.name, fetch: this.#settings.fetch, url, headers, body, signal, ...(this.#format.notRunningHint === undefined ? {} : { notRunningHint: this.#format.notRunningHint }) });
    const decoder = this.#format.decoder(this.#settings);
    const splitter = this.#format.framing === 'sse' ? new SseSplitter() : new NdjsonSplitter();
    const out: ProviderEvent[] = [];
    for await (const record of readRecords(this.name, stream, splitter, signal)) {
      decoder.push(record.data, record.event, out);
      for (const event of out) yield event;
      out.length = 0;
      if (decoder.finished) break;
    }
    if (!decoder.finished && signal.aborted) throw signal.reason;
    decoder.end(out);
    for (const event of out) yield event;
    if (!decoder.finished) throw streamCut(this.name, 'its terminal event');
  }
}

/** Parses one JSON record or fails with `provider_bad_response`. */
export function parseRecord(provider: string, data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch (error) {
    throw new ProviderError('provider_bad_response', `The ${provider} provider sent a stream record that is not JSON.`, {
      provider,
      body: data,
      cause: error,
    });
  }
}
