import type { JsonObject, JsonValue } from '../../core/index.js';
import type { ValueSource } from '../../answers/index.js';
import type { TurnPlan } from '../../router/index.js';
import type { PlanNext } from './journal.js';
import type { RunPhase } from './run-phase.js';

/**
 * The event vocabulary every caller sees, in order. Every event carries `thread_id`, `turn_id`
 * and `run_id` (the run of the turn it belongs to, `runIdOf`; empty with an empty `turn_id`, as
 * for a message queued before its turn); clients ignore fields they do not know.
 */
interface Base {
  readonly thread_id: string;
  readonly turn_id: string;
  readonly run_id: string;
}

export interface ToolCallEvent extends Base {
  readonly type: 'tool_call';
  readonly id: string;
  readonly name: string;
  /** The parsed arguments, or the model's raw text when it was not JSON. */
  readonly args: JsonValue;
  /** In a planned turn: the task the call reads for. */
  readonly task_id?: string;
}
export interface ToolResultEvent extends Base {
  readonly type: 'tool_result';
  readonly id: string;
  readonly name: string;
  readonly result: JsonValue;
  /** In a planned turn: the task the call read for. */
  readonly task_id?: string;
}
export interface TextChunkEvent extends Base {
  readonly type: 'text_chunk';
  readonly content: string;
  /** A router answer's values and where each came from: offsets in `content`, step, row, field (docs/protocol.md). */
  readonly provenance?: readonly ValueSource[];
}
export interface ConfirmMutationEvent extends Base {
  readonly type: 'confirm_mutation';
  /** The confirmation id to answer with `engine.confirm`. */
  readonly id: string;
  readonly mutation: string;
  readonly input: JsonValue;
  readonly expires_at: string;
  /**
   * For a write the router planned: the sentence the person confirms, in the turn's language; for an
   * irreversible step followed by writes it ends with the warning that those writes cannot undo it.
   */
  readonly message?: string;
}
export interface DoneEvent extends Base {
  readonly type: 'done';
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number };
  /** A planned turn: how many of its plan's tasks the answer stands on, and the ids of the others. */
  readonly coverage?: { readonly resolved: number; readonly total: number; readonly unresolved: readonly string[] };
  /** A planned turn that needs the person to choose: the question (also the turn's text) and its choices. */
  readonly clarification?: { readonly question: string; readonly choices: readonly string[] };
  /** The answer was cut at the model's length limit, and cut again when it was asked to continue: it is incomplete. */
  readonly truncated?: true;
}
/** A planned turn's task changed status (`pending` with its goal, then running, resolved, blocked…). */
export interface TaskStatusEvent extends Base {
  readonly type: 'task_status';
  readonly task_id: string;
  readonly status: 'pending' | 'running' | 'resolved' | 'blocked' | 'budget_exhausted' | 'failed';
  readonly goal?: string;
}
export interface ErrorEvent extends Base {
  readonly type: 'error';
  readonly code: string;
  readonly message: string;
  readonly retry_after_seconds?: number;
  /** `not_retryable`: why (`effect_outcome_unknown`, `not_latest`, `active`, `completed`, or the failure's own code); `not_regenerable`: `not_latest`, `active` or `not_completed`. */
  readonly reason?: string;
}
/** A provider attempt failed and another starts: drop the text shown since the last round began. */
export interface RetryEvent extends Base {
  readonly type: 'retry';
  /** This retry's number, from 1, of at most `limit` (`retry.maxAttempts`). */
  readonly attempt: number;
  readonly limit: number;
  /** The failure's code (`provider_timeout`, `provider_rate_limited`, …). */
  readonly code: string;
  /** Why, in words a console shows: `rate limited`, `timed out waiting for the first byte`, … */
  readonly reason: string;
  readonly delay_ms: number;
  /** When the next attempt starts: ISO 8601, the engine's clock. */
  readonly next_at: string;
  /** A timeout's stage and how long it waited, in milliseconds. */
  readonly timeout?: TimeoutDetail;
}
/** Which clock ran out: before the first event, between two events, or a tool's. */
export interface TimeoutDetail {
  readonly stage: 'first_byte' | 'between_events' | 'attempt' | 'tool';
  readonly elapsed_ms: number;
}
/** The run's phase changed (sent on a change only, never repeated). */
export interface PhaseEvent extends Base {
  readonly type: 'phase';
  readonly phase: RunPhase;
}

/** A message sent while its thread was busy waits in the thread's queue; `position` counts from 1 at the head. */
export interface QueuedEvent extends Base {
  readonly type: 'queued';
  readonly queue_id: string;
  readonly position: number;
  readonly text: string;
}
/**
 * A queued message left the queue: `started` (its own turn's events follow) or `removed`;
 * `steered` only in the replay of a journal written when a message sent now joined the running turn.
 */
