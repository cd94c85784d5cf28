import type { EvalTurn } from './dataset-schema.js';
import { judgeAccuracy, judgeContract, judgeNames, judgeResultSet, judgeSequence } from './judges.js';
import type { JudgeVerdict } from './judges.js';
import type { ObservedTurn } from './play-case.js';

/** How a turn went, against what it should have come to. */
export type TurnVerdict =
  /** Answered, and every judge that applies passes. */
  | 'correct'
  /** Answered with something wrong (or answered at all when it must be unread). */
  | 'wrong'
  /** Meant to be answered, left unread: a coverage miss, not a wrong answer. */
  | 'missed'
  /** Meant to be unread, and it was. */
  | 'unread';

export interface TurnScore {
  /** The router's outcome run, ask or declined, or a model's answer, ending with `done` (or the error the turn expects). */
  readonly answered: boolean;
  readonly verdict: TurnVerdict;
  /** Why the turn is not correct, one line each (empty when it is). */
  readonly reasons: readonly string[];
  /** Every judge's verdict, in `judgeNames` order. */
  readonly judges: readonly JudgeVerdict[];
}

const ANSWERED = new Set(['run', 'ask', 'declined']);

export interface ScoreOptions {
  /** Tools that need a person's confirmation: each expected call of one must have been confirmed. */
  readonly confirmedTools?: ReadonlySet<string>;
  /** The turn was played with a model: a turn the router left unread may be the model's to answer. */
  readonly withModel?: boolean;
}

export function scoreTurn(turn: EvalTurn, observed: ObservedTurn, options: ScoreOptions = {}): TurnScore {
  const routerAnswered = observed.outcome !== null && ANSWERED.has(observed.outcome) && observed.done && observed.error === null;
  const modelAnswered = options.withModel === true && !routerAnswered && observed.done && observed.error === null;
  const endedAsExpected = turn.expect.error !== undefined && observed.error !== null;
  const answered = routerAnswered || modelAnswered || endedAsExpected;
  if (!answered) {
    const why = observed.error !== null ? `error ${observed.error.code}: ${observed.error.message}` : observed.outcome === null ? 'no plan event' : `outcome ${observed.outcome}${observed.done ? '' : ' without done'}`;
    if (turn.expect.outcome === 'unread' && turn.expect.error === undefined) return unanswered('unread', observed.error === null ? [] : [why]);
    return unanswered('missed', [`expected ${turn.expect.error === undefined ? (turn.expect.outcome ?? 'an answer') : `error ${turn.expect.error}`}, got ${why}`]);
  }
  const judges = [
    judgeContract(turn, observed, { confirmedTools: options.confirmedTools }),
    judgeSequence(turn, observed),
    judgeAccuracy(turn, observed),
    judgeResultSet(turn, observed),
    { judge: 'quality', status: 'skip', reasons: [] } as const,
  ];
  return withJudges(answered, judges);
}

/** The score after a judge's verdict is replaced (the quality judge answers later, from its model). */
export function withJudge(score: TurnScore, judged: JudgeVerdict): TurnScore {
  if (!score.answered) return score;
  return withJudges(true, score.judges.map((item) => (item.judge === judged.judge ? judged : item)));
}

function withJudges(answered: boolean, judges: readonly JudgeVerdict[]): TurnScore {
  const reasons = judges.flatMap((item) => (item.status === 'fail' ? item.reasons : []));
  return { answered, verdict: reasons.length === 0 ? 'correct' : 'wrong', reasons, judges };
}

/** A turn that never ran (its case failed to open, or an earlier turn did not end): why, as its only reason. */
export function notPlayed(turn: EvalTurn, reason: string): TurnScore {
  return unanswered(turn.expect.outcome === 'unread' && turn.expect.error === undefined ? 'unread' : 'missed', [reason]);
}

/** A turn not answered fails (a miss) or passes (left unread as it must be) the contract; nothing else applies. */
function unanswered(verdict: 'unread' | 'missed', reasons: readonly string[]): TurnScore {
  const judges = judgeNames.map((judge): JudgeVerdict => (judge === 'contract' ? { judge, status: verdict === 'unread' ? 'pass' : 'fail', reasons: verdict === 'unread' ? [] : reasons } : { judge, status: 'skip', reasons: [] }));
  return { answered: false, verdict, reasons, judges };
}
