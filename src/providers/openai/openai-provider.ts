import { classifyHttpFailure } from '../provider-error.js';
import type { ProviderError } from '../provider-error.js';
import { apiKeyRequired } from '../http/api-key.js';
import { resolveSettings } from '../adapter-settings.js';
import type { AdapterSettings, ResolvedSettings } from '../adapter-settings.js';
import { HttpProvider, parseRecord } from '../http/http-provider.js';
import type { StreamDecoder, WireFormat } from '../http/http-provider.js';
import { ToolCallAssembler } from '../tool-call-assembler.js';
import type { CompletionRequest, FinishReason, ProviderEvent } from '../protocol.js';
import { toOpenAiMessages, toOpenAiTools } from './openai-messages.js';

export const OPENAI_DEFAULTS = {
  provider: 'openai',
  model: 'gpt-4.1-mini',
  baseUrl: 'https://api.openai.com/v1',
  envKeys: ['OPENAI_API_KEY'],
} as const;

/** OpenAI Chat Completions, or any server speaking it (vLLM, llama.cpp, LM Studio, Ollama `/v1`, OpenRouter). */
export function createOpenAiProvider(settings: AdapterSettings = {}): HttpProvider {
  return new HttpProvider(openAiFormat, resolveSettings(settings, OPENAI_DEFAULTS));
}

function isOfficial(settings: ResolvedSettings): boolean {
  return new URL(settings.baseUrl).hostname === 'api.openai.com';
}

export const openAiFormat: WireFormat = {
  name: 'openai',
  framing: 'sse',
  request(request: CompletionRequest, settings: ResolvedSettings) {
    const body: Record<string, unknown> = {
      model: settings.model,
      messages: toOpenAiMessages(request.messages),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools.length > 0) body.tools = toOpenAiTools(request.tools);
    const maxTokens = request.maxOutputTokens ?? settings.maxTokens;
    // OpenAI itself deprecated max_tokens for max_completion_tokens; compatible servers know max_tokens.
    if (maxTokens !== undefined) body[isOfficial(settings) ? 'max_completion_tokens' : 'max_tokens'] = maxTokens;
    const headers: Record<string, string> = { accept: 'text/event-stream', ...settings.headers };
    if (settings.apiKey !== undefined) headers.authorization = `Bearer ${settings.apiKey}`;
    return { url: `${settings.baseUrl}/chat/completions`, headers, body };
  },
  decoder: (settings) => new OpenAiDecoder(settings.newId),
  // A compatible server (vLLM, llama.cpp, a local proxy) often needs no key; OpenAI itself does.
  ...apiKeyRequired('openai', 'No OpenAI API key: set apiKey or OPENAI_API_KEY.', isOfficial),
};

interface OpenAiChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string; code?: string | number; type?: string };
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

/** Reads `data: {chunk}` records up to `data: [DONE]`. */
export class OpenAiDecoder implements StreamDecoder {
  finished = false;
  readonly #calls: ToolCallAssembler;
  #finishReason: FinishReason | undefined;
  #inputTokens = 0;
  #outputTokens = 0;

  constructor(newId: () => string) {
    this.#calls = new ToolCallAssembler(newId);
  }

  push(data: string, _event: string | undefined, out: ProviderEvent[]): void {
    if (data === '[DONE]') {
      this.#finish(out);
      return;
    }
    const chunk = parseRecord('openai', data) as OpenAiChunk;
    if (chunk.error !== undefined) throw inStreamError(chunk.error, data);
    if (chunk.usage != null) {
      this.#inputTokens = chunk.usage.prompt_tokens ?? this.#inputTokens;
      this.#outputTokens = chunk.usage.completion_tokens ?? this.#outputTokens;
    }
    const choice = chunk.choices?.[0];
    if (choice === undefined) return;
    const delta = choice.delta;
    if (delta !== undefined) {
      if (typeof delta.content === 'string' && delta.content !== '') out.push({ type: 'text', text: delta.content });
      if (delta.tool_calls !== undefined) {
        for (const call of delta.tool_calls) this.#calls.add(call.index ?? 0, call.id, call.function?.name, call.function?.arguments);
      }
    }
    if (typeof choice.finish_reason === 'string') this.#finishReason = FINISH[choice.finish_reason] ?? 'other';
  }

  end(out: ProviderEvent[]): void {
    // Some compatible servers close after the finish reason without `[DONE]`: that is complete.
    if (!this.finished && this.#finishReason !== undefined) this.#finish(out);
  }

  #finish(out: ProviderEvent[]): void {
    const hadCalls = this.#calls.size > 0;
    this.#calls.flush(out);
    out.push({ type: 'usage', inputTokens: this.#inputTokens, outputTokens: this.#outputTokens });
    out.push({ type: 'done', finishReason: this.#finishReason ?? (hadCalls ? 'tool_calls' : 'stop') });
    this.finished = true;
  }
}

function inStreamError(error: NonNullable<OpenAiChunk['error']>, data: string): ProviderError {
  const status = typeof error.code === 'number' ? error.code : error.type === 'rate_limit_error' || error.code === 'rate_limit_exceeded' ? 429 : error.code === 'context_length_exceeded' ? 400 : 500;
  return classifyHttpFailure({ provider: 'openai', status, body: data });
}
