import type { ItemRecord, NewItem, TurnRecord } from '../../store/index.js';
import { activeTurnStatuses } from '../../store/index.js';
import { retryReason } from './journal.js';

/**
 * The journal's marks of a turn's runs (docs/engine.md, "Stop" and "Regenerate"), kept as
 * `retry_marker` items so that no store learns a new kind: a run begins at its turn's user item, a
 * `retry` or a `regenerate` mark; a person's stop is a `stop` mark in the run it stops, written
 * before anything is stopped, so that a restart finds the run stopping and ends it stopped.
 */

export type StopMode = 'immediate' | 'graceful';

export interface StopRequest {
  readonly mode: StopMode;
  /** When the person asked, milliseconds since the epoch (the engine's clock). */
  readonly requestedAt: number;
}

export const runMarks = {
  stop: (request: StopRequest): NewItem => ({ kind: 'retry_marker', data: { reason: 'stop', mode: request.mode, requestedAt: request.requestedAt } }),
  regenerate: (requestKey: string): NewItem => ({ kind: 'retry_marker', data: { reason: 'regenerate', requestKey } }),
};

/** The item begins a new run of its turn after the first (a `retry` or a `regenerate` mark). */
export function startsRun(item: ItemRecord): boolean {
  return item.kind === 'retry_marker' && (retryReason(item) === 'retry' || retryReason(item) === 'regenerate');
}

/**
 * A run's id: the turn's id and the run's number, from 1 (`<turn id>.r2` is its first retry or
 * regenerate). Derived from the marks, so every journal, old ones too, has them without a migration.
 */
export function runIdOf(turnId: string, run: number): string {
  return `${turnId}.r${run}`;
}

/** The number of the run an item at `ordinal` belongs to (`turnItems`: its turn's items in journal order, superseded ones too). */
export function runNumberAt(turnItems: readonly ItemRecord[], ordinal: number): number {
  let run = 1;
  for (const item of turnItems) {
    if (item.ordinal > ordinal) break;
    if (startsRun(item)) run += 1;
  }
  return run;
}

/** The stop asked of the turn's latest run, if any (`turnItems`: the turn's items in journal order). */
export function stopRequestOf(turnItems: readonly ItemRecord[]): StopRequest | undefined {
  for (let index = turnItems.length - 1; index >= 0; index -= 1) {
    const item = turnItems[index]!;
    if (startsRun(item)) return undefined;
    if (item.kind === 'retry_marker' && retryReason(item) === 'stop') {
      const data = item.data as { mode?: unknown; requestedAt?: unknown };
      return { mode: data.mode === 'graceful' ? 'graceful' : 'immediate', requestedAt: typeof data.requestedAt === 'number' ? data.requestedAt : item.createdAt };
    }
  }
  return undefined;
}

/** The thread's latest turn ended by a person's stop: its queue waits for them (send now, or remove). */
export function holdsQueue(latest: TurnRecord | undefined, turnItems: readonly ItemRecord[]): boolean {
  return latest !== undefined && !activeTurnStatuses.includes(latest.status) && stopRequestOf(turnItems) !== undefined;
}

/**
 * True for an item a later regenerate superseded: `from` is the ordinal of its turn's latest
 * `regenerate` mark (0: never regenerated); the turn's items before it, other than the person's
 * messages, are a superseded run's — kept in the journal and in views, read by nothing else.
 */
export function isSuperseded(item: ItemRecord, from: number): boolean {
  return item.ordinal < from && item.kind !== 'user_text';
}

/**
 * `items` without what a regenerate superseded (each turn's items before its latest `regenerate`
 * mark, other than the person's messages): what a run, the model's history and a replay read.
 * `items` itself when nothing was regenerated.
 */
export function withoutSuperseded(items: ItemRecord[]): ItemRecord[];
export function withoutSuperseded(items: readonly ItemRecord[]): readonly ItemRecord[];
export function withoutSuperseded(items: readonly ItemRecord[]): readonly ItemRecord[] {
  const from = new Map<string, number>();
  for (const item of items) if (item.kind === 'retry_marker' && retryReason(item) === 'regenerate') from.set(item.turnId, item.ordinal);
  if (from.size === 0) return items;
  return items.filter((item) => !isSuperseded(item, from.get(item.turnId) ?? 0));
}
