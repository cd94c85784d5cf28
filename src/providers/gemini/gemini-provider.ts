import { classifyHttpFailure } from '../provider-error.js';
import { apiKeyRequired } from '../http/api-key.js';
import { resolveSettings } from '../adapter-settings.js';
import type { AdapterSettings, ResolvedSettings } from '../adapter-settings.js';
import { HttpProvider, parseRecord } from '../http/http-provider.js';
import type { StreamDecoder, WireFormat } from '../http/http-provider.js';
import { ToolCallAssembler } from '../tool-call-assembler.js';
import type { CompletionRequest, FinishReason, ProviderEvent } from '../protocol.js';
import { toGeminiContents, toGeminiTools } from './gemini-messages.js';

export const GEMINI_DEFAULTS = {
  provider: 'gemini',
  model: 'gemini-2.5-flash',
  baseUrl: 'https://generativelanguage.googleapis.com',
  envKeys: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
} as const;

/** Google's Generative Language API (`streamGenerateContent?alt=sse`). */
export function createGeminiProvider(settings: AdapterSettings = {}): HttpProvider {
  return new HttpProvider(geminiFormat, resolveSettings(settings, GEMINI_DEFAULTS));
}

const MISSING_KEY = 'No Gemini API key: set apiKey, GEMINI_API_KEY or GOOGLE_API_KEY.';

export const geminiFormat: WireFormat = {
  name: 'gemini',
  framing: 'sse',
  request(request: CompletionRequest, settings: ResolvedSettings) {
    const { systemInstruction, contents } = toGeminiContents(request.messages);
    const body: Record<string, unknown> = { contents };
    if (systemInstruction !== undefined) body.systemInstruction = systemInstruction;
    if (request.tools.length > 0) body.tools = toGeminiTools(request.tools);
    const maxTokens = request.maxOutputTokens ?? settings.maxTokens;
    if (maxTokens !== undefined) body.generationConfig = { maxOutputTokens: maxTokens };
    const headers: Record<string, string> = { accept: 'text/event-stream', ...settings.headers };
    if (settings.apiKey !== undefined) headers['x-goog-api-key'] = settings.apiKey;
    const model = settings.model.startsWith('models/') ? settings.model.slice('models/'.length) : settings.model;
    return { url: `${settings.baseUrl}/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`, headers, body };
  },
  decoder: (settings) => new GeminiDecoder(settings.newId),
  ...apiKeyRequired('gemini', MISSING_KEY),
};

interface GeminiChunk {
  candidates?: {
    content?: { parts?: { text?: string; thought?: boolean; thoughtSignature?: string; functionCall?: { id?: string; name?: string; args?: unknown } }[] };
    finishReason?: string;
  }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number };
  error?: { code?: number; message?: string; status?: string };
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'error',
};

/**
 * Reads `GenerateContentResponse` records. Gemini has no terminal record: the stream is complete
 * when a candidate carried a `finishReason` (or the prompt was blocked) before the body ended.
 */
export class GeminiDecoder implements StreamDecoder {
  finished = false;
  readonly #calls: ToolCallAssembler;
  #callCount = 0;
  #finishReason: FinishReason | undefined;
  #inputTokens = 0;
  #outputTokens = 0;

  constructor(newId: () => string) {
    this.#calls = new ToolCallAssembler(newId);
  }

  push(data: string, _event: string | undefined, out: ProviderEvent[]): void {
    const chunk = parseRecord('gemini', data) as GeminiChunk;
    if (chunk.error !== undefined) throw classifyHttpFailure({ provider: 'gemini', status: chunk.error.code ?? 500, body: data });
    const usage = chunk.usageMetadata;
    if (usage !== undefined) {
      this.#inputTokens = usage.promptTokenCount ?? this.#inputTokens;
      this.#outputTokens = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0) || this.#outputTokens;
    }
    if (chunk.promptFeedback?.blockReason !== undefined) this.#finishReason = 'content_filter';
    const candidate = chunk.candidates?.[0];
    if (candidate === undefined) return;
    for (const part of candidate.content?.parts ?? []) {
      if (part.functionCall !== undefined) {
        const args = part.functionCall.args;
        this.#calls.add(
          this.#callCount++,
          part.functionCall.id,
          part.functionCall.name,
          typeof args === 'string' ? args : JSON.stringify(args ?? {}),
          // Thinking models sign their calls; the signature must come back with the call.
          typeof part.thoughtSignature === 'string' ? { thoughtSignature: part.thoughtSignature } : undefined,
        );
      } else if (typeof part.text === 'string' && part.text !== '' && part.thought !== true) {
        out.push({ type: 'text', text: part.text });
      }
    }
    if (candidate.finishReason !== undefined && candidate.finishReason !== 'FINISH_REASON_UNSPECIFIED') {
      this.#finishReason = FINISH[candidate.finishReason] ?? 'other';
    }
  }

  end(out: ProviderEvent[]): void {
    if (this.#finishReason === undefined) return;
    const hadCalls = this.#calls.size > 0;
    this.#calls.flush(out);
    out.push({ type: 'usage', inputTokens: this.#inputTokens, outputTokens: this.#outputTokens });
    out.push({ type: 'done', finishReason: this.#finishReason === 'stop' && hadCalls ? 'tool_calls' : this.#finishReason });
    this.finished = true;
  }
}
