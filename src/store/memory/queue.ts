import { queuedTurnInput } from '../new-records.js';
import { compareIds } from '../ordered-ids.js';
import { alreadyExists, notFound } from '../records.js';
import type { BeginTurnResult, EnqueueInput, EnqueueResult, QueuedMessage } from '../types.js';
import { beginTurn } from './begin.js';
import { copyJson, threadState } from './journal.js';
import type { MemoryJournal } from './journal.js';

/** The memory store's queue of messages waiting for their thread's turn (docs/store.md, "Queue"). */

/** The thread's queue, head first. */
function queued(j: MemoryJournal, threadId: string): { message: QueuedMessage; seq: number }[] {
  return [...j.queue.values()].filter((entry) => entry.message.threadId === threadId).sort((a, b) => a.seq - b.seq || compareIds(a.message.id, b.message.id));
}

export function enqueueMessage(j: MemoryJournal, input: EnqueueInput): EnqueueResult {
  const state = threadState(j, input.threadId);
  if (state.record.owner !== input.owner) throw notFound('thread', input.threadId);
  const queue = queued(j, input.threadId);
  const same = queue.findIndex((entry) => entry.message.owner === input.owner && entry.message.requestKey === input.requestKey);
  if (same >= 0) return { outcome: 'existing', message: queue[same]!.message, position: same + 1 };
  if (queue.length >= input.limit) return { outcome: 'full', size: queue.length };
  const id = input.id ?? j.ids();
  if (j.queue.has(id)) throw alreadyExists('queued message', id);
  const now = j.clock();
  const message: QueuedMessage = Object.freeze({
    id,
    threadId: input.threadId,
    owner: input.owner,
    actor: copyJson(input.actor),
    requestKey: input.requestKey,
    text: input.text,
    language: input.language ?? null,
    steer: false,
    createdAt: now,
    updatedAt: now,
  });
  j.queue.set(id, { message, seq: (queue.at(-1)?.seq ?? 0) + 1 });
  return { outcome: 'queued', message, position: queue.length + 1 };
}

export function listQueued(j: MemoryJournal, threadId: string): readonly QueuedMessage[] {
  return queued(j, threadId).map((entry) => entry.message);
}

export function editQueued(j: MemoryJournal, id: string, text: string, expectedText: string | undefined): QueuedMessage | undefined {
  const entry = j.queue.get(id);
  if (entry === undefined || (expectedText !== undefined && entry.message.text !== expectedText)) return undefined;
  entry.message = Object.freeze({ ...entry.message, text, updatedAt: j.clock() });
  return entry.message;
}

export function steerQueued(j: MemoryJournal, id: string): QueuedMessage | undefined {
  const entry = j.queue.get(id);
  if (entry === undefined) return undefined;
  const head = queued(j, entry.message.threadId)[0];
  if (head !== undefined && head !== entry) entry.seq = head.seq - 1;
  entry.message = Object.freeze({ ...entry.message, steer: true, updatedAt: j.clock() });
  return entry.message;
}

export function beginQueuedTurn(j: MemoryJournal, id: string, lease: string | undefined): { readonly message: QueuedMessage; readonly begun: BeginTurnResult } | undefined {
  const entry = j.queue.get(id);
  if (entry === undefined) return undefined;
  const { message } = entry;
  j.queue.delete(id);
  let begun: BeginTurnResult;
  try {
    begun = beginTurn(j, queuedTurnInput(message, lease));
  } catch (error) {
    j.queue.set(id, entry);
    throw error;
  }
  if (begun.outcome === 'busy') j.queue.set(id, entry);
  return { message, begun };
}

export function queuedThreads(j: MemoryJournal): readonly string[] {
  return [...new Set([...j.queue.values()].map((entry) => entry.message.threadId))];
}
