/** The engine: threads, turns and runs over a store, the model tool loop, confirmations, bounds, retries, cancel. */
export { createEngine } from './engine.js';
export type { Engine, EngineOptions, SendRequest, ConfirmRequest, CancelRequest, RetryRequest, ThreadView } from './engine.js';
export { collect } from './events.js';
export type {
  ChatEvent,
  ChatEventType,
  Collected,
  ToolCallEvent,
  ToolResultEvent,
  TextChunkEvent,
  ConfirmMutationEvent,
  DoneEvent,
  ErrorEvent,
  RetryEvent,
  PlanEvent,
  PlanStepView,
} from './events.js';
export type { EngineReader, AnswerRenderer, AnswerInput, StepOutcome } from './router-types.js';
export { engineErrorCodes } from './errors.js';
export type { EngineErrorCode } from './errors.js';
export { engineSettingsSchema, parseEngineSettings } from './settings.js';
export type { EngineSettings, EngineSettingsInput } from './settings.js';
export type { EngineHooks, HookListener, HookName, HookPayloads, Logger } from './hooks.js';
export { buildSystemPrompt, groundingRules } from './system-prompt.js';
export { recoverInterruptedTurns, classifyInterrupted } from './restart.js';
export { storeConfirmations } from './confirmation-adapter.js';
export type { ConfirmationBinding } from './confirmation-adapter.js';
export { createAppReader, type AppReader, type AppReaderOptions } from './reading/index.js';
