import { PlumbError } from '../../core/index.js';
import { queuedTurnInput } from '../new-records.js';
import { notFound } from '../records.js';
import { toQueued } from '../rows.js';
import type { QueuedRow } from '../rows.js';
import type { BeginTurnResult, EnqueueInput, EnqueueResult, QueuedMessage } from '../types.js';
import { beginInThread } from './begin.js';
import { allRows, firstRow } from './journal.js';
import type { PostgresJournal } from './journal.js';
import { sqlState, uniqueViolation } from './sql.js';

/** The PostgreSQL store's queue of messages waiting for their thread's turn (docs/store.md, "Queue"). */

/** `actorText`: the message's actor as JSON text. */
export async function enqueueMessage(j: PostgresJournal, input: EnqueueInput, actorText: string): Promise<EnqueueResult> {
  const id = input.id ?? j.ids();
  // The thread's row lock orders enqueues (and appends) to one thread, so the count and the position hold.
  return j.sql.transaction(async (query): Promise<EnqueueResult> => {
    const thread = (await query(j.t.lockThreadOwner, [input.threadId])).rows[0];
    if (thread === undefined || thread.owner !== input.owner) throw notFound('thread', input.threadId);
    const same = (await query(j.t.queuedByRequestKey, [input.owner, input.requestKey])).rows[0] as unknown as QueuedRow | undefined;
    if (same !== undefined) return { outcome: 'existing', message: toQueued(same), position: Number((await query(j.t.queuePosition, [same.id])).rows[0]?.position) };
    const size = Number((await query(j.t.queueSize, [input.threadId])).rows[0]?.size ?? 0);
    if (size >= input.limit) return { outcome: 'full', size };
    const now = j.clock();
    let rows;
    try {
      ({ rows } = await query(j.t.insertQueued, [id, input.threadId, input.owner, input.requestKey, input.text, input.language ?? null, now, actorText]));
    } catch (error) {
      if (sqlState(error) === uniqueViolation) throw new PlumbError('store_invalid_record', `A queued message with id '${id}' (or request key '${input.requestKey}') already exists.`, { cause: error });
      throw error;
    }
    return { outcome: 'queued', message: toQueued(rows[0] as unknown as QueuedRow), position: size + 1 };
  });
}

export async function getQueued(j: PostgresJournal, id: string): Promise<QueuedMessage | undefined> {
  return firstRow((await j.query(j.t.getQueued, [id])).rows, toQueued);
}

export async function listQueued(j: PostgresJournal, threadId: string): Promise<readonly QueuedMessage[]> {
  const { rows } = await j.query(j.t.threadQueue, [threadId]);
  return allRows(rows, toQueued);
}

export async function editQueued(j: PostgresJournal, id: string, text: string, expectedText: string | undefined): Promise<QueuedMessage | undefined> {
  return firstRow((await j.query(j.t.editQueued, [id, text, j.clock(), expectedText ?? null])).rows, toQueued);
}

export async function steerQueued(j: PostgresJournal, id: string): Promise<QueuedMessage | undefined> {
  return firstRow((await j.query(j.t.steerQueued, [id, j.clock()])).rows, toQueued);
}

export async function removeQueued(j: PostgresJournal, id: string): Promise<boolean> {
  return (await j.query(j.t.deleteQueued, [id])).rowCount > 0;
}

export async function beginQueuedTurn(j: PostgresJournal, id: string, lease: string | undefined): Promise<{ readonly message: QueuedMessage; readonly begun: BeginTurnResult } | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const outcome = await j.sql.transaction(async (query) => {
      // Locked, so that an edit or a removal waits for the turn's acceptance and then finds it gone.
      const row = (await query(j.t.lockQueued, [id])).rows[0] as unknown as QueuedRow | undefined;
      if (row === undefined) return null;
      const message = toQueued(row);
      const begun = await beginInThread(j, query, queuedTurnInput(message, lease), message.threadId);
      if (begun === undefined) return undefined;
      if (begun.outcome !== 'busy') await query(j.t.deleteQueued, [id]);
      return { message, begun };
    });
    if (outcome === null) return undefined;
    if (outcome !== undefined) return outcome;
  }
  throw new PlumbError('store_invalid_record', `Could not begin the queued message '${id}': its thread kept changing under it.`);
}

export async function queuedThreads(j: PostgresJournal): Promise<readonly string[]> {
  const { rows } = await j.query(j.t.queuedThreads);
  return rows.map((row) => String(row.thread_id));
}
