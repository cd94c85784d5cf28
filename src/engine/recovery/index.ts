/**
 * What survives a stop: the engine's lease and the recovery of turns an engine left, the replay of
 * a turn's events from its journal, and the text drafts that journal streamed text before it is shown.
 */
export { EngineRecovery, replayTurn } from './engine-recovery.js';
export type { HeldRun } from './engine-recovery.js';
export { classifyInterrupted, recoverInterruptedTurns } from './restart.js';
export { replayEvents } from './replay.js';
export { TextDrafts } from './text-drafts.js';
