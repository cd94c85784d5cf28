/**
 * A run of a turn from its admission to its end: sending, resuming on a confirmation or an answer,
 * expiring, retrying and cancelling; the loop, its steps and decisions, the router-first and
 * planned strategies, the bounds, retries and deadlines.
 */
export { send, runQueued } from './admission.js';
export type { SendRequest } from './admission.js';
export { answer, confirm, ConfirmationExpiry } from './resumption.js';
export type { AnswerRequest, ConfirmRequest } from './resumption.js';
export { cancel, retry } from './retry.js';
export type { CancelRequest, RetryRequest } from './retry.js';
export { TurnRunner } from './runner.js';
export type { TurnHost } from './runner.js';
export { buildParts } from './parts.js';
export type { EngineParts } from './parts.js';
export { storeConfirmations } from './confirmation-adapter.js';
export type { ConfirmationBinding } from './confirmation-adapter.js';
export type { AnswerInput, AnswerRenderer, EngineReader, StepOutcome } from './router-types.js';
