/** Evals: datasets of expected turns, a runner that plays them through the engine, and their report. */
export { evalsErrorCodes } from './errors.js';
export type { EvalsErrorCode } from './errors.js';
export { evalDatasetSchema, evalOutcomes, evalTurnKinds, evalActorNames, evalLanguages } from './dataset-schema.js';
export type { EvalDataset, EvalCase, EvalTurn, EvalExpectation, EvalExpectedCall, EvalOutcome, EvalTurnKind, EvalActorName, EvalLanguage, EvalDecision } from './dataset-schema.js';
export { parseDataset, loadDataset } from './load-dataset.js';
export { argumentsMatch, valuesMatch } from './match-arguments.js';
export { containsFact } from './match-facts.js';
export { playCase } from './play-case.js';
export type { EvalEngine, EvalEvent, EvalCaseKit, OpenEvalCase, ObservedTurn, ObservedCall, ObservedPlanStep, PlayOptions } from './play-case.js';
export { scoreTurn } from './score-turn.js';
export type { TurnScore, TurnVerdict, ScoreOptions } from './score-turn.js';
export { runDataset } from './run-dataset.js';
export type { RunDatasetOptions, TurnResult } from './run-dataset.js';
export { metricsOf, meetsTargets, formatReport, defaultTargets } from './report.js';
export type { EvalMetrics } from './report.js';
export { demoCaseOpener, demoConfirmedTools } from './demo-kit.js';
export type { DemoKitOptions } from './demo-kit.js';
