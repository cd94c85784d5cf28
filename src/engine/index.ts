/** The engine: threads, turns and runs over a store, the model tool loop, confirmations, bounds, retries, cancel. */
export { createEngine } from './engine.js';
export type { Engine, EngineOptions, SendRequest, ConfirmRequest, CancelRequest, RetryRequest, AnswerRequest } from './engine.js';
export type { ThreadView, QueueChange, ThreadState, ThreadPageRequest, ThreadPageView, ItemPageRequest, ItemPageView, QueuedView } from './thread/index.js';
export { maxPageItems, maxPageBytes, generatedTitle, withRunIds } from './thread/index.js';
export type { RunItem, TurnProjection } from './thread/index.js';
export { collect, isSuperseded, withoutSuperseded, stopRequestOf, runIdOf, runPhases, RunReader } from './shared/index.js';
export type { StopMode, StopRequest } from './shared/index.js';
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
  TimeoutDetail,
  PhaseEvent,
  RunPhase,
  PlanEvent,
  PlanStepView,
  TaskStatusEvent,
  QueuedEvent,
  UnqueuedEvent,
  SteerEvent,
  QuestionEvent,
  QuestionChoice,
} from './shared/index.js';
// The planned port is planned's (the side the engine calls); re-exported for hosts that import it from the engine.
export type { Coverage, PlannedEvent, PlannedOutcome, PlannedPort, PlannedRunner, TaskStatus } from '../planned/index.js';
export type { EngineReader, AnswerRenderer, AnswerInput, StepOutcome } from './turn/index.js';
export { engineErrorCodes } from './shared/index.js';
export type { EngineErrorCode } from './shared/index.js';
export { engineSettingsSchema, parseEngineSettings } from './settings.js';
export type { EngineSettings, EngineSettingsInput } from './settings.js';
export type { EngineHooks, HookListener, HookName, HookPayloads, Logger } from './shared/index.js';
export { buildSystemPrompt, compactionLimit, groundingRules, pageContextLimits, parsePageContext } from './context/index.js';
export type { PageContext, PageContextInput, PageContextItem, PageReference } from './context/index.js';
export { isTimeZone } from './shared/index.js';
export { recoverInterruptedTurns, classifyInterrupted } from './recovery/index.js';
export { storeConfirmations } from './turn/index.js';
export type { ConfirmationBinding } from './turn/index.js';
// The app reader lives in the reading layer; re-exported here for hosts that import it from the engine.
export { createAppReader, type ActorRow, type AppReader, type AppReaderOptions } from '../reading/index.js';
