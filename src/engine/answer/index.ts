/** The grounded deterministic answer renderer: a plan's step results in words, in English or Brazilian Portuguese. */
export { renderAnswer, MAX_ANSWER_CHARS } from './render-answer.js';
export { MAX_LIST_ROWS, MAX_ROWS } from './rows.js';
export type { RenderInput, RowLabel, StepOutcome } from './types.js';
