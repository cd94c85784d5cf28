import type { JsonObject, JsonValue } from '../../core/index.js';
import type { ToolCallPart } from '../../providers/index.js';
import type { NewItem } from '../../store/index.js';
import { askUserToolName, firstPage, isCancelled, isConfirmationRequired, isQuestion, readResultToolName } from '../../tools/index.js';
import { afterTools } from './decide.js';
import type { Completion, Plan, PlannedCall } from './decide.js';
import { newItems } from '../shared/index.js';
import { askQuestions } from '../thread/index.js';
import { errorCodeOf, countsAsFailure } from './turn-state.js';
import { describeMutation, parsedArguments } from '../shared/index.js';
import type { TurnRun } from './turn-run.js';

type ToolsPlan = Extract<Plan, { kind: 'tools' }>;

export type ToolStepOutcome = { readonly next: 'continue' } | { readonly next: 'waiting' } | { readonly next: 'stopped' };

const repetitionFeedback = (call: ToolCallPart): JsonValue => ({
  error: {
    code: 'tool_repetition',
    message: `You already called '${call.name}' with exactly these arguments in the last two steps; the result will not change. Use the results you have, change the arguments, or answer.`,
  },
});

const duplicateWrite = (call: ToolCallPart, earlierId: string): JsonValue => ({
  error: {
    code: 'duplicate_call',
    message: `'${call.name}' with exactly these arguments already ran in this message (call ${earlierId}) and succeeded; a change is never made twice, so this one did not run. Use its result, or answer.`,
  },
});

function isWrite(effect: string): boolean {
  return effect !== 'read' && effect !== 'unknown';
}

/**
 * One model step with tool calls: commit the step (text, calls, usage) in one transaction, emit the
 * calls, run them (reads concurrently, a write alone), then commit and emit the results in call
 * order (a read-only step is staged: see `TurnRun.stage`). A call held for confirmation pauses the
 * turn instead. A duplicate of a call that succeeded earlier in the turn (or runs earlier in this
 * step) is not run: a read answers that call's result again, a write `duplicate_call`.
 */
export async function runToolStep(run: TurnRun, completion: Completion, plan: ToolsPlan, step: number): Promise<ToolStepOutcome> {
  const stepItems: NewItem[] = [];
  if (completion.text !== '') stepItems.push(newItems.assistantText(completion.text, step));
  for (const planned of plan.calls) {
    const providerData = planned.call.providerData;
    stepItems.push(newItems.toolCall({ callId: planned.call.id, name: planned.call.name, arguments: planned.call.arguments, effect: planned.effect, step, ...(providerData === undefined ? {} : { providerData }) }));
  }
  // A write's call is committed before it runs, so that a crash mid-write is known as such.
  // A read-only step is committed whole once its reads finished: one transaction per step.
  const writes = plan.calls.some((planned) => planned.disposition === 'execute' && isWrite(planned.effect));
  if (writes || run.stopping) await run.append(stepItems, { status: 'running' });
  for (const planned of plan.calls) {
    const waiting = run.emit({ type: 'tool_call', id: planned.call.id, name: planned.call.name, args: parsedArguments(planned.call.arguments) });
    if (waiting !== undefined) await waiting;
  }
  if (run.stopping) {
    if (!writes) await run.append(stepItems, { status: 'running' });
    return { next: 'stopped' };
  }

  const entered = run.enter('running_tool');
  if (entered !== undefined) await entered;
  const whole = await Promise.all(plan.calls.map(async (planned) => (planned.disposition === 'execute' ? checkedExecute(run, planned.call, planned.effect) : undefined)));
  // A result over maxResultBytes: the model and the client get its first part and a handle, the journal keeps it whole.
  const cuts = whole.map((result, index) => (result === undefined ? undefined : cutResult(run, result as JsonValue, step, index)));
  const ran = whole.map((result, index) => cuts[index]?.view ?? result);
  const results = plan.calls.map((planned, index) => {
    if (planned.disposition === 'execute') return ran[index];
    return planned.disposition === 'duplicate' ? duplicateResult(planned, ran) : repetitionFeedback(planned.call);
  });

  const held = results.findIndex((result) => isConfirmationRequired(result));
  if (held >= 0) return hold(run, plan.calls[held]!.call, results[held], writes ? [] : stepItems);

  let reads = 0;
  let mutations = 0;
  let failures = 0;
  let invalidArguments = false;
  const resultItems: NewItem[] = writes ? [] : stepItems;
  for (const [index, planned] of plan.calls.entries()) {
    const result = results[index] as JsonValue;
    const duplicateOf = planned.duplicateOf?.callId;
    const cut = cuts[index];
    const item = newItems.toolResult({
      callId: planned.call.id,
      name: planned.call.name,
      result,
      ...(duplicateOf === undefined ? {} : { duplicateOf }),
      ...(cut === undefined ? {} : { fullResult: cut.whole, fullBytes: cut.bytes }),
    });
    resultItems.push(cut === undefined ? item : { ...item, id: cut.id });
    // A duplicate did not run: it is neither a read, a write nor a failure (nor a correction).
    if (planned.disposition === 'duplicate') continue;
    const code = errorCodeOf(result);
    if (code === 'invalid_arguments') invalidArguments = true;
    if (countsAsFailure(result)) failures++;
    if (planned.disposition !== 'execute' || code === 'invalid_arguments') continue;
    if (planned.effect === 'read' || planned.effect === 'unknown') reads++;
    else mutations++;
  }
  // A question pauses the turn until the person answers it: its call's result is the answer.
  if (results.some(isQuestion)) {
    const paused = await askQuestions(run, plan.calls.map((planned) => planned.call), results, resultItems, step);
    for (const [index, planned] of plan.calls.entries()) reportCall(run, planned.call, planned.effect, results[index] as JsonValue, planned.disposition !== 'duplicate');
    return paused;
  }
  // A read-only step is staged (its reads are safe to run again if its commit were lost); a write's result is committed before anything goes on.
  if (writes) await run.append(resultItems, { status: 'running' });
  else await run.stage(resultItems, { status: 'running' });
  for (const [index, planned] of plan.calls.entries()) {
    const result = results[index] as JsonValue;
    const waiting = run.emit({ type: 'tool_result', id: planned.call.id, name: planned.call.name, result });
    if (waiting !== undefined) await waiting;
    reportCall(run, planned.call, planned.effect, result, planned.disposition !== 'duplicate');
  }
  if (results.some(cannotConfirm)) {
    await failCannotConfirm(run);
    return { next: 'stopped' };
  }
  const after = afterTools(run.counters, plan, { reads, mutations, failures, invalidArguments }, run.parts.settings);
  run.counters = after.counters;
  if (run.stopping) return { next: 'stopped' };
  if (after.failure !== undefined) {
    await run.fail(after.failure.code, after.failure.message);
    return { next: 'stopped' };
  }
  return { next: 'continue' };
}

