import type { EvalCase, EvalDataset, EvalLanguage, EvalTurnKind } from './dataset-schema.js';
import { playCase } from './play-case.js';
import type { ObservedTurn, OpenEvalCase } from './play-case.js';
import { scoreTurn } from './score-turn.js';
import type { TurnScore } from './score-turn.js';

export interface TurnResult extends TurnScore {
  /** `<case id>#<turn number from 1>` */
  readonly id: string;
  readonly caseId: string;
  readonly text: string;
  readonly kind: EvalTurnKind;
  readonly language: EvalLanguage;
  readonly actor: string;
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
  /** Called after each case, for progress. */
  readonly onCase?: (evalCase: EvalCase, results: readonly TurnResult[]) => void;
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
    try {
      const kit = await options.openCase(evalCase, options.signal);
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
      const score: TurnScore =
        seen === undefined
          ? { answered: false, verdict: turn.expect.outcome === 'unread' ? 'unread' : 'missed', reasons: [failure ?? 'the turn was not played'] }
          : scoreTurn(turn, seen, confirmedTools === undefined ? {} : { confirmedTools });
      caseResults.push({
        ...score,
        id: `${evalCase.id}#${index + 1}`,
        caseId: evalCase.id,
        text: turn.text,
        kind: turn.kind,
        language: evalCase.language,
        actor: evalCase.actor,
        expectedOutcome: turn.expect.outcome,
        mustBeUnread: turn.mustBeUnread,
        note: turn.note ?? null,
        afterFailure: failedBefore,
        observed: seen ?? emptyObservation,
      });
      if (score.verdict === 'wrong' || score.verdict === 'missed') failedBefore = true;
    }
    results.push(...caseResults);
    options.onCase?.(evalCase, caseResults);
  }
  return results;
}

const emptyObservation: ObservedTurn = Object.freeze({
  outcome: null,
  planLanguage: null,
  planSteps: [],
  calls: [],
  confirmations: [],
  answer: '',
  done: false,
  error: null,
  events: 0,
});
