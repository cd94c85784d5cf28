import type { JsonValue } from '../core/index.js';
import type { BeginTurnInput, LeaseRecord, QueuedMessage, ThreadRecord, TurnRecord } from './types.js';

/** The records every store makes the same way from what it was given. */

/** A thread as it is created: no summary, no router session, no title source, no fork. */
export function newThread(id: string, owner: string, title: string | null, now: number): ThreadRecord {
  return Object.freeze({ id, owner, title, summary: null, summaryThroughItemId: null, routerSession: null, titleSource: null, forkedFrom: null, createdAt: now, updatedAt: now });
}

/** A turn as `beginTurn` accepts it in `thread`. */
export function newTurn(id: string, thread: Pick<ThreadRecord, 'id' | 'owner'>, input: BeginTurnInput, now: number): TurnRecord {
  return Object.freeze({
    id,
    threadId: thread.id,
    owner: thread.owner,
    requestKey: input.requestKey,
    input: input.input,
    status: 'accepted',
    failureCode: null,
    failureMessage: null,
    usage: Object.freeze({ inputTokens: 0, outputTokens: 0 }),
    lease: input.lease ?? null,
    createdAt: now,
    updatedAt: now,
  });
}

/** The data of the user item `beginTurn` writes: its text, and whatever else the turn's message carries. */
export function userItemData(input: BeginTurnInput): JsonValue {
  return input.userData === undefined ? { text: input.input } : { ...input.userData, text: input.input };
}

/** A lease as it is acquired at `now`. */
export function newLease(id: string, holder: string, now: number, ttlMs: number): LeaseRecord {
  return Object.freeze({ id, holder, acquiredAt: now, heartbeatAt: now, expiresAt: now + ttlMs });
}

/** The turn a queued message begins in its thread. */
export function queuedTurnInput(message: QueuedMessage, lease: string | undefined): BeginTurnInput {
  return { threadId: message.threadId, owner: message.owner, requestKey: message.requestKey, input: message.text, ...(lease === undefined ? {} : { lease }) };
}
