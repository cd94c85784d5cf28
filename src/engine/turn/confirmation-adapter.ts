import { actorKey } from '../../core/index.js';
import type { Actor, JsonObject, JsonValue } from '../../core/index.js';
import type { ConfirmationRecord, Store } from '../../store/index.js';
import type { ClaimOutcome, ConfirmationResolution, ConfirmationStore, PendingConfirmation } from '../../tools/index.js';

/** Which turn and call a confirmation being created belongs to (the engine knows; the dispatcher does not). */
export type ConfirmationBinding = (threadId: string | undefined) => { readonly turnId: string; readonly callId: string } | undefined;

const timedOut: ConfirmationResolution = { status: 'cancelled', reason: 'confirmation_timed_out' };

/**
 * The dispatcher's confirmation store, made durable on the engine's store: records live in the
 * store's confirmations table, tied to their turn and call, and a claim is the store's atomic claim.
 */
export function storeConfirmations(store: Store, binding: ConfirmationBinding): ConfirmationStore {
  return {
    async create(record: PendingConfirmation): Promise<void> {
      const bound = binding(record.threadId);
      const owner = actorKey(record.actor);
      if (bound === undefined || record.threadId === undefined || owner === undefined) {
        throw new Error('A confirmation can only be held inside a turn of a thread with an identified owner.');
      }
      await store.createConfirmation({
        id: record.id,
        threadId: record.threadId,
        turnId: bound.turnId,
        owner,
        actor: record.actor as unknown as JsonValue,
        callId: bound.callId,
        tool: record.tool,
        arguments: record.arguments,
        digest: record.argumentsHash,
        createdAt: Date.parse(record.createdAt),
        expiresAt: Date.parse(record.expiresAt),
      });
    },
    async get(id: string): Promise<PendingConfirmation | undefined> {
      const record = await store.getConfirmation(id);
      return record === undefined ? undefined : toPending(record);
    },
    async claim(id: string, actor: Actor, now: Date): Promise<ClaimOutcome> {
      const owner = actorKey(actor);
      if (owner === undefined) return { ok: false, reason: 'unknown' };
      const outcome = await store.claimConfirmation(id, owner, now.getTime(), timedOut);
      switch (outcome.outcome) {
        case 'claimed':
          return { ok: true, record: toPending(outcome.confirmation) };
        case 'expired':
          return { ok: false, reason: 'expired' };
        case 'unavailable':
          return { ok: false, reason: 'used' };
        default:
          return { ok: false, reason: 'unknown' };
      }
    },
    async resolve(id: string, resolution: ConfirmationResolution, now: Date): Promise<void> {
      await store.resolveConfirmation(id, resolution, now.getTime());
    },
    async expire(now: Date): Promise<readonly PendingConfirmation[]> {
      return (await store.expireConfirmations(now.getTime(), timedOut as unknown as JsonValue)).map(toPending);
    },
  };
}

function toPending(record: ConfirmationRecord): PendingConfirmation {
  return {
    id: record.id,
    tool: record.tool,
    arguments: record.arguments as JsonObject,
    argumentsHash: record.digest,
    actor: record.actor as unknown as Actor,
    threadId: record.threadId,
    createdAt: new Date(record.createdAt).toISOString(),
    expiresAt: new Date(record.expiresAt).toISOString(),
    state: record.status,
    resolution: (record.resolution ?? undefined) as ConfirmationResolution | undefined,
    resolvedAt: record.resolvedAt === null ? undefined : new Date(record.resolvedAt).toISOString(),
  };
}
