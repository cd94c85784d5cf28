import type { AnswerLabels, RenderInput, StepOutcome as AnswerStepOutcome, WrittenAnswer } from '../../answers/index.js';
import type { LiveSessions } from './live-sessions.js';
import type { Language, Router, Session } from '../../router/index.js';
import type { Tool } from '../../tools/index.js';
import type { Actor, JsonObject } from '../../core/index.js';

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
  /** The router context keys for an actor's turns (`actorRow`: the rows that are theirs), where the host maps actors to rows. */
  actorContext?(actor: Actor): JsonObject;
  /** A write ran: what the reader indexed may have changed. */
  noteWrite?(): void;
  /** The row type of a tool's results in a language ('part' / 'parts'), for the renderer. */
  label?(tool: string, language: Language, count: number): string | null;
  /** Words for the app's data in each language (rows, fields, enum values, managers), for the renderer. */
  readonly labels?: AnswerLabels;
}

/** The reader's words as the renderer takes them. */
export function readerLabels(reader: EngineReader): Pick<RenderInput, 'label' | 'labels'> {
  const label = reader.label === undefined ? {} : { label: (tool: string, language: Language, count: number) => reader.label!(tool, language, count) };
  return reader.labels === undefined ? label : { ...label, labels: reader.labels };
}

/** What one plan step produced (index = the plan's step index), as the answer writer takes it. */
export type StepOutcome = AnswerStepOutcome;

export type AnswerInput = RenderInput;

/**
 * Writes a router turn's answer from its plan and step results alone (the grounded renderer by
 * default): its text, or its text with the source of each value (`writeAnswer`).
 */
export type AnswerRenderer = (input: AnswerInput) => string | WrittenAnswer;

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
