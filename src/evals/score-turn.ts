import type { EvalExpectedCall, EvalTurn } from './dataset-schema.js';
import { argumentsMatch } from './match-arguments.js';
import { containsFact } from './match-facts.js';
import type { ObservedCall, ObservedTurn } from './play-case.js';

/** How a turn went, against what it should have come to. */
export type TurnVerdict =
  /** Answered, and outcome, calls, confirmations and facts all match. */
  | 'correct'
  /** Answered with something wrong (or answered at all when it must be unread). */
  | 'wrong'
  /** Meant to be answered, left unread: a coverage miss, not a wrong answer. */
  | 'missed'
  /** Meant to be unread, and it was. */
  | 'unread';

export interface TurnScore {
  /** Outcome run, ask or declined, ending with a done event. */
  readonly answered: boolean;
  readonly verdict: TurnVerdict;
  /** Why the turn is not correct, one line each (empty when it is). */
  readonly reasons: readonly string[];
}

const ANSWERED = new Set(['run', 'ask', 'declined']);

export interface ScoreOptions {
  /** Tools that need a person's confirmation: each expected call of one must have been confirmed. */
  readonly confirmedTools?: ReadonlySet<string>;
}

export function scoreTurn(turn: EvalTurn, observed: ObservedTurn, options: ScoreOptions = {}): TurnScore {
  const answered = observed.outcome !== null && ANSWERED.has(observed.outcome) && observed.done && observed.error === null;
  const expectUnread = turn.expect.outcome === 'unread';
  if (!answered) {
    const why = observed.error !== null ? `error ${observed.error.code}: ${observed.error.message}` : observed.outcome === null ? 'no plan event' : `outcome ${observed.outcome}${observed.done ? '' : ' without done'}`;
    if (expectUnread) return { answered, verdict: 'unread', reasons: observed.error === null ? [] : [why] };
    return { answered, verdict: 'missed', reasons: [`expected ${turn.expect.outcome}, got ${why}`] };
  }
  const reasons: string[] = [];
  if (expectUnread) reasons.push(`must be unread, but the router answered (${observed.outcome})`);
  else if (observed.outcome !== turn.expect.outcome) reasons.push(`expected outcome ${turn.expect.outcome}, got ${observed.outcome}`);
  if (turn.expect.calls !== undefined) reasons.push(...callProblems(turn.expect.calls, observed.calls));
  if (turn.expect.compute !== undefined) {
    const steps = observed.planSteps.filter((step) => step.kind === 'compute');
    if (steps.length === 0) reasons.push(`expected a ${turn.expect.compute} step in the plan, found none`);
    else if (!steps.some((step) => step.operation === null || step.operation === turn.expect.compute)) {
      reasons.push(`expected a ${turn.expect.compute} step, the plan computes ${steps.map((step) => step.operation).join(', ')}`);
    }
  }
  reasons.push(...confirmationProblems(turn, observed, options.confirmedTools));
  for (const fact of turn.expect.facts) if (!containsFact(observed.answer, fact)) reasons.push(`answer lacks '${fact}'`);
  for (const fact of turn.expect.absent) if (containsFact(observed.answer, fact)) reasons.push(`answer states '${fact}', which it must not`);
  return { answered, verdict: reasons.length === 0 ? 'correct' : 'wrong', reasons };
}

function callProblems(expected: readonly EvalExpectedCall[], calls: readonly ObservedCall[]): string[] {
  if (assign(expected, calls)) return [];
  const shown = calls.length === 0 ? 'none' : calls.map((call) => `${call.tool} ${JSON.stringify(call.arguments)}`).join('; ');
  const wanted = expected.length === 0 ? 'none' : expected.map((call) => `${call.tool} ${JSON.stringify(call.arguments)}`).join('; ');
  return [`calls differ: expected ${wanted}; got ${shown}`];
}

/** Every expected call matched by a distinct actual call and nothing else called (any order). */
function assign(expected: readonly EvalExpectedCall[], calls: readonly ObservedCall[]): boolean {
  if (expected.length !== calls.length) return false;
  const used = new Set<number>();
  const place = (i: number): boolean => {
    if (i === expected.length) return true;
    const want = expected[i] as EvalExpectedCall;
    for (const [j, call] of calls.entries()) {
      if (used.has(j) || call.tool !== want.tool || !argumentsMatch(want.arguments, call.arguments)) continue;
      used.add(j);
      if (place(i + 1)) return true;
      used.delete(j);
    }
    return false;
  };
  return place(0);
}

function confirmationProblems(turn: EvalTurn, observed: ObservedTurn, confirmedTools: ReadonlySet<string> | undefined): string[] {
  const confirm = turn.expect.confirm;
  const asked = observed.confirmations;
  if (confirm === undefined) {
    return asked.length === 0 ? [] : [`unexpected confirm_mutation for ${asked.map((item) => item.mutation).join(', ')} (rejected)`];
  }
  if (asked.length === 0) return ['expected a confirm_mutation, none came'];
  const problems: string[] = [];
  if (Array.isArray(confirm) && confirm.length !== asked.length) problems.push(`expected ${confirm.length} confirmations, got ${asked.length}`);
  const writes = new Set((turn.expect.calls ?? []).map((call) => call.tool));
  for (const item of asked) if (turn.expect.calls !== undefined && !writes.has(item.mutation)) problems.push(`confirm_mutation for ${item.mutation}, which the turn should not call`);
  if (confirmedTools !== undefined && turn.expect.calls !== undefined) {
    const due = turn.expect.calls.filter((call) => confirmedTools.has(call.tool)).length;
    if (due !== asked.length && !Array.isArray(confirm)) problems.push(`expected ${due} confirmations (one per write), got ${asked.length}`);
  }
  return problems;
}
