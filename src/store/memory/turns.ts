import { checkStatus, notFound } from '../records.js';
import type { TurnPatch, TurnRecord, TurnStatus } from '../types.js';
import { trackActive } from './journal.js';
import type { MemoryJournal } from './journal.js';

/** The memory store's turns once begun: reads, and patches of their status, failure, usage and lease. */

export function listTurns(j: MemoryJournal, threadId: string): readonly TurnRecord[] {
  const state = j.threads.get(threadId);
  if (state === undefined) return [];
  return state.turnIds.map((id) => j.turns.get(id)).filter((turn) => turn !== undefined);
}

export function turnsWithStatus(j: MemoryJournal, status: TurnStatus): readonly TurnRecord[] {
  return [...j.turns.values()].filter((turn) => turn.status === status);
}

export function updateTurn(j: MemoryJournal, id: string, patch: TurnPatch, from: readonly TurnStatus[] | undefined): TurnRecord | undefined {
  const turn = j.turns.get(id);
  if (turn === undefined) throw notFound('turn', id);
  if (from !== undefined && !from.includes(turn.status)) return undefined;
  return patchTurn(j, turn, patch);
}

export function patchTurn(j: MemoryJournal, turn: TurnRecord, patch: TurnPatch): TurnRecord {
  if (patch.status !== undefined) checkStatus(patch.status);
  const next: TurnRecord = Object.freeze({
    ...turn,
    status: patch.status ?? turn.status,
    failureCode: patch.failureCode === undefined ? turn.failureCode : patch.failureCode,
    failureMessage: patch.failureMessage === undefined ? turn.failureMessage : patch.failureMessage,
    usage:
      patch.addUsage === undefined
        ? turn.usage
        : Object.freeze({
            inputTokens: turn.usage.inputTokens + patch.addUsage.inputTokens,
            outputTokens: turn.usage.outputTokens + patch.addUsage.outputTokens,
          }),
    lease: patch.lease === undefined ? turn.lease : patch.lease,
    updatedAt: j.clock(),
  });
  j.turns.set(turn.id, next);
  if (next.status !== turn.status) trackActive(j, next);
  return next;
}
