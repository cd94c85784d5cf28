/**
 * A thread and what waits in it: its operations and views (pages, titles, forks, live state),
 * its queue of messages sent while a turn runs, the recent tails the engine keeps, and the
 * questions its turns put to the person. It knows no run: the turn room runs what it starts.
 */
export { ownedThread, ownerOf, queueApi, threadNotFound, threadsApi } from './thread-api.js';
export type { QueueApi, QueueChange, ThreadDeps, ThreadView, ThreadsApi, TitleLabel } from './thread-api.js';
export { maxPageItems, maxPageBytes, generatedTitle } from './thread-ops.js';
export type { ItemPageRequest, ItemPageView, QueuedView, ThreadPageRequest, ThreadPageView, ThreadState } from './thread-ops.js';
export { ThreadQueue, queueView, queuedMessageUnavailable } from './thread-queue.js';
export type { QueuedStart } from './thread-queue.js';
export { ThreadTails, tailOrdinals } from './thread-tails.js';
export type { KeptHistory } from './thread-tails.js';
export { withRunIds } from './run-ids.js';
export { turnProjection } from './turn-projection.js';
export type { TurnProjection } from './turn-projection.js';
export type { RunItem } from './run-ids.js';
export {
  answeredResult,
  askQuestions,
  openRouterQuestion,
  questionEvent,
  questionFromResult,
  resolveAnswer,
  routerQuestion,
  turnOfQuestion,
  unansweredQuestions,
  unansweredResult,
} from './questions.js';
export type { AnswerInput } from './questions.js';
