import type { Actor, JsonObject, JsonValue } from '../core/index.js';

/** How a pending confirmation ended. */
export type ConfirmationResolution =
  | { readonly status: 'executed'; readonly result: JsonValue }
  | { readonly status: 'failed'; readonly error: { readonly code: string; readonly message: string } }
  | { readonly status: 'cancelled'; readonly reason: 'user_rejected' | 'confirmation_timed_out' };

/**
 * A call held back until a person confirms it. `arguments` are the validated JSON arguments;
 * `argumentsHash` is the SHA-256 of their RFC 8785 canonical JSON. Times are ISO 8601 strings.
 * `state` moves once: `pending` → `claimed` → `resolved` (or `pending` → `resolved` on expiry).
 */
export interface PendingConfirmation {
  readonly id: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly argumentsHash: string;
  readonly actor: Actor;
  readonly threadId?: string | undefined;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly state: 'pending' | 'claimed' | 'resolved';
  readonly resolution?: ConfirmationResolution | undefined;
  readonly resolvedAt?: string | undefined;
}

/** Why a claim failed: `unknown` (no such id, or another actor's), `used` (not pending), `expired`. */
export type ClaimOutcome =
  | { readonly ok: true; readonly record: PendingConfirmation }
  | { readonly ok: false; readonly reason: 'unknown' | 'used' | 'expired' };

/**
 * Where pending confirmations live. `claim` is the one atomic step: it moves a pending record of
 * the same actor (see `sameActor`) from `pending` to `claimed` exactly once, or, when it has
 * lapsed, resolves it as `confirmation_timed_out` and answers `expired`. The memory store
 * implements it here; the engine's durable store implements the same interface.
 */
export interface ConfirmationStore {
  create(record: PendingConfirmation): Promise<void>;
  get(id: string): Promise<PendingConfirmation | undefined>;
  claim(id: string, actor: Actor, now: Date): Promise<ClaimOutcome>;
  /** Records how a claimed (or pending) confirmation ended; a resolved record is left as it is. */
  resolve(id: string, resolution: ConfirmationResolution, now: Date): Promise<void>;
  /** Resolves every pending record whose `expiresAt` is at or before `now`; returns them resolved. */
  expire(now: Date): Promise<readonly PendingConfirmation[]>;
}

/** Two actors are the same confirming party: the same user id, or the same anonymous session key. */
export function sameActor(a: Actor, b: Actor): boolean {
  if (a.kind === 'user') return b.kind === 'user' && a.id === b.id;
  return b.kind === 'anonymous' && a.sessionKey !== undefined && a.sessionKey === b.sessionKey;
}

export const timedOut: ConfirmationResolution = Object.freeze({ status: 'cancelled', reason: 'confirmation_timed_out' });
