import type { ItemRecord, Store, TurnRecord } from '../store/index.js';
import { confirmationRequestOf, confirmationResolutionOf, newItems, toolCallOf, toolResultOf } from './journal.js';

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

/**
 * Fails every turn a previous process left `accepted` or `running`: run once when an engine
 * starts on a store. Waiting turns stay waiting until their confirmation expires.
 */
export async function recoverInterruptedTurns(store: Store): Promise<readonly TurnRecord[]> {
  const stranded = [...(await store.turnsWithStatus('running')), ...(await store.turnsWithStatus('accepted'))];
  const failed: TurnRecord[] = [];
  for (const turn of stranded) {
    const items = await store.listItems(turn.threadId, { turnId: turn.id });
    const code = classifyInterrupted(items);
    await store.appendItems(turn.id, [newItems.error(code, messages[code])], { status: 'failed', failureCode: code, failureMessage: messages[code] });
    const updated = await store.getTurn(turn.id);
    if (updated !== undefined) failed.push(updated);
  }
  return failed;
}

export const interruptionMessages = messages;