/**
 * The model's view of a result larger than the tools' `maxResultBytes`: its first page with the
 * handle (the result's item id, `<turn>.r<step>.<index>`, unique in the journal); undefined when it fits.
 */
function cutResult(run: TurnRun, result: JsonValue, step: number, index: number): { readonly id: string; readonly view: JsonValue; readonly whole: JsonValue; readonly bytes: number } | undefined {
  const id = `${run.turnId}.r${step}.${index}`;
  const page = firstPage(result, id, run.parts.dispatcher.settings.maxResultBytes);
  return page === undefined ? undefined : { id, view: page.view, whole: result, bytes: page.totalBytes };
}

/** What a duplicate answers: a read, the earlier call's result (this step's, once it ran); a write, `duplicate_call`. */
function duplicateResult(planned: PlannedCall, ran: readonly unknown[]): unknown {
  const earlier = planned.duplicateOf!;
  if (isWrite(planned.effect)) return duplicateWrite(planned.call, earlier.callId);
  return 'result' in earlier ? earlier.result : ran[earlier.index];
}

/** The dispatcher's answer when the caller cannot ask a person (`canConfirm: false`). */
export function cannotConfirm(result: unknown): boolean {
  return errorCodeOf(result as JsonValue) === 'confirmation_required';
}

/** A write needs a person's confirmation and this caller cannot ask for one: the turn ends, cleanly. */
export async function failCannotConfirm(run: TurnRun): Promise<void> {
  await run.fail(
    'confirmation_required_transport',
    'This change needs your confirmation, which this connection cannot ask for; nothing was changed. Ask again over a streaming connection (SSE or WebSocket).',
  );
}

/**
 * A call the model proposed: with a router session, the router's tool check first. A refusal
 * (other than `confirmation_required`, which the dispatcher's own confirmation handles) comes
 * back to the model as a `tool_refused` result and the call is not dispatched.
 */
