import { PlumbError, actorKey } from '../../core/index.js';
import type { Actor, JsonValue } from '../../core/index.js';
import type { ThreadRecord, TurnRecord } from '../../store/index.js';
import { activeTurnStatuses } from '../../store/index.js';
import type { ChatEvent, EventChannel } from '../shared/index.js';
import { newItems, retryReason, runMarks, toolCallOf, toolResultOf } from '../shared/index.js';
import { ownerOf, threadNotFound } from '../thread/index.js';
import { replayEvents } from '../recovery/index.js';
import type { TurnHost } from './runner.js';
import { TurnRun } from './turn-run.js';
import { emptyCounters, replayCounters } from './turn-state.js';

export interface CancelRequest {
  readonly threadId: string;
  readonly mode: 'immediate' | 'graceful';
  /** When given, only the thread's owner may cancel. */
  readonly actor?: Actor;
}

export interface RetryRequest {
  readonly actor: Actor;
  readonly turnId: string;
  readonly requestKey: string;
  /**
   * Regenerate a completed answer: a new run of the thread's latest turn, from the person's
   * message; the old run stays in the journal, superseded. Refused with `not_regenerable` for any
   * other turn. Without it, a completed turn is not retried (`not_retryable`, reason `completed`).
   */
  readonly regenerate?: boolean;
  readonly signal?: AbortSignal;
}

/**
 * A person's stop: cancels the thread's active turn, or ends its waiting one; the turn once it
 * settled. The stop is journaled first (`stop` mark) and the thread's queue is not started after it.
 */
export async function cancel(host: TurnHost, request: CancelRequest): Promise<TurnRecord | undefined> {
  await host.usable();
  const thread = await host.parts.store.getThread(request.threadId);
  if (thread === undefined || (request.actor !== undefined && actorKey(request.actor) !== thread.owner)) {
    throw threadNotFound(request.threadId);
  }
  const active = host.runner.active.get(thread.id);
  if (active !== undefined) {
    await active.run.requestStop(request.mode);
    await active.settled;
    return host.parts.store.getTurn(active.run.turnId);
  }
  const waiting = (await host.parts.store.listTurns(thread.id)).find((turn) => turn.status === 'waiting');
  if (waiting === undefined) return undefined;
  const turn = await host.parts.store.updateTurn(waiting.id, { status: 'running', lease: host.lease() }, ['waiting']);
  if (turn === undefined) return host.parts.store.getTurn(waiting.id);
  for (const pending of await host.parts.store.pendingConfirmations(turn.id)) host.expiry.clear(pending.id);
  const channel = host.runner.channel();
  channel.detach();
  const items = [...(await host.parts.store.listItems(thread.id, { turnId: turn.id }))];
  const run = new TurnRun({ parts: host.parts, actor: { kind: 'anonymous' }, thread, turn, channel, items, counters: emptyCounters });
  run.cancelMode = request.mode;
  // The stop is the journal's before the turn ends, as for a running turn: the queue stays held after it.
  await run.append([runMarks.stop({ mode: request.mode, requestedAt: host.parts.clock() })]);
  await run.cancelled();
  return host.parts.store.getTurn(turn.id);
}

/** Runs a stopped or failed turn again from its committed items, or regenerates a completed one (a resent key replays it). */
export async function retry(host: TurnHost, request: RetryRequest, channel: EventChannel<ChatEvent>): Promise<void> {
  await host.usable();
  const owner = ownerOf(request.actor);
  const found = await host.parts.store.getTurn(request.turnId);
  if (found === undefined || found.owner !== owner) throw new PlumbError('turn_not_found', `No turn '${request.turnId}' of yours exists.`);
  const thread = await host.parts.store.getThread(found.threadId);
  if (thread === undefined) throw new PlumbError('turn_not_found', `No turn '${request.turnId}' of yours exists.`);
  const base = { thread_id: found.threadId, turn_id: found.id, run_id: '' };
  const turnItems = await host.parts.store.listItems(found.threadId, { turnId: found.id });
  if (turnItems.some((item) => item.kind === 'retry_marker' && (retryReason(item) === 'retry' || retryReason(item) === 'regenerate') && (item.data as { requestKey?: unknown }).requestKey === request.requestKey)) {
    for (const event of replayEvents(found, turnItems)) {
      const waiting = channel.push(event);
      if (waiting !== undefined) await waiting;
    }
    return;
  }
  const turns = await host.parts.store.listTurns(found.threadId);
  const latest = turns[turns.length - 1];
  if (request.regenerate === true) return regenerate(host, request, { thread, turn: found, latest }, channel);
  const refused = retryRefusal(found, latest);
  if (refused !== undefined) {
    void channel.push({ ...base, type: 'error', code: 'not_retryable', reason: refused.reason, message: refused.message });
    return;
  }
  const turn = await host.parts.store.updateTurn(found.id, { status: 'running', failureCode: null, failureMessage: null, lease: host.lease() }, [found.status === 'cancelled' ? 'cancelled' : 'failed']);
  if (turn === undefined) {
    void channel.push({ ...base, type: 'error', code: 'turn_in_progress', message: 'This turn is already being retried.' });
    return;
  }
  const items = [...(await host.parts.store.listItems(thread.id))];
  const run = new TurnRun({ parts: host.parts, actor: request.actor, thread, turn, channel, items, counters: emptyCounters });
  // The mark begins the new run before its first event (a `queued` phase while it waits for a slot).
  await run.append([newItems.retryMarker({ reason: 'retry', requestKey: request.requestKey })]);
  await host.runner.run(run, async () => {
    run.counters = replayCounters(run.turnItems());
    await finishDanglingReads(host, run);
  });
}

