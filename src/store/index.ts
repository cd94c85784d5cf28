/**
 * The storage contract and its implementations. `runStoreConformance` (the shared suite every
 * implementation passes) lives in `conformance.ts`, apart from this face so that library code
 * never loads vitest.
 */
export { storeErrorCodes } from './errors.js';
export type { StoreErrorCode } from './errors.js';
export { turnStatuses, activeTurnStatuses, itemKinds, defaultRetentionLimit, titleSources } from './types.js';
export type {
  Store,
  StoreOptions,
  TurnStatus,
  ItemKind,
  TokenUsage,
  ThreadRecord,
  TurnRecord,
  ItemRecord,
  NewItem,
  ConfirmationStatus,
  ConfirmationRecord,
  NewConfirmation,
  BeginTurnInput,
  BeginTurnResult,
  ClaimResult,
  TurnPatch,
  StepPatch,
  StepThreadPatch,
  ThreadPatch,
  ListItemsOptions,
  RetentionOptions,
  StagedItems,
  LeaseRecord,
  OrphanEnding,
  WriteFence,
  QueuedMessage,
  EnqueueInput,
  EnqueueResult,
  TitleSource,
  ThreadCursor,
  ThreadPageOptions,
  ThreadPage,
  ItemPageOptions,
  ItemPage,
  ForkThreadInput,
  JournalCensus,
  JournalUpkeep,
} from './types.js';
export { emptyCensus, resolutionOutcome } from './census.js';
export { MemoryStore, createMemoryStore } from './memory/memory-store.js';
export { SqliteStore, openSqliteStore } from './sqlite/sqlite-store.js';
export type { SqliteStoreOptions, SqliteDurability } from './sqlite/sqlite-store.js';
