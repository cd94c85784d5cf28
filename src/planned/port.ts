import type { Actor, JsonValue } from '../core/index.js';
import type { ChatMessage, Provider, ToolDefinition } from '../providers/index.js';

/**
 * The port between the engine and a planned read strategy: the engine calls it, so it lives on
 * this (the lower) side.
 *
 * What the engine gives a planned read strategy (`plumb-agent/planned`) for one turn the router left
 * unread: the turn, its read tools as the actor, and its outputs. The strategy never sees a write.
 */
export interface PlannedPort {
  readonly actor: Actor;
  /** The person's message. */
  readonly text: string;
  /** The conversation before it, for the planner's context. */
  readonly history: readonly ChatMessage[];
  readonly signal: AbortSignal;
  readonly clock: () => number;
  /** The read tools the executors may call (never `mutate`, never a write). */
  readonly tools: readonly ToolDefinition[];
  /** Runs one read tool as the actor, through the dispatcher; the result, or `{ error }`. */
  dispatch(call: { readonly id: string; readonly name: string; readonly arguments: JsonValue }): Promise<JsonValue>;
  /** A transport event (tool_call and tool_result with their task_id, task_status, text_chunk). */
  emit(event: PlannedEvent): Promise<void> | undefined;
  /** Journals a finished tool call and its result. */
  recordTool(call: { readonly taskId: string; readonly id: string; readonly name: string; readonly arguments: JsonValue; readonly result: JsonValue }): Promise<void>;
  addUsage(usage: { readonly inputTokens: number; readonly outputTokens: number }): void;
  /** An allow-listed, hashed diagnostic record for the audit. */
  audit?(record: Readonly<Record<string, JsonValue>>): void;
}

export type PlannedEvent =
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly args: JsonValue; readonly task_id: string }
  | { readonly type: 'tool_result'; readonly id: string; readonly name: string; readonly result: JsonValue; readonly task_id: string }
  | { readonly type: 'task_status'; readonly task_id: string; readonly status: TaskStatus; readonly goal?: string }
  | { readonly type: 'text_chunk'; readonly content: string };

export type TaskStatus = 'pending' | 'running' | 'resolved' | 'blocked' | 'budget_exhausted' | 'failed';

/** Which tasks a planned answer stands on. */
export interface Coverage {
  readonly resolved: number;
  readonly total: number;
  readonly unresolved: readonly string[];
}

export type PlannedOutcome =
  | { readonly kind: 'answer'; readonly text: string; readonly coverage: Coverage; readonly evidence: readonly string[] }
  | { readonly kind: 'clarification'; readonly question: string; readonly choices: readonly string[]; readonly coverage: Coverage }
  /** The planner read a request for a change: the plain tool loop takes the turn as it is. */
  | { readonly kind: 'mutation' }
  | { readonly kind: 'failed'; readonly code: string; readonly message: string; readonly coverage: Coverage | undefined };

/** A planned read strategy: the engine hands it the fresh turns the router leaves unread. */
export interface PlannedRunner {
  run(port: PlannedPort): Promise<PlannedOutcome>;
}

/** The models of a planned turn, one per role (the fallback retries a failed plan, task or synthesis). */
export interface PlannedModels {
  readonly planner: Provider;
  /** Runs the read tasks with no routing feature: one manager, no dependency, no calculation, one query. */
  readonly simpleExecutor: Provider;
  /** Runs every other read task. */
  readonly complexExecutor: Provider;
  readonly synthesizer: Provider;
  readonly fallback: Provider;
}
