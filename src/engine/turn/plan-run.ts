import type { JsonObject, JsonValue } from '../../core/index.js';
import type { PlanItem, ToolCheck, TurnPlan } from '../../router/index.js';
import { resultIdentity, runCompute } from '../../router/index.js';
import { isConfirmationRequired, isCancelled } from '../../tools/index.js';
import { confirmationResolutionOf, newItems, toolCallOf, toolResultOf } from '../shared/index.js';
import type { ToolCallData } from '../shared/index.js';
import type { RoutingParts, SessionHandle, StepOutcome } from './router-types.js';
import { readerLabels } from './router-types.js';
import { answerWith, modelAnswer } from './answer-step.js';
import { readLimitMessage } from './decide.js';
import { saveSession } from './router-session.js';
import { cannotConfirm, execute, failCannotConfirm, hold, reportCall, runOutcomeOf } from './tool-step.js';
import { errorCodeOf, replayCounters } from './turn-state.js';
import type { TurnRun } from './turn-run.js';

/** The call id of plan step `index` in a turn: stable, so that a resumed run finds what already ran. */
export function stepCallId(turnId: string, index: number): string {
  return `${turnId}-step-${index}`;
}

/**
 * Runs a `run` plan's steps in order, from the first that has not run yet (a resumed run finds the
 * earlier ones in the journal). A tool step passes the session's tool check (a write with the
 * session's confirmation token for its exact arguments) and then the dispatcher as the actor; a
 * write the dispatcher holds pauses the turn with `confirm_mutation`, like a model's. A compute step
 * is computed over the results it depends on. A step whose inputs failed does not run; after a write
 * that did not happen (rejected, expired, failed) nothing further runs. Then the answer.
 */
export async function runPlan(run: TurnRun, routing: RoutingParts, plan: TurnPlan): Promise<void> {
  const handle = run.session!;
  const journal = journaled(run);
  const outcomes: (StepOutcome | undefined)[] = [];
  for (const [index, step] of plan.steps.entries()) {
    if (run.stopping) return run.cancelled();
    if (step.kind === 'compute' && step.compute !== null) {
      if (!inputsRan(step, outcomes)) continue;
      const computed = runCompute(step, outcomes.map((outcome) => (outcome?.kind === 'tool' ? outcome.result : null)));
      outcomes[index] = {
        kind: 'compute',
        value: 'value' in computed ? computed.value : null,
        error: 'error' in computed ? computed.error : null,
        ...step.compute,
        ...('picked' in computed && computed.picked !== undefined ? { picked: computed.picked } : {}),
      };
      continue;
    }
    const tool = step.selection.tool;
    if (step.kind !== 'tool' || tool === null) continue;
    const callId = stepCallId(run.turnId, index);
    const call = journal.calls.get(callId);
    const earlier = journal.results.get(callId);
    if (call !== undefined) {
      // Ran in an earlier run of this turn (or its outcome is unknown: a write is never made twice).
      const args = parseObject(call.arguments);
      outcomes[index] = { kind: 'tool', tool, arguments: args, result: earlier ?? { error: { code: 'effect_outcome_unknown', message: 'This step was running when the turn stopped; whether it took effect is unknown.' } } };
      if (earlier !== undefined) recordResumed(handle, call, earlier, journal);
      if (isWrite(call.effect) && !happened(earlier)) break;
      continue;
    }
    if (!inputsRan(step, outcomes)) continue;
    const filled = supplied(step, outcomes, handle);
    if ('missing' in filled) {
      outcomes[index] = { kind: 'tool', tool, arguments: step.selection.arguments, result: { error: { code: 'missing_identity', message: filled.missing } } };
      continue;
    }
    const effect = run.parts.dispatcher.tool(tool)?.effect ?? handle.router.catalogue.tools.get(tool)?.effect ?? 'unknown';
    const write = isWrite(effect);
    const bound = boundReached(run, write);
    if (bound !== undefined) return run.fail(bound.code, bound.message);
    const token = write ? handle.session.confirm(plan, Object.keys(step.supplied).length > 0 ? { step: index, arguments: filled.suppliedArgs } : { step: index }) : null;
    const check = handle.session.checkToolCall({ tool, arguments: filled.args, token });
    const ran = await runStep(run, { callId, tool, args: filled.args, effect, check, message: step.confirmation ?? undefined });
    // A write's check and outcome are written with its result (`runStep`); a read's (staged, run again if lost) with the turn's end.
    if (ran.next !== 'ran') await saveSession(run);
    if (ran.next === 'waiting' || ran.next === 'stopped') return;
    outcomes[index] = { kind: 'tool', tool, arguments: filled.args, result: ran.result };
    if (write && !happened(ran.result)) break;
  }
  if (run.stopping) return run.cancelled();
  if (routing.answerWith === 'model' && run.parts.provider !== undefined) return modelAnswer(run);
  return answerWith(run, routing.answer({ plan, steps: outcomes, language: plan.language, ...readerLabels(routing.reader) }));
}

