/**
 * The deterministic router: reads a turn into a TurnPlan (run, ask, declined, unread) and carries a
 * Session between turns, in English and Brazilian Portuguese. Pure: no I/O, no clock of its own.
 */
export { createRouter } from './router.js';
export type { Router, RouterOptions, PlanOptions } from './router.js';
export { sessionFromJSON, resultIdentity, SESSION_FORMAT, MAX_TURNS_KEPT, MAX_HISTORY, MAX_THUMBS, RUN_OUTCOMES } from './session.js';
export type { RestoreOptions, Session, SessionOptions, SessionState, SessionSummary, ToolCall, ToolCheck, CheckCode, RunOutcome, HistoryEntry, ReadTurnOptions } from './session.js';
export type { ConfirmationToken } from './tokens.js';
export { catalogueFromTools, isPlannable, loadCatalogue } from './catalogue.js';
export type { Catalogue, ToolDefinitionLike } from './catalogue.js';
export { loadRulebook } from './rulebook.js';
export type { Rulebook, RulebookInput, DestinationKind } from './rulebook.js';
export { loadVocabulary, asLanguage } from './vocabulary.js';
export { mergeVocabularies } from './vocabulary-merge.js';
export type { Vocabulary } from './vocabulary.js';
export type { DataWordsInput, LanguageWords, VocabularyFile, VocabularyInput } from './vocabulary-types.js';
export type { ActorRowFilter, ClauseDate, CompiledDataReader, DataClause, DataExplanation, DataOffer, DataReader, DataReaderInput, DataReading, DataStep, DataWord, PreviousStep } from './data-reader.js';
// The text helpers a data reader matches words with, the same way the router does.
export { escapePhrase, PhraseSet } from './compile.js';
export type { PhraseMatch } from './compile.js';
export { fold, foldPhrase, humanize, identifierWords, listWords, stem, tokenize } from './text.js';
export type { Token } from './text.js';
export { relatedCount, runCompute } from './compute.js';
export type { ComputeResult, PickedRow } from './compute.js';
export { checkArguments } from './schema-check.js';
export { readDates } from './read-dates.js';
export type { ReadDate } from './read-dates.js';
export { readPortugueseNumber, findPortugueseNumbers } from './numbers-pt.js';
export type { FoundNumber } from './numbers-pt.js';
export { MAX_TURN_LENGTH } from './planner.js';
export { MAX_CHAIN_ROUNDS } from './lookup-chain.js';
export { routerErrorCodes } from './errors.js';
export type { RouterErrorCode } from './errors.js';
export { EFFECTS, LANGUAGES, OUTCOMES, READ_FIELD_TYPES } from './types.js';
export type {
  ArgumentSource,
  CatalogueEntry,
  ChainLink,
  ComputeOperation,
  ComputeSpec,
  Effect,
  Guidance,
  GuidanceNext,
  JsonSchema,
  Language,
  OnUnread,
  Outcome,
  PlanItem,
  ReadFieldType,
  ReadLookup,
  ReadSpec,
  RouterContext,
  SagaLink,
  Selection,
  StepKind,
  TurnPlan,
} from './types.js';
