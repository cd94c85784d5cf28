import { queuedTurnInput } from '../new-records.js';
import { alreadyExists, found, notFound } from '../records.js';
import { toQueued } from '../rows.js';
import type { QueuedRow, ThreadRow } from '../rows.js';
import type { BeginTurnResult, EnqueueInput, EnqueueResult, QueuedMessage } from '../types.js';
import { beginTurn } from './begin.js';
import { one } from './journal.js';
import type { SqliteJournal } from './journal.js';

/** The SQLite store's queue of messages waiting for their thread's turn (docs/store.md, "Queue"). */

/** `actorText`: the message's actor as JSON text. */
export function enqueueMessage(j: SqliteJournal, input: EnqueueInput, actorText: string): EnqueueResult {
  return j.db
    .transaction((): EnqueueResult => {
      const thread = j.sql.getThread.get(input.threadId) as ThreadRow | undefined;
      if (thread === undefined || thread.owner !== input.owner) throw notFound('thread', input.threadId);
      const same = j.sql.queuedByRequestKey.get(input.owner, input.requestKey) as QueuedRow | undefined;
      if (same !== undefined) return { outcome: 'existing', message: toQueued(same), position: position(j, same.id) };
      const size = j.sql.queueSize.get(input.threadId) as number;
      if (size >= input.limit) return { outcome: 'full', size };
      const now = j.clock();
      const id = input.id ?? j.ids();
      try {
        j.sql.insertQueued.run(id, input.threadId, input.owner, actorText, input.requestKey, input.text, input.language ?? null, input.threadId, now, now);
      } catch (cause) {
        throw alreadyExists('queued message', id, cause);
      }
      return { outcome: 'queued', message: queuedOrThrow(j, id), position: size + 1 };
    })
    .immediate();
}

/** A queued message's place in its thread's queue, from 1. */
function position(j: SqliteJournal, id: string): number {
  return j.sql.queuePosition.get(id) as number;
}

function queuedOrThrow(j: SqliteJournal, id: string): QueuedMessage {
  return found(getQueued(j, id), 'queued message', id);
}

export function getQueued(j: SqliteJournal, id: string): QueuedMessage | undefined {
  return one(j.sql.getQueued, id, toQueued);
}

export function listQueued(j: SqliteJournal, threadId: string): readonly QueuedMessage[] {
  return (j.sql.threadQueue.all(threadId) as QueuedRow[]).map(toQueued);
}

export function editQueued(j: SqliteJournal, id: string, text: string, expectedText: string | undefined): QueuedMessage | undefined {
  const changed = j.sql.editQueued.run(text, j.clock(), id, expectedText === undefined ? 1 : 0, expectedText ?? null).changes > 0;
  return changed ? queuedOrThrow(j, id) : undefined;
}

export function steerQueued(j: SqliteJournal, id: string): QueuedMessage | undefined {
  return j.sql.steerQueued.run(j.clock(), id).changes > 0 ? queuedOrThrow(j, id) : undefined;
}

export function removeQueued(j: SqliteJournal, id: string): boolean {
  return j.sql.deleteQueued.run(id).changes > 0;
}

export function beginQueuedTurn(j: SqliteJournal, id: string, lease: string | undefined): { readonly message: QueuedMessage; readonly begun: BeginTurnResult } | undefined {
  return j.db
    .transaction(() => {
      const row = j.sql.getQueued.get(id) as QueuedRow | undefined;
      if (row === undefined) return undefined;
      const message = toQueued(row);
      const begun = beginTurn(j, queuedTurnInput(message, lease));
      if (begun.outcome !== 'busy') j.sql.deleteQueued.run(id);
      return { message, begun };
    })
    .immediate();
}

export function queuedThreads(j: SqliteJournal): readonly string[] {
  return j.sql.queuedThreads.all() as string[];
}
