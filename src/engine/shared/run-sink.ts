import type { ItemRecord, NewItem, ThreadRecord, TurnPatch } from '../../store/index.js';
import type { RunEvent } from './events.js';
import type { RunPhase } from './run-phase.js';

/**
 * A run as the rooms below the turn see it (a question asked, a steered message joining, text
 * drafts): its thread and turn, the items it holds, its journal and its events. The turn room's
 * `TurnRun` is one; taking this instead keeps those rooms from importing the turn room.
 */
export interface RunSink {
  readonly thread: ThreadRecord;
  readonly turnId: string;
  readonly items: ItemRecord[];
  emit(event: RunEvent): Promise<void> | undefined;
  /** The run's phase changed (a `phase` event when it did). */
  enter(phase: RunPhase): Promise<void> | undefined;
  emitAfterCommit(event: RunEvent): void;
  append(items: readonly NewItem[], patch?: Omit<TurnPatch, 'addUsage'>): Promise<readonly ItemRecord[]>;
  stage(items: readonly NewItem[], patch?: Omit<TurnPatch, 'addUsage'>): Promise<readonly ItemRecord[]>;
}
