import { canonicalJson } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import type { ItemRecord } from '../../store/index.js';
import { isCancelled, isConfirmationRequired } from '../../tools/index.js';
import { confirmationResolutionOf, itemStep, retryReason, toolCallOf, toolResultOf } from '../shared/index.js';

/**
 * What a turn has used of its budgets. Rebuilt from the journal (`replayCounters`) whenever a turn
 * resumes (a confirmation, a retry), so that bounds hold across pauses and restarts.
 */
export interface TurnCounters {
  /** Provider rounds used: model steps, summaries, recovery rounds. */
  readonly rounds: number;
  /** Read tool calls executed (a duplicate answered from an earlier result excepted). */
  readonly readCalls: number;
  /** Tool calls that answered with an error (argument errors, repetition and duplicate feedback excepted). */
  readonly failedCalls: number;
  /** Write executions, a confirmed one included. */
  readonly mutations: number;
  /** Consecutive steps whose calls had invalid arguments. */
  readonly correctionStreak: number;
  /** Call signature → number of consecutive completions that contained it. */
  readonly streaks: ReadonlyMap<string, number>;
  readonly repetitionWarned: boolean;
  readonly recoveryUsed: boolean;
  /** Tool calls the model made in this turn. */
  readonly toolCalls: number;
}

export const emptyCounters: TurnCounters = Object.freeze({
  rounds: 0,
  readCalls: 0,
  failedCalls: 0,
  mutations: 0,
  correctionStreak: 0,
  streaks: new Map<string, number>(),
  repetitionWarned: false,
  recoveryUsed: false,
  toolCalls: 0,
});

/** Error codes that are not "failed tool calls" for maxFailedCallsPerMessage. */
const notFailures = new Set(['invalid_arguments', 'tool_repetition', 'duplicate_call', 'confirmation_expired']);

export function errorCodeOf(result: JsonValue): string | undefined {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return undefined;
  const error = (result as Record<string, JsonValue>).error;
  if (error === null || typeof error !== 'object' || Array.isArray(error)) return undefined;
  const code = (error as Record<string, JsonValue>).code;
  return typeof code === 'string' ? code : undefined;
}

export function countsAsFailure(result: JsonValue): boolean {
  const code = errorCodeOf(result);
  return code !== undefined && !notFailures.has(code);
}

/** A call's identity for repetition: its name and canonical arguments (raw text when not JSON). */
export function callSignature(name: string, argumentsText: string): string {
  let canonical = argumentsText.trim();
  try {
    canonical = canonicalJson(JSON.parse(argumentsText === '' ? '{}' : argumentsText) as JsonValue);
  } catch {
    // not JSON: the raw text is the identity
  }
  return `${name}\u0000${canonical}`;
}

/** An earlier call of the turn that succeeded: what an identical call gets instead of running again. */
export interface EarlierCall {
  readonly callId: string;
  readonly result: JsonValue;
}

/**
 * The turn's calls that succeeded (a result that is no error and no withheld write), by call
 * signature; the first of identical calls stands.
 */
export function successfulCalls(turnItems: readonly ItemRecord[]): Map<string, EarlierCall> {
  const calls = new Map<string, ItemRecord>();
  const succeeded = new Map<string, EarlierCall>();
  for (const item of turnItems) {
    if (item.kind === 'tool_call') {
      calls.set(toolCallOf(item).callId, item);
    } else if (item.kind === 'tool_result') {
      const { callId, result } = toolResultOf(item);
      const call = calls.get(callId);
      if (call === undefined || errorCodeOf(result) !== undefined || isCancelled(result) || isConfirmationRequired(result)) continue;
      const signature = itemSignature(call);
      if (!succeeded.has(signature)) succeeded.set(signature, { callId, result });
    }
  }
  return succeeded;
}

/** Signatures of call items, kept per item (items never change): a turn's calls are not parsed again every round. */
const signatures = new WeakMap<ItemRecord, string>();

function itemSignature(item: ItemRecord): string {
  let signature = signatures.get(item);
  if (signature === undefined) {
    const call = toolCallOf(item);
    signatures.set(item, (signature = callSignature(call.name, call.arguments)));
  }
  return signature;
}

/** The streaks after one more completion: a signature absent from it starts over. */
export function nextStreaks(previous: ReadonlyMap<string, number>, signatures: readonly string[]): Map<string, number> {
  const next = new Map<string, number>();
  for (const signature of signatures) if (!next.has(signature)) next.set(signature, (previous.get(signature) ?? 0) + 1);
  return next;
}

/** Rebuilds the counters from the turn's own items, in journal order. */
export function replayCounters(turnItems: readonly ItemRecord[]): TurnCounters {
  let rounds = 0;
  let readCalls = 0;
  let failedCalls = 0;
  let mutations = 0;
  let correctionStreak = 0;
  let streaks: ReadonlyMap<string, number> = new Map();
  let repetitionWarned = false;
  let recoveryUsed = false;
  let toolCalls = 0;
  const calls = new Map<string, { effect: string; step: number }>();
  const withheld = new Set<string>();
  const steps = new Map<number, { signatures: string[]; invalid: boolean }>();
  for (const item of turnItems) {
    if (item.kind === 'assistant_text' || item.kind === 'summary' || item.kind === 'tool_call') rounds = Math.max(rounds, itemStep(item));
    if (item.kind === 'retry_marker' && retryReason(item) === 'recovery') {
      rounds = Math.max(rounds, itemStep(item));
      recoveryUsed = true;
    }
    if (item.kind === 'tool_call') {
      const call = toolCallOf(item);
      toolCalls++;
      calls.set(call.callId, { effect: call.effect, step: call.step });
      const step = steps.get(call.step) ?? { signatures: [], invalid: false };
      step.signatures.push(callSignature(call.name, call.arguments));
      steps.set(call.step, step);
    }
    if (item.kind === 'confirmation_resolution') {
      const resolution = confirmationResolutionOf(item);
      if (resolution.outcome !== 'approved') withheld.add(resolution.callId);
    }
    if (item.kind === 'tool_result') {
      const result = toolResultOf(item);
      const call = calls.get(result.callId);
      const code = errorCodeOf(result.result);
      if (code === 'tool_repetition') repetitionWarned = true;
      if (code === 'invalid_arguments' && call !== undefined) {
        const step = steps.get(call.step);
        if (step !== undefined) step.invalid = true;
      }
      // A duplicate did not run: it is neither a read, a write nor a failure.
      if (result.duplicateOf !== undefined) continue;
      if (countsAsFailure(result.result)) failedCalls++;
      if (call === undefined || code === 'tool_repetition' || code === 'invalid_arguments') continue;
      if (call.effect === 'read' || call.effect === 'unknown') readCalls++;
      else if (!withheld.has(result.callId)) mutations++;
    }
  }
  for (const step of [...steps.keys()].sort((a, b) => a - b).map((key) => steps.get(key)!)) {
    streaks = nextStreaks(streaks, step.signatures);
    correctionStreak = step.invalid ? correctionStreak + 1 : 0;
  }
  return { rounds, readCalls, failedCalls, mutations, correctionStreak, streaks, repetitionWarned, recoveryUsed, toolCalls };
}