export interface UnqueuedEvent extends Base {
  readonly type: 'unqueued';
  readonly queue_id: string;
  readonly reason: 'started' | 'steered' | 'removed';
}
/** Replayed from journals written when a message sent now joined the running turn: show it as the person's. */
export interface SteerEvent extends Base {
  readonly type: 'steer';
  readonly queue_id: string;
  readonly text: string;
}
export interface QuestionChoice {
  readonly id: string;
  readonly label: string;
  /** What answering with this choice says. */
  readonly value: string;
  readonly description?: string;
}
/**
 * The turn asks the person. `source` `model` (the `ask_user` tool) or `tool` (a host tool's
 * question): the turn waits until it is answered with its `id`. `router`: the router asked for what
 * it could not read; the turn is over, and the thread's next message (or an answer) replies to it.
 */
export interface QuestionEvent extends Base {
  readonly type: 'question';
  readonly id: string;
  readonly text: string;
  readonly choices: readonly QuestionChoice[];
  /** Whether an answer other than the choices is taken. */
  readonly free_text: boolean;
  readonly source: 'model' | 'tool' | 'router';
  readonly header?: string;
}

/** How the router read the turn (router-first turns only), before any step runs. */
export interface PlanEvent extends Base {
  readonly type: 'plan';
  readonly outcome: 'run' | 'ask' | 'declined' | 'unread';
  /** What the engine does with it: runs it, asks, declines, asks to rephrase, refuses, or hands it to the model. */
  readonly next: PlanNext;
  /** A write in the plan that the actor may not make: the turn answers with the refusal and runs nothing. */
  readonly refused?: { readonly tool: string; readonly code: string };
  readonly language: string;
  readonly steps: readonly PlanStepView[];
}
export interface PlanStepView {
  readonly kind: string;
  /** The words of the turn the step read. */
  readonly text: string;
  readonly tool: string | null;
  readonly arguments: JsonObject;
}

export type ChatEvent =
  | PlanEvent
  | ToolCallEvent
  | ToolResultEvent
  | TaskStatusEvent
  | TextChunkEvent
  | ConfirmMutationEvent
  | DoneEvent
  | ErrorEvent
  | RetryEvent
  | PhaseEvent
  | QueuedEvent
  | UnqueuedEvent
  | SteerEvent
  | QuestionEvent;
export type ChatEventType = ChatEvent['type'];

/** What `collect` gathers: every event, and the answer text as a client would show it. */
export interface Collected {
  readonly events: readonly ChatEvent[];
  readonly answer: string;
}

/**
 * Reads a turn's events to the end. The answer is the text after the last tool call: text that
 * preceded a tool call was a preamble, and text shown before a `retry` belonged to a failed attempt.
 */
export async function collect(events: AsyncIterable<ChatEvent>): Promise<Collected> {
  const all: ChatEvent[] = [];
  let answer = '';
  for await (const event of events) {
    all.push(event);
    if (event.type === 'text_chunk') answer += event.content;
    else if (event.type === 'retry' || event.type === 'tool_call') answer = '';
  }
  return { events: all, answer };
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as a run emits it: the run stamps its thread, turn and run. */
export type RunEvent = DistributiveOmit<ChatEvent, 'thread_id' | 'turn_id' | 'run_id'>;

/** Parses a model's argument text for events and hooks; the raw text when it is not JSON. */
export function parsedArguments(text: string): JsonValue {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** `mutate` names its mutation and input; any other tool is its own mutation with its arguments. */
export function describeMutation(tool: string, args: JsonValue): { mutation: string; input: JsonValue } {
  if (tool === 'mutate' && args !== null && typeof args === 'object' && !Array.isArray(args)) {
    const record = args as Readonly<Record<string, JsonValue>>;
    if (typeof record.mutation === 'string') return { mutation: record.mutation, input: record.input ?? {} };
  }
  return { mutation: tool, input: args };
}

/** The `plan` event of a plan: its outcome, what follows, language and each step's kind, words, tool and arguments. */
export function planEventOf(plan: TurnPlan, next: PlanNext, refused?: { readonly tool: string; readonly code: string }): Omit<PlanEvent, 'thread_id' | 'turn_id' | 'run_id'> {
  return {
    type: 'plan',
    outcome: plan.outcome,
    next,
    ...(refused === undefined ? {} : { refused }),
    language: plan.language,
    steps: plan.steps.map((step) => ({ kind: step.kind, text: step.text, tool: step.selection.tool, arguments: step.selection.arguments })),
  };
}
