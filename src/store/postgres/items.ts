import { PlumbError } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import { checkFence, checkItem, checkStatus, notFound } from '../records.js';
import { toItem } from '../rows.js';
import type { ItemRecord, ListItemsOptions, NewItem, StepPatch, WriteFence } from '../types.js';
import { allRows } from './journal.js';
import type { PostgresJournal } from './journal.js';
import { sqlState, uniqueViolation } from './sql.js';
import type { SqlQuery } from './sql.js';
import { patchValues } from './turns.js';

/** The PostgreSQL store's items: appends to a turn (fenced, with its patch) and reads of a thread's journal. */

export async function appendItems(j: PostgresJournal, turnId: string, items: readonly NewItem[], turnPatch: StepPatch | undefined, fence: WriteFence | undefined): Promise<readonly ItemRecord[]> {
  return append(j, j.sql.query, turnId, items, turnPatch, fence?.lease);
}

/**
 * The items after the thread's last, and the turn's patch (and its thread's) with them, in one statement on `query`; with
 * `lease`, only while the turn is active under it (`lease_lost` otherwise, nothing written).
 */
export async function append(j: PostgresJournal, query: SqlQuery, turnId: string, items: readonly NewItem[], turnPatch: StepPatch | undefined, lease?: string): Promise<ItemRecord[]> {
  const texts = items.map(checkItem);
  if (turnPatch?.status !== undefined) checkStatus(turnPatch.status);
  const ids = new Array<string>(items.length);
  const chosen = new Set<string>();
  for (let index = 0; index < items.length; index++) {
    const id = items[index]!.id;
    if (id !== undefined && chosen.has(id)) throw new PlumbError('store_invalid_record', `Item id '${id}' appears twice in one append.`);
    if (id !== undefined) chosen.add(id);
    ids[index] = id ?? j.ids();
  }
  const now = j.clock();
  const kinds = items.map((item) => item.kind);
  const thread = [turnPatch?.thread?.routerSession ?? null, turnPatch?.thread?.generatedTitle ?? null];
  let rows;
  try {
    const fenced = lease === undefined ? [] : [lease];
    ({ rows } =
      turnPatch === undefined
        ? await query(lease === undefined ? j.t.append : j.t.fencedAppend, [turnId, items.length, now, ids, kinds, texts, ...thread, ...fenced])
        : await query(lease === undefined ? j.t.appendAndPatch : j.t.fencedAppendAndPatch, [turnId, items.length, now, ids, kinds, texts, ...patchValues(turnPatch), ...thread, ...fenced]));
  } catch (error) {
    if (sqlState(error) === uniqueViolation) throw new PlumbError('store_invalid_record', `Could not append to turn '${turnId}': an item id is already used in its thread.`, { cause: error });
    throw error;
  }
  const target = rows[0];
  if (target === undefined) throw notFound('turn', turnId);
  if (target.first === null || target.first === undefined) {
    checkFence(turnId, lease, (target.lease_id as string | null) ?? null, String(target.status));
    throw notFound('turn', turnId);
  }
  const threadId = String(target.thread_id);
  const first = Number(target.first);
  return items.map((item, index) => Object.freeze({ id: ids[index]!, threadId, turnId, ordinal: first + index + 1, kind: item.kind, data: JSON.parse(texts[index]!) as JsonValue, createdAt: now }));
}

export async function listItems(j: PostgresJournal, threadId: string, options: ListItemsOptions): Promise<readonly ItemRecord[]> {
  const after = options.afterOrdinal ?? 0;
  const { rows } = options.turnId === undefined ? await j.query(j.t.threadItems, [threadId, after]) : await j.query(j.t.turnItems, [threadId, after, options.turnId]);
  return allRows(rows, toItem);
}