export type StepRun = { readonly next: 'ran'; readonly result: JsonValue } | { readonly next: 'waiting' } | { readonly next: 'stopped' };

/**
 * One tool step: journal and emit the call (a write's call is committed before it runs), dispatch
 * it, then journal and emit its result and record the outcome in the session; a held write pauses.
 */
export async function runStep(
  run: TurnRun,
  step: { readonly callId: string; readonly tool: string; readonly args: JsonObject; readonly effect: string; readonly check: ToolCheck; readonly message: string | undefined },
): Promise<StepRun> {
  const { callId, tool, args, effect, check } = step;
  const call = { id: callId, name: tool, arguments: JSON.stringify(args) };
  const write = isWrite(effect);
  const callItem = newItems.toolCall({ callId, name: tool, arguments: call.arguments, effect, step: run.counters.rounds, ...(check.allowed ? { checkId: check.checkId } : {}) });
  if (write) await run.append([callItem], { status: 'running' });
  const waiting = run.emit({ type: 'tool_call', id: callId, name: tool, args });
  if (waiting !== undefined) await waiting;
  const result = check.allowed ? ((await execute(run, call, effect)) as JsonValue) : ({ error: { code: 'tool_refused', message: check.reason } } as JsonValue);
  if (isConfirmationRequired(result)) {
    await hold(run, call, result, write ? [] : [callItem], step.message);
    return { next: 'waiting' };
  }
  // A read's step is staged (safe to run again if its commit were lost); a write's result is committed before anything goes on,
  // with the session that records its outcome.
  if (write) {
    if (check.allowed) run.session?.session.ran(check, runOutcomeOf(result));
    await run.append([newItems.toolResult({ callId, name: tool, result })], run.withSession({ status: 'running' }));
  } else await run.stage([callItem, newItems.toolResult({ callId, name: tool, result })], { status: 'running' });
  const shown = run.emit({ type: 'tool_result', id: callId, name: tool, result });
  if (shown !== undefined) await shown;
  if (check.allowed) {
    reportCall(run, call, effect, result);
    if (!write) run.session?.session.ran(check, runOutcomeOf(result));
  }
  if (cannotConfirm(result)) {
    await failCannotConfirm(run);
    return { next: 'stopped' };
  }
  return { next: 'ran', result };
}

interface Journaled {
  readonly calls: ReadonlyMap<string, ToolCallData>;
  readonly results: ReadonlyMap<string, JsonValue>;
  /** Call ids whose confirmation was not approved. */
  readonly withheld: ReadonlySet<string>;
}

function journaled(run: TurnRun): Journaled {
  const calls = new Map<string, ToolCallData>();
  const results = new Map<string, JsonValue>();
  const withheld = new Set<string>();
  for (const item of run.turnItems()) {
    if (item.kind === 'tool_call') {
      const call = toolCallOf(item);
      calls.set(call.callId, call);
    } else if (item.kind === 'tool_result') {
      const result = toolResultOf(item);
      results.set(result.callId, result.result);
    } else if (item.kind === 'confirmation_resolution') {
      const resolution = confirmationResolutionOf(item);
      if (resolution.outcome !== 'approved') withheld.add(resolution.callId);
    }
  }
  return { calls, results, withheld };
}

