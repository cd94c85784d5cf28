import type {
  JSONValue,
  LanguageModelV3,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import type { JsonValue } from '../../core/index.js';
import { PlumbError } from '../../core/index.js';
import { nanoid } from 'nanoid';
import { ProviderError, classifyHttpFailure, networkFailure } from '../provider-error.js';
import { guardStream, checkSeconds, DEFAULT_STREAM_TIMEOUT_SECONDS, DEFAULT_TIMEOUT_SECONDS } from '../stream-guard.js';
import { recognizeTextToolCalls } from '../text-tool-calls.js';
import type { ChatMessage, CompletionRequest, FinishReason, Provider, ProviderCheck, ProviderEvent, ToolDefinition } from '../protocol.js';

export interface AiSdkProviderOptions {
  readonly timeoutSeconds?: number;
  readonly streamTimeoutSeconds?: number;
  readonly parseTextToolCalls?: boolean;
  readonly newId?: () => string;
}

/**
 * Any Vercel AI SDK language model of specification `v3` (the one `ai@6` uses: `@ai-sdk/openai`,
 * `@ai-sdk/mistral`, `ollama-ai-provider-v2`, …) as a Plumb provider. Only types come from the AI
 * SDK: the model object brings its own code.
 */
export function createAiSdkProvider(model: LanguageModelV3, options: AiSdkProviderOptions = {}): Provider {
  if (typeof model !== 'object' || model === null || typeof (model as Partial<LanguageModelV3>).doStream !== 'function') {
    throw new PlumbError('provider_config_invalid', 'An AI SDK provider needs a language model object with doStream (specification v3, as ai@6 uses).');
  }
  if (model.specificationVersion !== 'v3') {
    throw new PlumbError(
      'provider_config_invalid',
      `The AI SDK model ${model.provider}/${model.modelId} implements specification '${String(model.specificationVersion)}'; Plumb reads 'v3' (ai@6 provider packages).`,
    );
  }
  const timeoutSeconds = checkSeconds('timeoutSeconds', options.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS);
  const streamTimeoutSeconds = checkSeconds('streamTimeoutSeconds', options.streamTimeoutSeconds, DEFAULT_STREAM_TIMEOUT_SECONDS);
  const newId = options.newId ?? (() => `call_${nanoid(16)}`);
  const name = 'ai-sdk';
  return {
    name,
    model: `${model.provider}/${model.modelId}`,
    checkConfiguration: (): readonly ProviderCheck[] => [],
    describe: () => ({ name, model: `${model.provider}/${model.modelId}`, timeoutSeconds, streamTimeoutSeconds, parseTextToolCalls: options.parseTextToolCalls === true }),
    complete(request: CompletionRequest): AsyncIterable<ProviderEvent> {
      const guarded = guardStream((signal) => streamModel(model, request, signal), { provider: name, signal: request.signal, timeoutSeconds, streamTimeoutSeconds });
      return options.parseTextToolCalls === true ? recognizeTextToolCalls(guarded, request.tools, newId) : guarded;
    },
  };
}

async function* streamModel(model: LanguageModelV3, request: CompletionRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent, void, undefined> {
  let stream: ReadableStream<LanguageModelV3StreamPart>;
  try {
    const result = await model.doStream({
      prompt: toAiSdkPrompt(request.messages),
      tools: request.tools.length === 0 ? undefined : toAiSdkTools(request.tools),
      maxOutputTokens: request.maxOutputTokens,
      abortSignal: signal,
    });
    stream = result.stream;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw classifyAiSdkError(error);
  }
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const event = mapPart(value);
      if (event === undefined) continue;
      if (Array.isArray(event)) yield* event;
      else yield event;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error instanceof PlumbError ? error : classifyAiSdkError(error);
  } finally {
    reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'error',
  other: 'other',
};

function mapPart(part: LanguageModelV3StreamPart): ProviderEvent | ProviderEvent[] | undefined {
  switch (part.type) {
    case 'text-delta':
      return part.delta === '' ? undefined : { type: 'text', text: part.delta };
    case 'tool-call':
      if (part.providerExecuted === true) return undefined;
      return {
        type: 'tool_call',
        id: part.toolCallId,
        name: part.toolName,
        arguments: part.input.trim() === '' ? '{}' : part.input,
        // What the model attached to its call (e.g. a thought signature) goes back as providerOptions.
        ...(part.providerMetadata === undefined ? {} : { providerData: { aiSdkProviderMetadata: part.providerMetadata as JsonValue } }),
      };
    case 'finish': {
      const reason = typeof part.finishReason === 'string' ? (part.finishReason as string) : part.finishReason.unified;
      return [
        { type: 'usage', inputTokens: part.usage.inputTokens.total ?? 0, outputTokens: part.usage.outputTokens.total ?? 0 },
        { type: 'done', finishReason: FINISH[reason] ?? 'other' },
      ];
    }
    case 'error':
      throw classifyAiSdkError(part.error);
    default:
      // text-start/end, reasoning, tool-input-* (the whole call follows), sources, metadata, raw.
      return undefined;
  }
}

interface ApiCallErrorLike {
  message?: string;
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  isRetryable?: boolean;
}

/** An AI SDK failure (`APICallError` carries status, headers and body) as a classified `ProviderError`. */
export function classifyAiSdkError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const like = (typeof error === 'object' && error !== null ? error : {}) as ApiCallErrorLike;
  if (typeof like.statusCode === 'number') {
    const classified = classifyHttpFailure({ provider: 'ai-sdk', status: like.statusCode, headers: like.responseHeaders ?? {}, body: like.responseBody ?? JSON.stringify({ error: { message: like.message } }) });
    return classified;
  }
  if (like.isRetryable === true || (error instanceof TypeError && /fetch|network|socket/i.test(error.message))) return networkFailure('ai-sdk', error);
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError('provider_bad_response', 'The AI SDK model failed without an HTTP status.', { provider: 'ai-sdk', providerMessage: message, cause: error });
}

/** Provider-neutral history → an AI SDK v3 prompt. */
export function toAiSdkPrompt(messages: readonly ChatMessage[]): LanguageModelV3Message[] {
  return messages.map((message): LanguageModelV3Message => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: [{ type: 'text', text: message.content }] };
      case 'assistant':
        return {
          role: 'assistant',
          content: [
            ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]),
            ...(message.toolCalls ?? []).map((call) => {
              const metadata = call.providerData?.aiSdkProviderMetadata;
              const part = { type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: parseArguments(call.arguments) };
              return metadata === undefined ? part : { ...part, providerOptions: metadata as SharedV3ProviderOptions };
            }),
          ],
        };
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.name,
              output: isError(message.result) ? { type: 'error-json', value: message.result as JSONValue } : { type: 'json', value: message.result as JSONValue },
            },
          ],
        };
    }
  });
}

export function toAiSdkTools(tools: readonly ToolDefinition[]): LanguageModelV3FunctionTool[] {
  return tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.parameters }));
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { _raw: text };
  }
}

function isError(result: JsonValue): boolean {
  return typeof result === 'object' && result !== null && !Array.isArray(result) && 'error' in result;
}
