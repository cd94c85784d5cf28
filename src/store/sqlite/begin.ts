import { newThread, newTurn, userItemData } from '../new-records.js';
import { alreadyExists, checkItem, notFound } from '../records.js';
import { toThread, toTurn } from '../rows.js';
import type { ThreadRow, TurnRow } from '../rows.js';
import type { BeginTurnInput, BeginTurnResult, NewItem, ThreadRecord } from '../types.js';
import { insertItems } from './items.js';
import type { SqliteJournal } from './journal.js';

/**
 * Inside a transaction: a turn's acceptance with its user item, in the named thread, the owner's
 * latest or a new one; or the turn its request key already began, or the active turn that keeps
 * the thread busy.
 */
export function beginTurn(j: SqliteJournal, input: BeginTurnInput): BeginTurnResult {
  let row: ThreadRow | undefined;
  if (input.threadId !== undefined) {
    row = j.sql.getThread.get(input.threadId) as ThreadRow | undefined;
    if (row === undefined || (input.owner !== undefined && row.owner !== input.owner)) throw notFound('thread', input.threadId);
  } else if (input.newThread === true) {
    const replayed = j.sql.turnByRequestKey.get(input.owner, input.requestKey) as TurnRow | undefined;
    const its = replayed === undefined ? undefined : (j.sql.getThread.get(replayed.thread_id) as ThreadRow | undefined);
    if (replayed !== undefined && its !== undefined) return { outcome: 'existing', thread: toThread(its), turn: toTurn(replayed) };
  } else row = j.sql.ownedThreads.get(input.owner, 1) as ThreadRow | undefined;
  const now = j.clock();
  let thread: ThreadRecord;
  let ordinal = 1;
  if (row !== undefined) {
    thread = toThread(row);
    const existing = j.sql.turnByRequestKey.get(row.owner, input.requestKey) as TurnRow | undefined;
    if (existing !== undefined) return { outcome: 'existing', thread, turn: toTurn(existing) };
    const active = j.sql.activeTurn.get(row.id) as TurnRow | undefined;
    if (active !== undefined) return { outcome: 'busy', thread, turn: toTurn(active) };
    j.sql.touchThread.run(now, row.id);
    thread = Object.freeze({ ...thread, updatedAt: now });
    ordinal = ((j.sql.lastOrdinal.get(row.id) as number | null) ?? 0) + 1;
  } else {
    // A first message (an owner without threads has no turns either), or one that asks for a thread of its own.
    thread = newThread(j.ids(), input.owner!, input.newThreadTitle ?? null, now);
    j.sql.insertThread.run(thread.id, thread.owner, thread.title, now, now);
  }
  const turnId = input.turnId ?? j.ids();
  try {
    j.sql.insertTurn.run(turnId, thread.id, thread.owner, input.requestKey, input.input, 'accepted', input.lease ?? null, now, now);
  } catch (cause) {
    throw alreadyExists('turn', turnId, cause);
  }
  const userItem: NewItem = { kind: 'user_text', data: userItemData(input) };
  const [record] = insertItems(j, thread.id, turnId, [userItem], [checkItem(userItem)], ordinal, now);
  return { outcome: 'created', thread, turn: newTurn(turnId, thread, input, now), userItem: record! };
}
