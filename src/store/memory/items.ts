import { PlumbError } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import { checkFence, checkKind, checkStatus, jsonCopy, notFound } from '../records.js';
import type { ItemRecord, ListItemsOptions, NewItem, StepPatch, WriteFence } from '../types.js';
import { threadState } from './journal.js';
import type { MemoryJournal, ThreadState } from './journal.js';
import { patchTurn } from './turns.js';

/** The memory store's items: appends to a turn (fenced, with its patch) and reads of a thread's journal. */

export function appendItems(j: MemoryJournal, turnId: string, items: readonly NewItem[], turnPatch: StepPatch | undefined, fence?: WriteFence): readonly ItemRecord[] {
  const turn = j.turns.get(turnId);
  if (turn === undefined) throw notFound('turn', turnId);
  checkFence(turnId, fence?.lease, turn.lease, turn.status);
  const state = threadState(j, turn.threadId);
  // Validate and copy everything before touching state: a failure leaves nothing behind.
  const copies = new Array<JsonValue>(items.length);
  let seen: Set<string> | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    checkKind(item);
    copies[i] = jsonCopy(item.data, `item of kind '${item.kind}'`);
    if (item.id === undefined) continue;
    // A caller-chosen id must be new in the thread (generated ids are unique outright).
    if (seen?.has(item.id) === true || state.items.some((stored) => stored.id === item.id)) {
      throw new PlumbError('store_invalid_record', `An item with id '${item.id}' already exists in thread '${state.record.id}'.`);
    }
    (seen ??= new Set()).add(item.id);
  }
  if (turnPatch?.status !== undefined) checkStatus(turnPatch.status);
  const now = j.clock();
  const records = append(j, state, turnId, items, now, copies);
  if (turnPatch !== undefined) patchTurn(j, turn, turnPatch);
  const thread = turnPatch?.thread;
  if (thread?.routerSession !== undefined) state.record = Object.freeze({ ...state.record, routerSession: thread.routerSession, updatedAt: now });
  if (thread?.generatedTitle !== undefined && state.record.titleSource === null) state.record = Object.freeze({ ...state.record, title: thread.generatedTitle, titleSource: 'generated' });
  return records;
}

/** Stores items whose data is already the store's own copy (`copies[i]` for `items[i]`). */
export function append(j: MemoryJournal, state: ThreadState, turnId: string, items: readonly NewItem[], now: number, copies: readonly JsonValue[]): ItemRecord[] {
  const records = new Array<ItemRecord>(items.length);
  const threadId = state.record.id;
  for (let i = 0; i < items.length; i++) {
    const record: ItemRecord = Object.freeze({ id: items[i]!.id ?? j.ids(), threadId, turnId, ordinal: state.items.length + 1, kind: items[i]!.kind, data: copies[i]!, createdAt: now });
    state.items.push(record);
    records[i] = record;
  }
  return records;
}

export function listItems(j: MemoryJournal, threadId: string, options: ListItemsOptions): readonly ItemRecord[] {
  const state = j.threads.get(threadId);
  if (state === undefined) return [];
  let items: readonly ItemRecord[] = state.items;
  if (options.afterOrdinal !== undefined) items = items.slice(Math.max(0, options.afterOrdinal));
  if (options.turnId !== undefined) items = items.filter((item) => item.turnId === options.turnId);
  return items === state.items ? [...items] : items;
}
