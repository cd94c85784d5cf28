import type { Language, TurnPlan } from '../router/index.js';
import type { AnswerLabels, StepOutcome } from './types.js';
import type { AnswerWords } from './words.js';

/** What every step renderer reads: the plan, the outcomes, the language's words and the labels. */
export interface Context {
  readonly plan: TurnPlan;
  readonly steps: readonly (StepOutcome | undefined)[];
  readonly language: Language;
  readonly words: AnswerWords;
  readonly labels: AnswerLabels;
}
