/**
 * `plumb-agent/client`: a typed client of a Plumb server's chat protocol for browsers and Node (fetch and
 * web streams only, no dependencies), and an adapter to the AI SDK's UI message stream so that
 * `useChat` can use a Plumb server as its backend.
 */
export { createPlumbClient } from './client.js';
export type { PlumbClient, PlumbClientOptions, TurnStream, CallOptions } from './client.js';
export { PlumbClientError, isPlumbClientError } from './client-error.js';
export { clientErrorCodes } from './errors.js';
export type { ClientErrorCode } from './errors.js';
export type { ExtraRoutes, RouteContext } from './routes.js';
export { readSse } from './sse.js';
export type {
  PlumbEvent,
  PlanEvent,
  ToolCallEvent,
  ToolResultEvent,
  TextChunkEvent,
  ConfirmMutationEvent,
  RetryEvent,
  PhaseEvent,
  RunPhase,
  DoneEvent,
  ErrorEvent,
  TurnInput,
  TurnAnswer,
  JsonValue,
  ThreadItem,
  ThreadRecord,
  ViewState,
  ViewEvent,
  ViewSnapshotEvent,
  ViewItemEvent,
  ViewTurnEvent,
  ViewPhaseEvent,
  TurnProjection,
  ViewResubscribeEvent,
  ViewDeletedEvent,
  ThreadViewEvent,
  CancelOutcome,
} from './protocol.js';
export { runningTurnEvents } from './view-turn.js';
export { confirmationSentence } from './confirmation-sentence.js';
export { toUiMessageChunks } from './ui-message-stream.js';
export type { UiStreamOptions } from './ui-message-stream.js';
export type { PlumbUiChunk, PlumbMessageMetadata, PlumbConfirmationData } from './ui-chunks.js';
export { plumbChatTransport } from './chat-transport.js';
export type { PlumbChatTransport, PlumbChatTransportOptions, UiMessageLike } from './chat-transport.js';
