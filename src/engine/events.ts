import type { JsonObject, JsonValue } from '../core/index.js';

/**
 * The event vocabulary every caller sees, in order. Every event carries `thread_id` and
 * `turn_id`; clients ignore fields they do not know.
 */
interface Base {
  readonly thread_id: string;
  readonly turn_id: string;
}

export interface ToolCallEvent extends Base {
  readonly type: 'tool_call';
  readonly id: string;
  readonly name: string;
  /** The parsed arguments, or the model's raw text when it was not JSON. */
  readonly args: JsonValue;
}
export interface ToolResultEvent extends Base {
  readonly type: 'tool_result';
  readonly id: string;
  readonly name: string;
  readonly result: JsonValue;
}
export interface TextChunkEvent extends Base {
  readonly type: 'text_chunk';
  readonly content: string;
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
}
export interface ErrorEvent extends Base {
  readonly type: 'error';
  readonly code: string;
  readonly message: string;
  readonly retry_after_seconds?: number;
}
/** A provider attempt failed and another starts: drop the text shown since the last round began. */
export interface RetryEvent extends Base {
  readonly type: 'retry';
  readonly attempt: number;
  readonly code: string;
  readonly delay_ms: number;
}

/** How the router read the turn (router-first turns only), before any step runs. */
export interface PlanEvent extends Base {
  readonly type: 'plan';
  readonly outcome: 'run' | 'ask' | 'declined' | 'unread';
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

export type ChatEvent = PlanEvent | ToolCallEvent | ToolResultEvent | TextChunkEvent | ConfirmMutationEvent | DoneEvent | ErrorEvent | RetryEvent;
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