/** A write resumed after its confirmation: its outcome goes into the session once, and the reader hears of it. */
function recordResumed(handle: SessionHandle, call: ToolCallData, result: JsonValue, journal: Journaled): void {
  const checkId = call.checkId;
  if (checkId === undefined || !isWrite(call.effect)) return;
  const state = handle.session.state();
  if (state.history.some((entry) => entry.kind === 'ran' && entry.checkId === checkId)) return;
  const check = state.history.find((entry) => entry.kind === 'check' && entry.checkId === checkId && entry.allowed);
  if (check === undefined) return;
  const outcome = journal.withheld.has(call.callId) ? 'failed' : runOutcomeOf(result);
  handle.session.ran({ checkId, allowed: true, code: 'allowed', reason: '', tool: check.tool, arguments: check.arguments, effect: null, tokenId: check.tokenId }, outcome);
}

/** Whether every step this one depends on (or takes an identity from) ran without an error. */
function inputsRan(step: PlanItem, outcomes: readonly (StepOutcome | undefined)[]): boolean {
  const inputs = new Set([...step.dependsOn, ...Object.values(step.supplied)]);
  for (const index of inputs) {
    const outcome = outcomes[index];
    if (outcome === undefined) return false;
    if (outcome.kind === 'tool' && !happened(outcome.result)) return false;
    if (outcome.kind === 'compute' && outcome.error !== null) return false;
  }
  return true;
}

/** The step's arguments with each `supplied` parameter filled from the identity of the step it names. */
function supplied(
  step: PlanItem,
  outcomes: readonly (StepOutcome | undefined)[],
  handle: SessionHandle,
): { readonly args: JsonObject; readonly suppliedArgs: JsonObject } | { readonly missing: string } {
  const entries = Object.entries(step.supplied);
  if (entries.length === 0) return { args: step.selection.arguments, suppliedArgs: {} };
  const info = step.selection.tool === null ? undefined : handle.router.catalogue.tools.get(step.selection.tool);
  const filled: Record<string, JsonValue> = {};
  for (const [parameter, from] of entries) {
    const outcome = outcomes[from];
    const identity = resultIdentity(outcome?.kind === 'tool' ? outcome.result : undefined, parameter);
    if (identity === null) return { missing: `Step ${from} gave no ${parameter} to use, so this step did not run.` };
    // A number identity goes into a string parameter as its digits (ids are often typed as strings).
    filled[parameter] = typeof identity === 'number' && info?.byName.get(parameter)?.type === 'string' ? String(identity) : identity;
  }
  return { args: { ...step.selection.arguments, ...filled }, suppliedArgs: filled };
}

/** The turn's read and write bounds hold for router steps as for a model's calls. */
function boundReached(run: TurnRun, write: boolean): { readonly code: string; readonly message: string } | undefined {
  const settings = run.parts.settings;
  const used = replayCounters(run.turnItems());
  if (write && used.mutations >= settings.maxMutationsPerMessage) {
    return {
      code: 'mutation_limit',
      message:
        settings.maxMutationsPerMessage === 0
          ? 'Changes are not allowed in this conversation (maxMutationsPerMessage is 0); nothing was changed.'
          : `This message already made ${used.mutations} change(s), the most allowed (maxMutationsPerMessage); no further change runs.`,
    };
  }
  if (!write && used.readCalls >= settings.maxRetriesPerMessage) return { code: 'tool_retry_limit', message: readLimitMessage(settings) };
  return undefined;
}

function isWrite(effect: string): boolean {
  return effect !== 'read' && effect !== 'unknown';
}

/** A result that is not an error and not a withheld write (rejected, expired, cancelled). */
function happened(result: JsonValue | undefined): boolean {
  return result !== undefined && errorCodeOf(result) === undefined && !isCancelled(result);
}

function parseObject(text: string): JsonObject {
  try {
    const value = JSON.parse(text) as JsonValue;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
  } catch {
    return {};
  }
}
