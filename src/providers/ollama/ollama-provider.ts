import { classifyHttpFailure } from '../provider-error.js';
import { resolveSettings } from '../adapter-settings.js';
import type { AdapterSettings, ResolvedSettings } from '../adapter-settings.js';
import { HttpProvider, parseRecord } from '../http/http-provider.js';
import type { StreamDecoder, WireFormat } from '../http/http-provider.js';
import type { CompletionRequest, FinishReason, ProviderEvent } from '../protocol.js';
import { toOllamaMessages, toOllamaTools } from './ollama-messages.js';

export const OLLAMA_DEFAULTS = {
  provider: 'ollama',
  model: 'gemma4:e4b',
  baseUrl: 'http://127.0.0.1:11434',
  envKeys: ['OLLAMA_API_KEY'],
} as const;

/** Ollama's native `POST /api/chat` (NDJSON stream). No key needed for a local server. */
export function createOllamaProvider(settings: AdapterSettings = {}): HttpProvider {
  return new HttpProvider(ollamaFormat, resolveSettings(settings, OLLAMA_DEFAULTS));
}

export const ollamaFormat: WireFormat = {
  name: 'ollama',
  framing: 'ndjson',
  request(request: CompletionRequest, settings: ResolvedSettings) {
    const body: Record<string, unknown> = { model: settings.model, messages: toOllamaMessages(request.messages), stream: true };
    if (request.tools.length > 0) body.tools = toOllamaTools(request.tools);
    const maxTokens = request.maxOutputTokens ?? settings.maxTokens;
    if (maxTokens !== undefined) body.options = { num_predict: maxTokens };
    const headers: Record<string, string> = { accept: 'application/x-ndjson', ...settings.headers };
    if (settings.apiKey !== undefined) headers.authorization = `Bearer ${settings.apiKey}`;
    return { url: `${settings.baseUrl}/api/chat`, headers, body };
  },
  decoder: (settings) => new OllamaDecoder(settings.newId),
  check: () => [],
  notRunningHint: 'Is `ollama serve` running?',
};

interface OllamaChunk {
  message?: {
    content?: string;
    tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
  };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

const FINISH: Readonly<Record<string, FinishReason>> = { stop: 'stop', length: 'length' };

/** Reads NDJSON chunks up to the one with `done: true`. Tool calls arrive whole, often without ids. */
export class OllamaDecoder implements StreamDecoder {
  finished = false;
  readonly #newId: () => string;
  #calls = 0;

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  push(data: string, _event: string | undefined, out: ProviderEvent[]): void {
    const chunk = parseRecord('ollama', data) as OllamaChunk;
    if (chunk.error !== undefined) throw classifyHttpFailure({ provider: 'ollama', status: 500, body: data });
    const message = chunk.message;
    if (message !== undefined) {
      if (typeof message.content === 'string' && message.content !== '') out.push({ type: 'text', text: message.content });
      for (const call of message.tool_calls ?? []) {
        const args = call.function?.arguments;
        this.#calls += 1;
        out.push({
          type: 'tool_call',
          id: call.id !== undefined && call.id !== '' ? call.id : this.#newId(),
          name: call.function?.name ?? '',
          arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
        });
      }
    }
    if (chunk.done === true) {
      out.push({ type: 'usage', inputTokens: chunk.prompt_eval_count ?? 0, outputTokens: chunk.eval_count ?? 0 });
      const reason = FINISH[chunk.done_reason ?? 'stop'] ?? 'other';
      out.push({ type: 'done', finishReason: reason === 'stop' && this.#calls > 0 ? 'tool_calls' : reason });
      this.finished = true;
    }
  }

  end(_out: ProviderEvent[]): void {
    // A stream without `done: true` is incomplete: the provider turns that into a stream cut.
  }
}
