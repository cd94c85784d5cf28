import type { ConfirmationRecord, ItemRecord, Store, TurnRecord } from '../../store/index.js';
import { confirmationRequestOf, confirmationResolutionOf, newItems, stopRequestOf, toolCallOf, toolResultOf } from '../shared/index.js';

/**
 * How a turn that stopped mid-run ended: `effect_outcome_unknown` when a write had started and not
 * finished (a write held for confirmation counts as started only once approved), else `interrupted`.
 */
export function classifyInterrupted(turnItems: readonly ItemRecord[]): 'interrupted' | 'effect_outcome_unknown' {
  return unfinishedWrites(turnItems).length > 0 ? 'effect_outcome_unknown' : 'interrupted';
}

/** Call ids of writes that started and have no result. */
export function unfinishedWrites(turnItems: readonly ItemRecord[]): string[] {
  const writes = new Map<string, boolean>();
  const held = new Set<string>();
  const lastResolution = new Map<string, string>();
  for (const item of turnItems) {
    if (item.kind === 'tool_call') {
      const call = toolCallOf(item);
      if (call.effect !== 'read' && call.effect !== 'unknown') writes.set(call.callId, true);
    } else if (item.kind === 'tool_result') writes.delete(toolResultOf(item).callId);
    else if (item.kind === 'confirmation_request') held.add(confirmationRequestOf(item).callId);
    else if (item.kind === 'confirmation_resolution') {
      const resolution = confirmationResolutionOf(item);
      lastResolution.set(resolution.callId, resolution.outcome);
    }
  }
  return [...writes.keys()].filter((callId) => !held.has(callId) || lastResolution.get(callId) === 'approved');
}

const messages = {
  interrupted: 'The server stopped while this turn was running. No change was in flight; retry the turn to continue.',
  effect_outcome_unknown: 'The server stopped while a change was being made; whether it took effect is unknown. Check the data before asking again.',
} as const;

/** A turn that was stopping when its server stopped. */
const stoppedMessages = {
  cancelled: 'The turn was cancelled (it was stopping when the server stopped).',
  effect_outcome_unknown: 'The turn was cancelled while a change was running, and the server stopped before it finished; whether it took effect is unknown.',
} as const;

/**
 * Ends every orphaned turn — `accepted` or `running` under a lease that lapsed, was released, or
 * never was (a process that died, or stopped without finishing it) — as `interrupted` or
 * `effect_outcome_unknown` — or, when a person's stop was journaled (`stop` mark), `cancelled` as
 * that stop would have ended it. Each ending is one transaction of the store's (`endOrphanedTurn`):
 * the lease check, the classification of the turn's items and the ending together, so a turn
 * whose engine renewed its lease meanwhile is left alone. Waiting turns stay waiting until their
 * confirmation expires. Returns the turns it ended.
 */
export async function recoverInterruptedTurns(store: Store, now: () => number = Date.now): Promise<readonly TurnRecord[]> {
  const failed: TurnRecord[] = [];
  for (const turn of await store.orphanedTurns()) {
    // A held write whose confirmation is still pending never ran (the claim comes before the write,
    // even once the approval is journaled): resolved here first, so that it never can, and the turn says so.
    const notRun = new Map<string, ConfirmationRecord>();
    for (const pending of await store.pendingConfirmations(turn.id)) {
      if (await store.resolveConfirmation(pending.id, { status: 'cancelled', reason: 'interrupted' }, now())) notRun.set(pending.callId, pending);
    }
    const ended = await store.endOrphanedTurn(turn.id, (_turn, items) => {
      const unknown = unfinishedWrites(items).some((callId) => !notRun.has(callId));
      const resolutions = [...notRun.values()].flatMap((pending) => [
        newItems.confirmationResolution({ confirmationId: pending.id, callId: pending.callId, outcome: 'cancelled' }),
        newItems.toolResult({ callId: pending.callId, name: pending.tool, result: notRunResult }),
      ]);
      // A claimed confirmation's write started; it ends with the turn, resolved, so that nothing is left claimed.
      const claimed = { outcome: unknown ? 'outcome_unknown' : 'interrupted' };
      // A person had stopped it: it ends as their stop would have (and its thread's queue stays held).
      if (stopRequestOf(items) !== undefined) {
        const code = unknown ? 'effect_outcome_unknown' : 'cancelled';
        return { items: [...resolutions, newItems.error(code, stoppedMessages[code])], patch: { status: 'cancelled', failureCode: code, failureMessage: stoppedMessages[code] }, claimed };
      }
      const code = unknown ? 'effect_outcome_unknown' : 'interrupted';
      return { items: [...resolutions, newItems.error(code, messages[code])], patch: { status: 'failed', failureCode: code, failureMessage: messages[code] }, claimed };
    });
    if (ended !== undefined) failed.push(ended);
  }
  return failed;
}

/** The result of a held write that the stopped process approved but never ran. */
const notRunResult = { status: 'cancelled', reason: 'interrupted', message: 'The server stopped before this change was made; it did not run, and nothing changed.' };

export const interruptionMessages = messages;
