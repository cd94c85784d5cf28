import { classifyHttpFailure } from '../provider-error.js';
import { apiKeyRequired } from '../http/api-key.js';
import { resolveSettings } from '../adapter-settings.js';
import type { AdapterSettings, ResolvedSettings } from '../adapter-settings.js';
import { HttpProvider, parseRecord } from '../http/http-provider.js';
import type { StreamDecoder, WireFormat } from '../http/http-provider.js';
import { ToolCallAssembler } from '../tool-call-assembler.js';
import type { CompletionRequest, FinishReason, ProviderEvent } from '../protocol.js';
import { toAnthropicMessages, toAnthropicTools } from './anthropic-messages.js';

export const ANTHROPIC_DEFAULTS = {
  provider: 'anthropic',
  model: 'claude-3-5-haiku-latest',
  baseUrl: 'https://api.anthropic.com',
  envKeys: ['ANTHROPIC_API_KEY'],
  maxTokens: 1024,
} as const;

/** The Messages API version header this adapter speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic Messages API (`POST /v1/messages`, streamed). */
export function createAnthropicProvider(settings: AdapterSettings = {}): HttpProvider {
  return new HttpProvider(anthropicFormat, resolveSettings(settings, ANTHROPIC_DEFAULTS));
}

const MISSING_KEY = 'No Anthropic API key: set apiKey or ANTHROPIC_API_KEY.';

export const anthropicFormat: WireFormat = {
  name: 'anthropic',
  framing: 'sse',
  request(request: CompletionRequest, settings: ResolvedSettings) {
    const { system, messages } = toAnthropicMessages(request.messages);
    const body: Record<string, unknown> = {
      model: settings.model,
      max_tokens: request.maxOutputTokens ?? settings.maxTokens ?? ANTHROPIC_DEFAULTS.maxTokens,
      messages,
      stream: true,
    };
    if (system !== undefined) body.system = system;
    if (request.tools.length > 0) body.tools = toAnthropicTools(request.tools);
    const headers: Record<string, string> = { accept: 'text/event-stream', 'anthropic-version': ANTHROPIC_VERSION, ...settings.headers };
    if (settings.apiKey !== undefined) headers['x-api-key'] = settings.apiKey;
    return { url: `${settings.baseUrl}/v1/messages`, headers, body };
  },
  decoder: (settings) => new AnthropicDecoder(settings.newId),
  ...apiKeyRequired('anthropic', MISSING_KEY),
};

interface AnthropicEvent {
  type?: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string; text?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
};

/** The HTTP status an in-stream `error` event's type stands for. */
const ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** Reads `message_start` … `content_block_*` … `message_delta` up to `message_stop`. */
export class AnthropicDecoder implements StreamDecoder {
  finished = false;
  readonly #calls: ToolCallAssembler;
  #finishReason: FinishReason = 'stop';
  #inputTokens = 0;
  #outputTokens = 0;

  constructor(newId: () => string) {
    this.#calls = new ToolCallAssembler(newId);
  }

  push(data: string, event: string | undefined, out: ProviderEvent[]): void {
    const record = parseRecord('anthropic', data) as AnthropicEvent;
    switch (record.type ?? event) {
      case 'message_start':
        this.#usage(record.message?.usage);
        return;
      case 'content_block_start': {
        const block = record.content_block;
        if (block?.type === 'tool_use') this.#calls.add(record.index ?? 0, block.id, block.name, '');
        else if (block?.type === 'text' && block.text !== undefined && block.text !== '') out.push({ type: 'text', text: block.text });
        return;
      }
      case 'content_block_delta': {
        const delta = record.delta;
        if (delta?.type === 'text_delta' && delta.text !== undefined && delta.text !== '') out.push({ type: 'text', text: delta.text });
        else if (delta?.type === 'input_json_delta') this.#calls.add(record.index ?? 0, undefined, undefined, delta.partial_json ?? '');
        return;
      }
      case 'message_delta':
        if (typeof record.delta?.stop_reason === 'string') this.#finishReason = FINISH[record.delta.stop_reason] ?? 'other';
        this.#usage(record.usage);
        return;
      case 'message_stop':
        this.#calls.flush(out);
        out.push({ type: 'usage', inputTokens: this.#inputTokens, outputTokens: this.#outputTokens });
        out.push({ type: 'done', finishReason: this.#finishReason });
        this.finished = true;
        return;
      case 'error': {
        const status = ERROR_STATUS[record.error?.type ?? ''] ?? 500;
        throw classifyHttpFailure({ provider: 'anthropic', status, body: data });
      }
      default:
        // ping, content_block_stop and future event types carry nothing Plumb needs.
        return;
    }
  }

  end(_out: ProviderEvent[]): void {
    // Without message_stop the completion is incomplete: the provider turns that into a stream cut.
  }

  #usage(usage: AnthropicUsage | undefined): void {
    if (usage === undefined) return;
    if (usage.input_tokens !== undefined) {
      this.#inputTokens = usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
    }
    if (usage.output_tokens !== undefined) this.#outputTokens = usage.output_tokens;
  }
}
