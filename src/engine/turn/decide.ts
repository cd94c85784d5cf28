import type { JsonValue } from '../../core/index.js';
import type { FinishReason, ToolCallPart } from '../../providers/index.js';
import type { EngineSettings } from '../settings.js';
import { callSignature, nextStreaks } from './turn-state.js';
import type { EarlierCall, TurnCounters } from './turn-state.js';

/** One completion of the model, assembled from its stream. */
export interface Completion {
  readonly text: string;
  readonly toolCalls: readonly ToolCallPart[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /** Why the stream ended (`length`: cut at the output limit); absent where it does not matter. */
  readonly finishReason?: FinishReason;
}

export interface PlannedCall {
  readonly call: ToolCallPart;
  readonly effect: string;
  /**
   * `execute`; `repeat_feedback`: not run, the model is told it repeats itself; `duplicate`: the same
   * call (name and canonical arguments) already succeeded in this turn or runs earlier in this step,
   * so it is not run: a read answers that call's result, a write `duplicate_call`.
   */
  readonly disposition: 'execute' | 'repeat_feedback' | 'duplicate';
  /** For a duplicate: the earlier call, with its result, or by its index in this step when it runs now. */
  readonly duplicateOf?: { readonly callId: string; readonly result: JsonValue } | { readonly callId: string; readonly index: number };
}

export type Plan =
  | { readonly kind: 'answer' }
  | { readonly kind: 'recover'; readonly reason: 'no_tools' | 'empty_after_tools' }
  | { readonly kind: 'fail'; readonly code: string; readonly message: string }
  | { readonly kind: 'tools'; readonly calls: readonly PlannedCall[]; readonly streaks: ReadonlyMap<string, number>; readonly warned: boolean };

export interface DecideInput {
  readonly completion: Completion;
  readonly counters: TurnCounters;
  readonly settings: EngineSettings;
  /** The effect of a tool by name (`read`, `write`, `irreversible`); undefined for an unknown tool. */
  readonly effectOf: (name: string) => string | undefined;
  readonly hasTools: boolean;
  /** The turn's earlier calls that succeeded, by call signature (`successfulCalls`); none when absent. */
  readonly earlier?: ReadonlyMap<string, EarlierCall>;
}

/**
 * What to do with a completion, as a pure function of it and the turn's counters: answer,
 * recover once, fail with a bound's code, or run its tool calls (some withheld as repetitions).
 */
export function decide(input: DecideInput): Plan {
  const { completion, counters, settings } = input;
  if (completion.toolCalls.length === 0) {
    if (settings.recoverMissingToolCalls && !counters.recoveryUsed && input.hasTools) {
      if (counters.toolCalls === 0) return { kind: 'recover', reason: 'no_tools' };
      if (completion.text.trim() === '') return { kind: 'recover', reason: 'empty_after_tools' };
    }
    return { kind: 'answer' };
  }
  const effects = completion.toolCalls.map((call) => input.effectOf(call.name) ?? 'unknown');
  const writes = effects.filter((effect) => effect !== 'read' && effect !== 'unknown').length;
  if (writes > 0 && completion.toolCalls.length > 1) {
    return {
      kind: 'fail',
      code: 'mutation_batch_unsupported',
      message: 'The model asked for a change together with other tool calls; none of them ran. Ask for one change at a time.',
    };
  }
  const signatures = completion.toolCalls.map((call) => callSignature(call.name, call.arguments));
  const streaks = nextStreaks(counters.streaks, signatures);
  let warned = counters.repetitionWarned;
  const calls: PlannedCall[] = [];
  const inStep = new Map<string, number>();
  for (const [index, call] of completion.toolCalls.entries()) {
    const signature = signatures[index]!;
    const streak = streaks.get(signature) ?? 0;
    const earlier = input.earlier?.get(signature);
    const sameStep = inStep.get(signature);
    if (streak >= 3) {
      if (counters.repetitionWarned) {
        return {
          kind: 'fail',
          code: 'tool_repetition',
          message: `The model kept calling '${call.name}' with the same arguments after being told the result would not change.`,
        };
      }
      warned = true;
      calls.push({ call, effect: effects[index]!, disposition: 'repeat_feedback' });
    } else if (earlier !== undefined) {
      calls.push({ call, effect: effects[index]!, disposition: 'duplicate', duplicateOf: { callId: earlier.callId, result: earlier.result } });
    } else if (sameStep !== undefined) {
      calls.push({ call, effect: effects[index]!, disposition: 'duplicate', duplicateOf: { callId: completion.toolCalls[sameStep]!.id, index: sameStep } });
    } else {
      inStep.set(signature, index);
      calls.push({ call, effect: effects[index]!, disposition: 'execute' });
    }
  }
  const executing = calls.filter((planned) => planned.disposition === 'execute');
  const reads = executing.filter((planned) => planned.effect === 'read' || planned.effect === 'unknown').length;
  if (executing.length > reads && counters.mutations >= settings.maxMutationsPerMessage) {
    return {
      kind: 'fail',
      code: 'mutation_limit',
      message:
        settings.maxMutationsPerMessage === 0
          ? 'Changes are not allowed in this conversation (maxMutationsPerMessage is 0); nothing was changed.'
          : `This message already made ${counters.mutations} change(s), the most allowed (maxMutationsPerMessage); no further change runs.`,
    };
  }
  if (counters.readCalls + reads > settings.maxRetriesPerMessage) {
    return { kind: 'fail', code: 'tool_retry_limit', message: readLimitMessage(settings) };
  }
  return { kind: 'tools', calls, streaks, warned };
}

/** The counters after a step's calls ran; a bound's failure when one is crossed. */
export function afterTools(
  counters: TurnCounters,
  plan: Extract<Plan, { kind: 'tools' }>,
  outcome: { readonly reads: number; readonly mutations: number; readonly failures: number; readonly invalidArguments: boolean },
  settings: EngineSettings,
): { readonly counters: TurnCounters; readonly failure?: { readonly code: string; readonly message: string } } {
  const next: TurnCounters = {
    ...counters,
    readCalls: counters.readCalls + outcome.reads,
    mutations: counters.mutations + outcome.mutations,
    failedCalls: counters.failedCalls + outcome.failures,
    correctionStreak: outcome.invalidArguments ? counters.correctionStreak + 1 : 0,
    streaks: plan.streaks,
    repetitionWarned: plan.warned,
    toolCalls: counters.toolCalls + plan.calls.length,
  };
  if (next.failedCalls > settings.maxFailedCallsPerMessage) {
    return {
      counters: next,
      failure: {
        code: 'tool_failure_limit',
        message: `Tool calls failed ${next.failedCalls} times in this message, more than maxFailedCallsPerMessage (${settings.maxFailedCallsPerMessage}).`,
      },
    };
  }
  if (next.correctionStreak > settings.maxArgumentCorrections) {
    return {
      counters: next,
      failure: {
        code: 'tool_argument_correction_exhausted',
        message: `The model sent invalid tool arguments ${next.correctionStreak} times in a row, beyond ${settings.maxArgumentCorrections} corrections.`,
      },
    };
  }
  return { counters: next };
}

/** The read bound's message, for a model's calls and a router's steps alike. */
export function readLimitMessage(settings: EngineSettings): string {
  return `This message reached its limit of ${settings.maxRetriesPerMessage} read tool calls (maxRetriesPerMessage); ask a narrower question.`;
}
