import { PlumbError } from '../../core/index.js';
import { newThread, newTurn, userItemData } from '../new-records.js';
import { alreadyExists, checkItem, notFound } from '../records.js';
import { toThread, toTurn } from '../rows.js';
import type { ThreadRow, TurnRow } from '../rows.js';
import type { BeginTurnInput, BeginTurnResult, ItemRecord, ThreadRecord } from '../types.js';
import type { PostgresJournal } from './journal.js';
import { sqlState, uniqueViolation } from './sql.js';
import type { SqlQuery } from './sql.js';
import { listThreads } from './threads.js';

/**
 * A turn's acceptance with its user item: in the named thread, the owner's latest or a new one;
 * or the turn its request key already began, or the active turn that keeps the thread busy.
 */
export async function beginTurn(j: PostgresJournal, input: BeginTurnInput): Promise<BeginTurnResult> {
  // A race can end the turn that made the thread busy between two statements: try again then.
  for (let attempt = 0; attempt < 5; attempt++) {
    const result = input.threadId !== undefined ? await beginInThread(j, j.sql.query, input, input.threadId) : await beginForOwner(j, input, input.owner);
    if (result !== undefined) return result;
  }
  throw new PlumbError('store_invalid_record', `Could not begin a turn for request key '${input.requestKey}': the thread kept changing under it.`);
}

/** The turn in a given thread: one statement when it is created; undefined when a race needs another try. */
export async function beginInThread(j: PostgresJournal, query: SqlQuery, input: BeginTurnInput, threadId: string): Promise<BeginTurnResult | undefined> {
  const now = j.clock();
  const turnId = input.turnId ?? j.ids();
  const userText = checkItem({ kind: 'user_text', data: userItemData(input) });
  const itemId = j.ids();
  const { rows } = await query(j.t.beginInThread, [threadId, input.owner ?? null, turnId, input.requestKey, input.input, input.lease ?? null, now, itemId, userText]);
  const created = rows[0];
  if (created !== undefined) {
    const thread = toThread(created as unknown as ThreadRow);
    return { outcome: 'created', thread, turn: newTurn(turnId, thread, input, now), userItem: userItem(itemId, thread.id, turnId, Number(created.next_ordinal), input, now) };
  }
  const found = await query(j.t.getThread, [threadId]);
  const row = found.rows[0] as unknown as ThreadRow | undefined;
  if (row === undefined || (input.owner !== undefined && row.owner !== input.owner)) throw notFound('thread', threadId);
  return notCreated(j, query, toThread(row), input, turnId);
}

/** Why a turn was not inserted: its request key was used, or the thread is busy, or its id is taken. */
async function notCreated(j: PostgresJournal, query: SqlQuery, thread: ThreadRecord, input: BeginTurnInput, turnId: string): Promise<BeginTurnResult | undefined> {
  const { rows } = await query(j.t.blockingTurns, [thread.owner, input.requestKey, thread.id, turnId]);
  const byKey = rows.find((row) => row.owner === thread.owner && row.request_key === input.requestKey);
  if (byKey !== undefined) return { outcome: 'existing', thread, turn: toTurn(byKey as unknown as TurnRow) };
  const active = rows.find((row) => row.thread_id === thread.id && row.ended_at === null);
  if (active !== undefined) return { outcome: 'busy', thread, turn: toTurn(active as unknown as TurnRow) };
  if (rows.some((row) => row.id === turnId)) throw alreadyExists('turn', turnId);
  return undefined;
}

/**
 * The owner's latest thread, or a new one. A thread that exists takes the one-statement path;
 * an owner's first thread is created under a transaction-scoped advisory lock on the owner, so
 * that two first messages at once make one thread.
 */
