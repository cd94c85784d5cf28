/**
 * The answer writer: a plan and its step results → an answer in the plan's language, every value
 * formatted for the locale and carrying the step, row and field it came from. Pure.
 */
export { renderAnswer, writeAnswer, MAX_ANSWER_CHARS } from './render-answer.js';
export { MAX_LIST_ROWS, MAX_ROWS } from './rows.js';
export { formatBoolean, formatDate, formatDateTime, formatNumber } from './locale.js';
export { refusalAnswer } from './refusal.js';
export type { AnswerLabels, RenderInput, RowLabel, StepOutcome, WrittenAnswer } from './types.js';
export type { Source, ValueSource } from './written.js';
