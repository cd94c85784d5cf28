import type { EvalCase, EvalDataset, EvalLanguage, EvalTurn, EvalTurnKind } from './dataset-schema.js';
import { playCase } from './play-case.js';
import type { ObservedTurn, OpenEvalCase } from './play-case.js';
import type { JudgeVerdict } from './judges.js';
import { notPlayed, scoreTurn, withJudge } from './score-turn.js';
import type { TurnScore } from './score-turn.js';

export interface TurnResult extends TurnScore {
  /** `<case id>#<turn number from 1>` */
  readonly id: string;
  readonly caseId: string;
  readonly text: string;
  readonly kind: EvalTurnKind;
  readonly language: EvalLanguage;
  readonly actor: string;
  readonly tier: number;
  readonly tags: readonly string[];
  /** The plan outcome expected, `error` for a turn that must end in one, `answer` when the dataset leaves it open. */
  readonly expectedOutcome: string;
  readonly mustBeUnread: boolean;
  readonly note: string | null;
  /** An earlier turn of the same case was not correct (this one may fail because of it). */
  readonly afterFailure: boolean;
  readonly observed: ObservedTurn;
}

export interface RunDatasetOptions {
  /** Opens a fresh engine over fresh data for each case. */
  readonly openCase: OpenEvalCase;
  /** Tools that need a confirmation (each expected call of one must be confirmed). */
  readonly confirmedTools?: readonly string[];
  /** Only the cases whose id passes. */
  readonly filter?: (evalCase: EvalCase) => boolean;
  readonly signal?: AbortSignal;
  /** Send each case's language with its turns (default true); false measures the router's own choice. */
  readonly sendLanguage?: boolean;
  /** The quality judge: called for each answered turn whose expectation has a rubric. */
  readonly judgeQuality?: (turn: EvalTurn, observed: ObservedTurn, signal: AbortSignal | undefined) => Promise<JudgeVerdict>;
  /** Called after each case, for progress (awaited). */
  readonly onCase?: (evalCase: EvalCase, results: readonly TurnResult[]) => void | Promise<void>;
}

/**
 * Plays every case of a dataset, each on a fresh kit that is closed afterwards, and scores every
 * turn. A case whose kit fails to open or whose play throws fails every one of its turns with the
 * error as the reason; the run goes on.
 */
export async function runDataset(dataset: EvalDataset, options: RunDatasetOptions): Promise<TurnResult[]> {
  const results: TurnResult[] = [];
  const confirmedTools = options.confirmedTools === undefined ? undefined : new Set(options.confirmedTools);
  for (const evalCase of dataset.cases) {
    if (options.filter !== undefined && !options.filter(evalCase)) continue;
    options.signal?.throwIfAborted();
    let observed: ObservedTurn[] = [];
    let failure: string | null = null;
    let withModel = false;
    try {
      const kit = await options.openCase(evalCase, options.signal);
      withModel = kit.withModel;
      try {
        observed = await playCase(kit, evalCase, {
          ...(options.sendLanguage === undefined ? {} : { sendLanguage: options.sendLanguage }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
      } finally {
        await kit.close();
      }
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      failure = `the case failed to run: ${(error as Error).message}`;
    }
    const caseResults: TurnResult[] = [];
    let failedBefore = false;
    for (const [index, turn] of evalCase.turns.entries()) {
      const seen = observed[index];
      let score: TurnScore =
        seen === undefined ? notPlayed(turn, failure ?? 'the turn was not played') : scoreTurn(turn, seen, { withModel, ...(confirmedTools === undefined ? {} : { confirmedTools }) });
      if (seen !== undefined && score.answered && turn.expect.quality !== undefined && options.judgeQuality !== undefined) {
        score = withJudge(score, await options.judgeQuality(turn, seen, options.signal));
      }
      caseResults.push({
        ...score,
        id: `${evalCase.id}#${index + 1}`,
        caseId: evalCase.id,
        text: turn.text,
        kind: turn.kind,
        language: evalCase.language,
        actor: evalCase.actor,
        tier: evalCase.tier,
        tags: evalCase.tags,
        expectedOutcome: turn.expect.outcome ?? (turn.expect.error === undefined ? 'answer' : 'error'),
        mustBeUnread: turn.mustBeUnread,
        note: turn.note ?? null,
        afterFailure: failedBefore,
        observed: seen ?? unplayed,
      });
      if (score.verdict === 'wrong' || score.verdict === 'missed') failedBefore = true;
    }
    results.push(...caseResults);
    await options.onCase?.(evalCase, caseResults);
  }
  return results;
}

const unplayed: ObservedTurn = Object.freeze({
  outcome: null,
  planLanguage: null,
  planSteps: [],
  calls: [],
  confirmations: [],
  answer: '',
  done: false,
  error: null,
  coverage: null,
  usage: { inputTokens: 0, outputTokens: 0 },
  events: 0,
  trace: [],
});