async function beginForOwner(j: PostgresJournal, input: BeginTurnInput, owner: string): Promise<BeginTurnResult | undefined> {
  if (input.newThread === true) return beginInOwnThread(j, input, owner);
  // The owner's latest thread found and the turn begun there in one statement (the common case).
  const now = j.clock();
  const turnId = input.turnId ?? j.ids();
  const itemId = j.ids();
  const userText = checkItem({ kind: 'user_text', data: userItemData(input) });
  const { rows } = await j.sql.query(j.t.beginForOwner, [owner, turnId, input.requestKey, input.input, input.lease ?? null, now, itemId, userText]);
  const created = rows[0];
  if (created !== undefined) {
    const thread = toThread(created as unknown as ThreadRow);
    return { outcome: 'created', thread, turn: newTurn(turnId, thread, input, now), userItem: userItem(itemId, thread.id, turnId, Number(created.next_ordinal), input, now) };
  }
  const [latest] = await listThreads(j, owner, 1);
  if (latest !== undefined) return notCreated(j, j.sql.query, latest, input, turnId);
  return j.sql.transaction(async (query) => {
    await query(j.t.lockOwner, [owner]);
    const again = await query(j.t.ownedThreads, [owner, 1]);
    const row = again.rows[0] as unknown as ThreadRow | undefined;
    if (row !== undefined) return beginInThread(j, query, inThread(input, row.id, owner), row.id);
    return beginInNewThread(j, query, input, owner);
  });
}

/**
 * A thread of its own (`newThread`) made with its first turn in one statement; a request key the
 * owner used replays its turn, in the thread it began.
 */
async function beginInOwnThread(j: PostgresJournal, input: BeginTurnInput, owner: string): Promise<BeginTurnResult> {
  return j.sql.transaction(async (query) => {
    await query(j.t.lockOwner, [owner]);
    const used = await query(j.t.blockingTurns, [owner, input.requestKey, '', '']);
    const replayed = used.rows[0] as unknown as TurnRow | undefined;
    const its = replayed === undefined ? undefined : ((await query(j.t.getThread, [replayed.thread_id])).rows[0] as unknown as ThreadRow | undefined);
    if (replayed !== undefined && its !== undefined) return { outcome: 'existing' as const, thread: toThread(its), turn: toTurn(replayed) };
    return beginInNewThread(j, query, input, owner);
  });
}

/** A new thread of the owner's and its first turn, in one statement. */
async function beginInNewThread(j: PostgresJournal, query: SqlQuery, input: BeginTurnInput, owner: string): Promise<BeginTurnResult> {
  const now = j.clock();
  const threadId = j.ids();
  const turnId = input.turnId ?? j.ids();
  const itemId = j.ids();
  const title = input.newThreadTitle ?? null;
  const userText = checkItem({ kind: 'user_text', data: userItemData(input) });
  try {
    await query(j.t.beginInNewThread, [threadId, owner, title, now, turnId, input.requestKey, input.input, input.lease ?? null, itemId, userText]);
  } catch (error) {
    if (sqlState(error) === uniqueViolation) throw alreadyExists('turn', turnId, error);
    throw error;
  }
  const thread = newThread(threadId, owner, title, now);
  return { outcome: 'created' as const, thread, turn: newTurn(turnId, thread, input, now), userItem: userItem(itemId, threadId, turnId, 1, input, now) };
}

/** An owner's turn, aimed at the thread found for it. */
function inThread(input: BeginTurnInput, threadId: string, owner: string): BeginTurnInput {
  return { threadId, owner, requestKey: input.requestKey, input: input.input, ...(input.userData === undefined ? {} : { userData: input.userData }), ...(input.turnId === undefined ? {} : { turnId: input.turnId }), ...(input.lease === undefined ? {} : { lease: input.lease }) };
}

function userItem(id: string, threadId: string, turnId: string, ordinal: number, input: BeginTurnInput, now: number): ItemRecord {
  return Object.freeze({ id, threadId, turnId, ordinal, kind: 'user_text', data: userItemData(input), createdAt: now });
}
