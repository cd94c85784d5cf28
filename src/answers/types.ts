import type { JsonObject, JsonValue } from '../core/index.js';
import type { ComputeOperation, Language, PickedRow, TurnPlan } from '../router/index.js';
import type { ValueSource } from './written.js';

/** The row type of a tool's results in a language ('part'/'parts', 'peça'/'peças'); null: derive it from the tool name. */
export type RowLabel = (tool: string, language: Language, count: number) => string | null;

/**
 * Words for an app's data in the answer's language, where the host has them (the app reader does):
 * any may be left out, and a name in words is written instead (`unitPrice` → "unit price").
 */
export interface AnswerLabels {
  /** A tool's rows: 'part' / 'parts', 'peça' / 'peças'. */
  readonly row?: RowLabel;
  /** A field of a tool's results: ('query_part', 'unitPrice', 'pt-BR') → 'preço unitário'. */
  readonly field?: (tool: string, field: string, language: Language) => string | null;
  /** An enum or yes/no value of a field: ('query_project', 'status', 'on_hold', 'pt-BR') → 'pausado'. */
  readonly value?: (tool: string, field: string, value: string, language: Language) => string | null;
  /** A manager by name, for answers about the schema: ('OrderLine', 'en', 2) → 'order lines'. */
  readonly manager?: (manager: string, language: Language, count: number) => string | null;
}

/** What one plan step produced: a tool's result as the dispatcher returned it, or a compute step's value. */
export type StepOutcome =
  | { readonly kind: 'tool'; readonly tool: string; readonly arguments: JsonObject; readonly result: JsonValue }
  | {
      readonly kind: 'compute';
      readonly value: string | null;
      readonly error: string | null;
      readonly operation: ComputeOperation;
      readonly field: string | null;
      readonly rows?: number;
      /** The rows a ranking picked, or that hold a minimum or maximum. */
      readonly picked?: readonly PickedRow[];
    };

export interface RenderInput {
  readonly plan: TurnPlan;
  /** Index = the plan's step index; a step that never ran is absent (undefined). */
  readonly steps: readonly (StepOutcome | undefined)[];
  readonly language: Language;
  readonly label?: RowLabel;
  readonly labels?: AnswerLabels;
}

/** An answer and the source of every value in it. */
export interface WrittenAnswer {
  readonly text: string;
  readonly provenance: readonly ValueSource[];
}