/**
 * A new run of a completed latest turn: the `regenerate` mark (with the request key) is journaled
 * as the turn becomes `running` again, and the run reads the thread without the superseded run's
 * items (`withoutSuperseded`), so the router or the model answers the person's message afresh and
 * every write it asks for waits for a new confirmation.
 */
async function regenerate(host: TurnHost, request: RetryRequest, found: { readonly thread: ThreadRecord; readonly turn: TurnRecord; readonly latest: TurnRecord | undefined }, channel: EventChannel<ChatEvent>): Promise<void> {
  const { store } = host.parts;
  const base = { thread_id: found.thread.id, turn_id: found.turn.id, run_id: '' };
  const refused = regenerateRefusal(found.turn, found.latest);
  if (refused !== undefined) {
    void channel.push({ ...base, type: 'error', code: 'not_regenerable', reason: refused.reason, message: refused.message });
    return;
  }
  const lease = host.lease();
  const turn = await store.updateTurn(found.turn.id, { status: 'running', failureCode: null, failureMessage: null, lease }, ['completed']);
  if (turn === undefined) {
    void channel.push({ ...base, type: 'error', code: 'turn_in_progress', message: 'This answer is already being regenerated or retried.' });
    return;
  }
  await store.appendItems(turn.id, [runMarks.regenerate(request.requestKey)], {}, { lease });
  const items = [...(await store.listItems(found.thread.id))];
  const run = new TurnRun({ parts: host.parts, actor: request.actor, thread: found.thread, turn, channel, items, counters: emptyCounters });
  await host.runner.run(run, () => Promise.resolve());
}

/** Why an answer may not be regenerated, as the `reason` of `not_regenerable`. */
export function regenerateRefusal(turn: TurnRecord, latest: TurnRecord | undefined): { readonly reason: string; readonly message: string } | undefined {
  if (latest?.id !== turn.id) return { reason: 'not_latest', message: 'Only the latest answer of a conversation can be regenerated; a later message was sent after this one.' };
  if (activeTurnStatuses.includes(turn.status)) return { reason: 'active', message: 'This turn is still running or waiting; stop it first, or wait for its answer.' };
  if (turn.status !== 'completed') return { reason: 'not_completed', message: 'This turn has no completed answer to regenerate: retry it (without regenerate) when it may be retried, or send the message again.' };
  return undefined;
}

/** Reads that were running when the turn stopped are run again (they change nothing); writes never are. */
async function finishDanglingReads(host: TurnHost, run: TurnRun): Promise<void> {
  const items = run.turnItems();
  const answered = new Set(items.filter((item) => item.kind === 'tool_result').map((item) => toolResultOf(item).callId));
  const dangling = items.filter((item) => item.kind === 'tool_call').map(toolCallOf).filter((call) => !answered.has(call.callId) && (call.effect === 'read' || call.effect === 'unknown'));
  if (dangling.length === 0) return;
  const results = await Promise.all(
    dangling.map(async (call) =>
      (await host.parts.dispatcher.dispatch({ name: call.name, arguments: call.arguments }, { actor: run.actor, signal: run.signal, threadId: run.thread.id })) as JsonValue,
    ),
  );
  await run.append(dangling.map((call, index) => newItems.toolResult({ callId: call.callId, name: call.name, result: results[index] ?? null })));
  for (const [index, call] of dangling.entries()) {
    const waiting = run.emit({ type: 'tool_result', id: call.callId, name: call.name, result: results[index] ?? null });
    if (waiting !== undefined) await waiting;
  }
}

/**
 * Why a turn may not be retried, as the `reason` of `not_retryable`: its write's outcome is unknown
 * (it might run twice), a later turn exists, it is still active or completed, or it failed in a way
 * that running it again would repeat (a bound, a refusal). A turn that failed `interrupted`,
 * `rate_limited`, `deadline_exceeded` or with a provider code, or that a person stopped (cancelled
 * with nothing in flight), is retried from its committed items.
 */
export function retryRefusal(turn: TurnRecord, latest: TurnRecord | undefined): { readonly reason: string; readonly message: string } | undefined {
  const code = turn.failureCode ?? '';
  if (code === 'effect_outcome_unknown') {
    return { reason: 'effect_outcome_unknown', message: 'This turn stopped while a change was running; it cannot be retried because the change might run twice. Check the data and ask again.' };
  }
  if (latest?.id !== turn.id) return { reason: 'not_latest', message: 'Only the latest turn of a conversation can be retried; a later message was sent after this one.' };
  if (activeTurnStatuses.includes(turn.status)) return { reason: 'active', message: 'This turn is still running or waiting; stop it first, or wait for it to end.' };
  if (turn.status === 'completed') return { reason: 'completed', message: 'This turn completed; regenerate its answer (retry with regenerate: true), or send the message again.' };
  const retryable = turn.status === 'cancelled' ? code === 'cancelled' : code === 'interrupted' || code === 'rate_limited' || code === 'deadline_exceeded' || code.startsWith('provider_');
  if (retryable) return undefined;
  return { reason: code === '' ? 'not_retryable' : code, message: 'Only a turn that was stopped, or that failed with interrupted, deadline_exceeded, rate_limited or a provider failure, can be retried.' };
}
