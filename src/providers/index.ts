export type {
  ChatMessage,
  CompletionRequest,
  FinishReason,
  Provider,
  ProviderCheck,
  ProviderEvent,
  ProviderSettingsView,
  ToolCallPart,
  ToolDefinition,
} from './protocol.js';
export { describeProvider, providerSummary } from './provider-view.js';
export { providersErrorCodes } from './errors.js';
export type { ProvidersErrorCode } from './errors.js';
export {
  ProviderError,
  isProviderError,
  classifyHttpFailure,
  parseRetryAfter,
  extractProviderMessage,
} from './provider-error.js';
export type { ProviderErrorOptions, ProviderFailureCode, HttpFailure, StreamTimeout } from './provider-error.js';
export {
  guardStream,
  withStreamGuard,
  DEFAULT_TIMEOUT_SECONDS,
  DEFAULT_STREAM_TIMEOUT_SECONDS,
} from './stream-guard.js';
export type { GuardOptions, StreamTimeouts } from './stream-guard.js';
export { createScriptedProvider, loadScript } from './scripted/scripted-provider.js';
export type { ScriptedProvider, ScriptedRequest } from './scripted/scripted-provider.js';
export { scriptSchema } from './scripted/script-schema.js';
export type { Script, ScriptInput, ScriptedCompletion, ScriptedWhen } from './scripted/script-schema.js';
export { createOpenAiProvider, OPENAI_DEFAULTS, OpenAiDecoder } from './openai/openai-provider.js';
export { toOpenAiMessages, fromOpenAiMessages, toOpenAiTools } from './openai/openai-messages.js';
export type { OpenAiMessage, OpenAiTool, OpenAiToolCall } from './openai/openai-messages.js';
export { HttpProvider } from './http/http-provider.js';
export type { StreamDecoder, WireFormat, ProviderDescription } from './http/http-provider.js';
export type { AdapterSettings, ResolvedSettings } from './adapter-settings.js';
export { parseTextToolCall, recognizeTextToolCalls } from './text-tool-calls.js';
export { ToolCallAssembler } from './tool-call-assembler.js';
export { createAnthropicProvider, ANTHROPIC_DEFAULTS, ANTHROPIC_VERSION, AnthropicDecoder } from './anthropic/anthropic-provider.js';
export { toAnthropicMessages, fromAnthropicMessages, toAnthropicTools } from './anthropic/anthropic-messages.js';
export type { AnthropicBlock, AnthropicMessage, AnthropicTool } from './anthropic/anthropic-messages.js';
export { createOllamaProvider, OLLAMA_DEFAULTS, OllamaDecoder } from './ollama/ollama-provider.js';
export { toOllamaMessages, fromOllamaMessages, toOllamaTools } from './ollama/ollama-messages.js';
export type { OllamaMessage, OllamaTool, OllamaToolCall } from './ollama/ollama-messages.js';
export { createGeminiProvider, GEMINI_DEFAULTS, GeminiDecoder } from './gemini/gemini-provider.js';
export { toGeminiContents, fromGeminiContents, toGeminiTools } from './gemini/gemini-messages.js';
export type { GeminiContent, GeminiPart, GeminiTools } from './gemini/gemini-messages.js';
export { createAiSdkProvider, toAiSdkPrompt, toAiSdkTools, classifyAiSdkError } from './ai-sdk/ai-sdk-provider.js';
export type { AiSdkProviderOptions } from './ai-sdk/ai-sdk-provider.js';
export { createProvider, BUILTIN_PROVIDERS } from './create-provider.js';
export type { ProviderConfig, BuiltinProviderName } from './create-provider.js';
export { validateProviderEvents } from './validate-events.js';
export { abortableSleep } from './abortable-sleep.js';
