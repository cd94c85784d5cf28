import type { JsonValue } from '../../core/index.js';
import { newThread } from '../new-records.js';
import { found, jsonCopy } from '../records.js';
import { activeTurnStatuses } from '../types.js';
import type { ConfirmationRecord, ItemRecord, LeaseRecord, QueuedMessage, ThreadRecord, TurnRecord } from '../types.js';

/** A thread in memory: its record, its items in order, and its turns in the order they began. */
export interface ThreadState {
  record: ThreadRecord;
  readonly items: ItemRecord[];
  readonly turnIds: string[];
  /** Its turns in an active status (`activeTurnStatuses`; one, except in a broken journal): found without a scan of a long thread's turns. */
  readonly active: Set<string>;
}

/** What every part of the memory store works on: its maps, the ids and the clock. */
export interface MemoryJournal {
  readonly ids: () => string;
  readonly clock: () => number;
  readonly threads: Map<string, ThreadState>;
  /** owner → their thread ids, so that an owner's lookups never scan everyone's threads. */
  readonly byOwner: Map<string, Set<string>>;
  readonly turns: Map<string, TurnRecord>;
  /** `requestKeyOf(owner, requestKey)` → the turn's id. */
  readonly requestKeys: Map<string, string>;
  readonly confirmations: Map<string, ConfirmationRecord>;
  readonly leases: Map<string, LeaseRecord>;
  /** Queued messages by id, each with its place in its thread's queue (lower first). */
  readonly queue: Map<string, { message: QueuedMessage; seq: number }>;
}

export function memoryJournal(ids: () => string, clock: () => number): MemoryJournal {
  return { ids, clock, threads: new Map(), byOwner: new Map(), turns: new Map(), requestKeys: new Map(), confirmations: new Map(), leases: new Map(), queue: new Map() };
}

export function threadState(j: MemoryJournal, id: string): ThreadState {
  return found(j.threads.get(id), 'thread', id);
}

/** A new thread of `owner`'s, kept. */
export function addThread(j: MemoryJournal, owner: string, title: string | null, now: number, id = j.ids()): ThreadState {
  const state: ThreadState = { record: newThread(id, owner, title, now), items: [], turnIds: [], active: new Set() };
  j.threads.set(id, state);
  let owned = j.byOwner.get(owner);
  if (owned === undefined) j.byOwner.set(owner, (owned = new Set()));
  owned.add(id);
  return state;
}

export function requestKeyOf(owner: string, requestKey: string): string {
  return `${owner}\u0000${requestKey}`;
}

/** The thread's active turn, if any (the latest begun of them). */
export function activeTurn(j: MemoryJournal, state: ThreadState): TurnRecord | undefined {
  if (state.active.size === 0) return undefined;
  if (state.active.size === 1) for (const id of state.active) return j.turns.get(id);
  for (let i = state.turnIds.length - 1; i >= 0; i--) if (state.active.has(state.turnIds[i]!)) return j.turns.get(state.turnIds[i]!);
  return undefined;
}

/** Keeps the thread's set of active turns in step with a turn's new record. */
export function trackActive(j: MemoryJournal, turn: TurnRecord): void {
  const active = j.threads.get(turn.threadId)?.active;
  if (active === undefined) return;
  if (activeTurnStatuses.includes(turn.status)) active.add(turn.id);
  else active.delete(turn.id);
}

/** Records are kept apart from the caller's objects, so a later mutation by the caller changes nothing. */
export function copyJson(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  return jsonCopy(value, 'a record');
}
