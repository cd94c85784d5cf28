/**
 * What a model round is given to read: token estimates, the context's budgets, the history as
 * messages (where it starts, what a summary covers, the transcript a summary is written from) and
 * the system prompt. Pure: the turn room's context step applies it to a run.
 */
export { compactionLimit, outputBudget, safetyMargin, summaryBudget } from './context-budget.js';
export { selectContext, toMessages, transcript } from './history.js';
export { perMessage, TokenEstimator } from './tokens.js';
export { buildSystemPrompt, groundingRules } from './system-prompt.js';
export { latestSnapshot, pageContextLimits, parsePageContext, renderSnapshot, renderSupplemental, sameSnapshot, snapshotData, snapshotOf } from './page-context.js';
export type { PageContext, PageContextInput, PageContextItem, PageReference, ParsedPageContext } from './page-context.js';
