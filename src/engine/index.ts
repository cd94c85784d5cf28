/** The engine: threads, turns and runs over a store, the model tool loop, confirmations, bounds, retries, cancel. */
export { createEngine } from './engine.js';
export type { Engine, EngineOptions, SendRequest, ConfirmRequest, CancelRequest, RetryRequest, ThreadView, AnswerRequest, QueueChange } from './engine.js';
export type { ThreadState, ThreadPageRequest, ThreadPageView, ItemPageRequest, ItemPageView, QueuedView } from './thread-ops.js';
export { maxPageItems, maxPageBytes, generatedTitle } from './thread-ops.js';
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
  TaskStatusEvent,
  QueuedEvent,
  UnqueuedEvent,
  SteerEvent,
  QuestionEvent,
  QuestionChoice,
} from './events.js';
export type { Coverage, PlannedEvent, PlannedOutcome, PlannedPort, PlannedRunner, TaskStatus } from './planned-port.js';
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
// The app reader lives in the reading layer; re-exported here for hosts that import it from the engine.
export { createAppReader, type ActorRow, type AppReader, type AppReaderOptions } from '../reading/index.js';