async function checkedExecute(run: TurnRun, call: ToolCallPart, effect: string): Promise<unknown> {
  const handle = run.session;
  const args = parsedArguments(call.arguments);
  // Up to the journal's ceiling: the step gives the model a bounded part (`cutResult`).
  const maxBytes = run.parts.settings.maxStoredResultBytes;
  // read_result only reads on in this thread's own results: the router's catalogue has no say in it.
  if (handle === undefined || call.name === readResultToolName || call.name === askUserToolName || args === null || typeof args !== 'object' || Array.isArray(args)) return execute(run, call, effect, maxBytes);
  const check = handle.session.checkToolCall({ tool: call.name, arguments: args as JsonObject });
  if (!check.allowed && check.code !== 'confirmation_required') {
    // Arguments that do not validate keep their usual code, so that the model's correction bound applies.
    return { error: { code: check.code === 'invalid_arguments' ? 'invalid_arguments' : 'tool_refused', message: check.reason } };
  }
  const result = await execute(run, call, effect, maxBytes);
  if (check.allowed) handle.session.ran(check, runOutcomeOf(result as JsonValue));
  return result;
}

/** How a call's result is recorded in the router session's history. */
export function runOutcomeOf(result: JsonValue): 'ran' | 'failed' | 'outcome_unknown' {
  const code = errorCodeOf(result);
  if (code === undefined) return isCancelled(result) ? 'failed' : 'ran';
  return code === 'aborted' || code === 'timeout' ? 'outcome_unknown' : 'failed';
}

/**
 * Runs one call through the dispatcher as the actor; a write is bound to the turn for its
 * confirmation. `maxResultBytes`: the result's bound instead of the tools' own.
 */
export async function execute(run: TurnRun, call: ToolCallPart, effect: string, maxResultBytes?: number): Promise<unknown> {
  const write = effect !== 'read' && effect !== 'unknown';
  const { dispatcher, bindConfirmation } = run.parts;
  if (write) {
    run.runningWrites++;
    bindConfirmation(run.thread.id, { turnId: run.turnId, callId: call.id });
  }
  const started = performance.now();
  try {
    return await dispatcher.dispatch(
      { name: call.name, arguments: call.arguments },
      { actor: run.actor, signal: run.signal, threadId: run.thread.id, canConfirm: run.canConfirm, confirmWrites: run.regenerating, ...(maxResultBytes === undefined ? {} : { maxResultBytes }) },
    );
  } finally {
    run.latency.tools += performance.now() - started;
    if (write) {
      run.runningWrites--;
      bindConfirmation(run.thread.id, undefined);
    }
  }
}

/** Pauses the turn on a held write: the request is journaled (turn `waiting`), its expiry scheduled, `confirm_mutation` emitted. */
export async function hold(run: TurnRun, call: ToolCallPart, result: unknown, uncommitted: readonly NewItem[], message?: string): Promise<ToolStepOutcome> {
  if (!isConfirmationRequired(result)) throw new Error('hold() needs a confirmation_required result');
  const expiresAt = Date.parse(result.expires_at);
  const request = { confirmationId: result.confirmation_id, callId: call.id, name: call.name, arguments: result.arguments, expiresAt: result.expires_at };
  await run.append([...uncommitted, newItems.confirmationRequest(message === undefined ? request : { ...request, message })], { status: 'waiting' });
  run.parts.scheduleExpiry(result.confirmation_id, expiresAt);
  const entered = run.enter('awaiting_approval');
  if (entered !== undefined) await entered;
  const { mutation, input } = describeMutation(call.name, result.arguments);
  const event = { type: 'confirm_mutation' as const, id: result.confirmation_id, mutation, input, expires_at: result.expires_at };
  const waiting = run.emit(message === undefined ? event : { ...event, message });
  if (waiting !== undefined) await waiting;
  return { next: 'waiting' };
}

/** Tells the hooks of a call; one that did not run (a duplicate) reaches `toolCalled` only, never `mutationExecuted`. */
export function reportCall(run: TurnRun, call: ToolCallPart, effect: string, result: JsonValue, executed = true): void {
  const hooks = run.parts.hooks;
  const base = { actor: run.actor, threadId: run.thread.id, turnId: run.turnId, callId: call.id, name: call.name, arguments: parsedArguments(call.arguments), result };
  if (hooks.has('toolCalled')) hooks.emit('toolCalled', base);
  const write = executed && isWrite(effect);
  if (write && errorCodeOf(result) === undefined) run.parts.routing?.reader.noteWrite?.();
  if (write && hooks.has('mutationExecuted')) {
    hooks.emit('mutationExecuted', { ...base, status: errorCodeOf(result) === undefined ? 'executed' : 'failed' });
  }
}
