import type { JsonValue } from '../core/index.js';

/**
 * The model protocol: provider-neutral messages in, a stream of events out. Every adapter
 * (OpenAI-compatible, Anthropic, Ollama, Gemini, scripted, an AI SDK model) speaks exactly this.
 */

/** A tool call the model made, its arguments kept as the model's JSON text. */
export interface ToolCallPart {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /**
   * Opaque provider state that must travel back with this call in later requests (e.g. Gemini's
   * `thoughtSignature`). Optional: keep it with the call in the journal when present.
   */
  readonly providerData?: Readonly<Record<string, JsonValue>>;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCallPart[] }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly name: string;
      /** The tool's JSON result (or `{ error: { code, message } }`), kept as structured data. */
      readonly result: JsonValue;
    };

/** A tool as a model sees it: name, description, and a JSON Schema object for its arguments. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | 'other';

export type ProviderEvent =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_call';
      readonly id: string;
      readonly name: string;
      readonly arguments: string;
      /** Opaque provider state to send back with the call (see `ToolCallPart.providerData`). */
      readonly providerData?: Readonly<Record<string, JsonValue>>;
    }
  | { readonly type: 'usage'; readonly inputTokens: number; readonly outputTokens: number }
  | { readonly type: 'done'; readonly finishReason: FinishReason };

export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly signal: AbortSignal;
  readonly maxOutputTokens?: number;
}

/** One problem found by `checkConfiguration` (reported by `plumb check`). */
export interface ProviderCheck {
  readonly code: string;
  readonly message: string;
}

/**
 * A provider's configuration as it may be shown (`plumb check`, the audit, a log): the model, where
 * it is reached and its limits. Never a key nor a header's value: only where a key came from.
 */
export interface ProviderSettingsView {
  readonly name: string;
  readonly model: string;
  readonly baseUrl?: string | undefined;
  /** `apiKey`, or the environment variable the key was read from; undefined when there is none. */
  readonly apiKeySource?: string | undefined;
  readonly timeoutSeconds?: number | undefined;
  readonly streamTimeoutSeconds?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly parseTextToolCalls?: boolean | undefined;
}

export interface Provider {
  /** `openai`, `anthropic`, `ollama`, `gemini`, `scripted`, `ai-sdk`, or a custom name. */
  readonly name: string;
  readonly model: string;
  complete(request: CompletionRequest): AsyncIterable<ProviderEvent>;
  /** Problems with the configuration (missing key, bad base URL), without calling the network. */
  checkConfiguration(): readonly ProviderCheck[];
  /** The read-only view of its configuration; a custom provider without one is shown by name and model (`describeProvider`). */
  describe?(): ProviderSettingsView;
}
