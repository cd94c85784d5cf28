import type { JsonObject, JsonValue } from '../../core/index.js';
import type { ComputeOperation, Language, TurnPlan } from '../../router/index.js';

/** The row type of a tool's results in a language ('part'/'parts', 'peça'/'peças'); null: derive it from the tool name. */
export type RowLabel = (tool: string, language: Language, count: number) => string | null;

/** What one plan step produced: a tool's result as the dispatcher returned it, or a compute step's value. */
export type StepOutcome =
  | { readonly kind: 'tool'; readonly tool: string; readonly arguments: JsonObject; readonly result: JsonValue }
  | {
      readonly kind: 'compute';
      readonly value: string | null;
      readonly error: string | null;
      readonly operation: ComputeOperation;
      readonly field: string | null;
    };

export interface RenderInput {
  readonly plan: TurnPlan;
  /** Index = the plan's step index; a step that never ran is absent (undefined). */
  readonly steps: readonly (StepOutcome | undefined)[];
  readonly language: Language;
  readonly label?: RowLabel;
}
