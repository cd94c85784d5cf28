import { PlumbError } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import { checkFence, checkItem, notFound } from '../records.js';
import { toItem } from '../rows.js';
import type { ItemRow } from '../rows.js';
import type { ItemRecord, ListItemsOptions, NewItem, StepPatch, WriteFence } from '../types.js';
import type { SqliteJournal } from './journal.js';
import { patchTurn } from './turns.js';

/** The SQLite store's items: appends to a turn (fenced, with its patch) and reads of a thread's journal. */

/** What an append needs to know about its turn, read in one statement. */
interface AppendTarget {
  thread_id: string;
  status: string;
  lease_id: string | null;
  last: number | null;
}

/** Inside a transaction: the items after the thread's last, and the turn's patch (and its thread's) with them. */
export function appendItems(j: SqliteJournal, turnId: string, items: readonly NewItem[], turnPatch: StepPatch | undefined, fence?: WriteFence): ItemRecord[] {
  // One statement finds the turn's thread, its status and lease, and the thread's last ordinal.
  const target = j.sql.appendTarget.get(turnId) as AppendTarget | undefined;
  if (target === undefined) throw notFound('turn', turnId);
  checkFence(turnId, fence?.lease, target.lease_id, target.status);
  const texts = items.map(checkItem);
  const now = j.clock();
  const appended = insertItems(j, target.thread_id, turnId, items, texts, (target.last ?? 0) + 1, now);
  if (turnPatch !== undefined) patchTurn(j, turnId, target.status, turnPatch, now);
  const thread = turnPatch?.thread;
  if (thread?.routerSession !== undefined) j.sql.stepSession.run(thread.routerSession, now, target.thread_id);
  if (thread?.generatedTitle !== undefined) j.sql.stepTitle.run(thread.generatedTitle, target.thread_id);
  return appended;
}

/** Items whose data `texts` holds as checked JSON, with ordinals from `first`. */
export function insertItems(j: SqliteJournal, threadId: string, turnId: string, items: readonly NewItem[], texts: readonly string[], first: number, now: number): ItemRecord[] {
  const records: ItemRecord[] = new Array<ItemRecord>(items.length);
  let chosen: Set<string> | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    const text = texts[index]!;
    let id = item.id;
    if (id === undefined) id = j.ids();
    else {
      // A caller-chosen id must be new in the thread (generated ids are unique outright).
      if (chosen?.has(id) === true || j.sql.itemIdTaken.get(threadId, id) !== undefined) {
        throw new PlumbError('store_invalid_record', `An item with id '${id}' already exists in thread '${threadId}'.`);
      }
      (chosen ??= new Set()).add(id);
    }
    const ordinal = first + index;
    try {
      j.sql.insertItem.run(threadId, ordinal, id, turnId, item.kind, text, now);
    } catch (cause) {
      throw new PlumbError('store_invalid_record', `Could not append item '${id}' (${item.kind}): ${(cause as Error).message}.`, { cause });
    }
    records[index] = Object.freeze({ id, threadId, turnId, ordinal, kind: item.kind, data: JSON.parse(text) as JsonValue, createdAt: now });
  }
  return records;
}

export function listItems(j: SqliteJournal, threadId: string, options: ListItemsOptions): readonly ItemRecord[] {
  const after = options.afterOrdinal ?? 0;
  const rows = (options.turnId === undefined ? j.sql.threadItems.all(threadId, after) : j.sql.turnItems.all(threadId, after, options.turnId)) as ItemRow[];
  return rows.map(toItem);
}
