import type { ErrorCatalogue } from '../../core/index.js';
import { plannedErrorCodes } from '../../planned/index.js';

/**
 * Every code the engine answers with, in `error` events, failed turns and thrown misuse.
 * Provider failures keep the providers folder's codes (`provider_timeout`, …) and tool results
 * keep the tools folder's codes. Documented in docs/engine.md under "Error codes".
 */
export const engineErrorCodes = {
  bad_message: 'The text of a turn is missing or blank, the request key is missing, or the language is not one the router reads.',
  invalid_context: 'The page context of a message (references, context, supplementalContext) does not match its shape or bounds; the message says which field and bound.',
  context_not_queued: 'The thread is still answering, and a message with page context cannot wait in its queue; send it once the answer ends.',
  invalid_time_zone: 'The time zone is not an IANA time zone name the runtime knows (such as Europe/Lisbon or UTC).',
  session_required: 'An anonymous actor without a session key cannot own a thread.',
  thread_not_found: 'No thread with that id belongs to the actor (another owner\'s thread looks the same).',
  turn_not_found: 'No turn with that id belongs to the actor.',
  request_conflict: 'The request key was already used for a turn with different text.',
  turn_in_progress: 'The thread already has an active turn (accepted, running or waiting) and its queue is full (maxQueuedMessages; 0: no queue).',
  lease_lost: 'The engine renewed its journal lease too late (the process stalled past leaseSeconds); its running turns moved to a new lease, and any another engine had already ended were stopped.',
  server_busy: 'maxWaitingTurns accepted turns are already waiting for a slot; the message was not accepted. Try again shortly.',
  confirmation_unavailable: 'The confirmation is unknown, not the actor\'s, or its turn is no longer waiting for it.',
  question_unavailable: 'The question is unknown, not the actor\'s, already answered, or its turn no longer waits for it.',
  bad_answer: 'The answer is blank, or not one of the question\'s choices when it takes no other answer.',
  queued_message_unavailable: 'The queued message is unknown, not the actor\'s, already run or removed, or no longer holds the expected text.',
  no_provider: 'The turn needs a model and the engine has no provider configured.',
  tool_retry_limit: 'The turn reached maxRetriesPerMessage read (non-mutation) tool calls; no further call runs.',
  tool_failure_limit: 'The turn exceeded maxFailedCallsPerMessage failed tool calls.',
  mutation_limit: 'The turn reached maxMutationsPerMessage write executions; no further write runs.',
  turn_limit: 'The turn reached maxTotalRoundsPerMessage provider rounds; no further round starts.',
  mutation_batch_unsupported: 'A completion asked for a write together with another tool call; none of them ran.',
  tool_argument_correction_exhausted: 'The model sent invalid tool arguments again after two corrections.',
  tool_repetition: 'The model kept repeating the same tool call with the same arguments.',
  duplicate_call: 'A tool result: the model asked again, in the same turn, for a write that already succeeded with the same arguments; it was not run again.',
  cancelled: 'The turn was cancelled.',
  interrupted: 'The process stopped while the turn was running; no write was in flight, so it can be retried.',
  effect_outcome_unknown: 'A write was running when the turn stopped; its outcome is unknown, it is never re-run and the turn cannot be retried.',
  not_retryable: 'Only the latest turn that a person stopped, or that failed with interrupted, deadline_exceeded, rate_limited or a provider failure, can be retried; the event\'s reason says why not (effect_outcome_unknown, not_latest, active, completed, or its failure code).',
  not_regenerable: 'Only the latest turn of a conversation, once it completed, can have its answer regenerated; the event\'s reason says why not (not_latest, active, not_completed).',
  bad_cursor: 'A page was asked for with a cursor, ordinal or limit that no page gives (a cursor of another list, a negative ordinal, a limit that is not a positive whole number).',
  bad_title: 'A thread title must be text of 1 to 200 characters.',
  fork_point_invalid: 'A thread is forked from one of its messages: the id of a user_text or assistant_text item of that thread.',
  deadline_exceeded: plannedErrorCodes.deadline_exceeded,
  rate_limited: 'The actor exceeded a request or token budget; retry after retry_after_seconds.',
  confirmation_required_transport: 'The write needs a confirmation and plain HTTP cannot pause; use SSE or WebSocket.',
  tool_refused: 'A tool result: the router\'s tool check refused a call the model proposed (the reason says why); it was not run.',
  missing_identity: 'A tool result: a router step needed an earlier step\'s result identity and that result gave none; it was not run.',
  chat_error: 'An unexpected internal failure; details went to the error hook.',
  invalid_engine_settings: 'The engine settings do not match their schema.',
  engine_closed: 'The engine was closed; create a new one.',
} as const satisfies ErrorCatalogue;

export type EngineErrorCode = keyof typeof engineErrorCodes;
