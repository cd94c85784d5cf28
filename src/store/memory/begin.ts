import { newTurn, userItemData } from '../new-records.js';
import { alreadyExists, jsonCopy, notFound } from '../records.js';
import type { BeginTurnInput, BeginTurnResult } from '../types.js';
import { append } from './items.js';
import { activeTurn, addThread, requestKeyOf, threadState, trackActive } from './journal.js';
import type { MemoryJournal } from './journal.js';
import { latestState } from './threads.js';

/**
 * A turn's acceptance with its user item: in the named thread, the owner's latest or a new one;
 * or the turn its request key already began, or the active turn that keeps the thread busy.
 */
export function beginTurn(j: MemoryJournal, input: BeginTurnInput): BeginTurnResult {
  if (input.threadId === undefined && input.newThread === true) {
    const replayed = j.turns.get(j.requestKeys.get(requestKeyOf(input.owner, input.requestKey)) ?? '');
    const its = replayed === undefined ? undefined : threadState(j, replayed.threadId);
    if (replayed !== undefined && its !== undefined) return { outcome: 'existing', thread: its.record, turn: replayed };
  }
  const found = input.threadId !== undefined ? threadState(j, input.threadId) : input.newThread === true ? undefined : latestState(j, input.owner);
  if (input.threadId !== undefined && input.owner !== undefined && found?.record.owner !== input.owner) throw notFound('thread', input.threadId);
  const owner = found?.record.owner ?? input.owner!;
  if (found !== undefined) {
    const existingId = j.requestKeys.get(requestKeyOf(owner, input.requestKey));
    const existing = existingId === undefined ? undefined : j.turns.get(existingId);
    if (existing !== undefined) return { outcome: 'existing', thread: found.record, turn: existing };
    const active = activeTurn(j, found);
    if (active !== undefined) return { outcome: 'busy', thread: found.record, turn: active };
  }
  // Copied (and checked) before anything is touched: a failure leaves nothing behind.
  const userData = input.userData === undefined ? { text: input.input } : jsonCopy(userItemData(input), "item of kind 'user_text'");
  const now = j.clock();
  const newThreadId = found === undefined ? j.ids() : undefined;
  const turnId = input.turnId ?? j.ids();
  if (j.turns.has(turnId)) throw alreadyExists('turn', turnId);
  const state = found ?? addThread(j, owner, input.newThreadTitle ?? null, now, newThreadId);
  const turn = newTurn(turnId, state.record, input, now);
  j.turns.set(turn.id, turn);
  j.requestKeys.set(requestKeyOf(owner, input.requestKey), turn.id);
  state.turnIds.push(turn.id);
  trackActive(j, turn);
  const [userItem] = append(j, state, turn.id, [{ kind: 'user_text', data: null }], now, [userData]);
  state.record = Object.freeze({ ...state.record, updatedAt: now });
  return { outcome: 'created', thread: state.record, turn, userItem: userItem! };
}
