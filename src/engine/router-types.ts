import type { JsonObject, JsonValue } from '../core/index.js';
import type { LiveSessions } from './live-sessions.js';
import type { ComputeOperation, Language, Router, Session, TurnPlan } from '../router/index.js';
import type { Tool } from '../tools/index.js';

/**
 * What the engine needs from an app reader (`createAppReader`): the router to read the next turn
 * with, the read tools its data-read steps call, and a few optional courtesies. Structural, so that
 * a plain object over `createRouter` serves too (`{ router: () => router, readTools: [] }`).
 */
export interface EngineReader {
  /** The router to read the next turn with (it may be rebuilt after a refresh). */
  router(): Router;
  /** Tools the dispatcher must hold so that the router's data-read steps can run; never offered to the model. */
  readonly readTools: readonly Tool[];
  /** True when the reader's values should be re-read before the next turn is read. */
  stale?(): boolean;
  /** Re-reads now; resolves true when the vocabulary changed. */
  refresh?(signal?: AbortSignal): Promise<boolean>;
  /** A write ran: what the reader indexed may have changed. */
  noteWrite?(): void;
  /** The row type of a tool's results in a language ('part' / 'parts'), for the renderer. */
  label?(tool: string, language: Language, count: number): string | null;
}

/** What one plan step produced (index = the plan's step index). */
export type StepOutcome =
  | { readonly kind: 'tool'; readonly tool: string; readonly arguments: JsonObject; readonly result: JsonValue }
  | { readonly kind: 'compute'; readonly value: string | null; readonly error: string | null; readonly operation: ComputeOperation; readonly field: string | null };

export interface AnswerInput {
  readonly plan: TurnPlan;
  /** A step that never ran is absent (undefined). */
  readonly steps: readonly (StepOutcome | undefined)[];
  readonly language: Language;
  readonly label?: (tool: string, language: Language, count: number) => string | null;
}

/** Writes a router turn's answer from its plan and step results alone (the grounded renderer by default). */
export type AnswerRenderer = (input: AnswerInput) => string;

/** The router side of the engine, present when router-first turns are on. */
export interface RoutingParts {
  readonly reader: EngineReader;
  readonly answer: AnswerRenderer;
  /** What a deferred unread turn gets (`model` only takes effect with a provider). */
  readonly onUnread: 'model' | 'refuse';
  /** null: the rulebook's while no provider is configured, false with one. */
  readonly askToRephrase: boolean | null;
  readonly answerWith: 'router' | 'model';
  /** Sessions this engine last wrote, reused while their thread still holds them. */
  readonly live: LiveSessions;
}

/** The thread's router session for the duration of one run, and the JSON last written to the store. */
export interface SessionHandle {
  readonly router: Router;
  readonly session: Session;
  saved: string;
}
