import type { EngineSettingsInput } from '../engine/index.js';
import type { Provider } from '../providers/index.js';
import type { ToolSettingsInput } from '../tools/index.js';
import { caseOpener } from './case-kit.js';
import type { EvalCase, EvalDataset } from './dataset-schema.js';
import type { OpenEvalFixture } from './fixtures/fixture.js';
import type { JudgeName, JudgeVerdict } from './judges.js';
import { judgeNames } from './judges.js';
import { qualityJudge } from './quality-judge.js';
import { runDataset } from './run-dataset.js';
import type { TurnResult } from './run-dataset.js';

/** Who plays the turns: a label for reports, and the model (none: the router alone, or each case's script). */
export interface EvalContender {
  readonly label: string;
  readonly provider: Provider | undefined;
  /** Without a provider, a case with a script plays it (false: the router alone answers, and cases needing a model are skipped). */
  readonly scripts: boolean;
}

/** Which cases run: a tier (exactly), and tags a case must all carry. */
export interface EvalSelection {
  readonly tier?: number | undefined;
  readonly tags?: readonly string[] | undefined;
}

export interface EvalRunOptions extends EvalSelection {
  readonly datasets: readonly EvalDataset[];
  /** The data a dataset's cases run over. */
  readonly fixtureFor: (dataset: EvalDataset) => OpenEvalFixture;
  /** Tools of the fixture that need confirmation, per dataset. */
  readonly confirmedToolsFor?: (dataset: EvalDataset) => readonly string[] | undefined;
  readonly contender: EvalContender;
  /** The model that scores answer quality; without it the quality judge is skipped. */
  readonly judge?: Provider | undefined;
  readonly engineSettings?: EngineSettingsInput | undefined;
  readonly toolSettings?: ToolSettingsInput | undefined;
  readonly signal?: AbortSignal | undefined;
  /** After each case (played or skipped): for progress bars and traces. */
  readonly onCase?: (outcome: CaseOutcome) => void | Promise<void>;
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseOutcome {
  readonly dataset: string;
  readonly caseId: string;
  readonly tier: number;
  readonly tags: readonly string[];
  readonly contender: string;
  readonly status: CaseStatus;
  /** Why a case was skipped. */
  readonly skipped: string | null;
  readonly turns: readonly TurnResult[];
  readonly durationMs: number;
}

export interface JudgeTally {
  readonly pass: number;
  readonly fail: number;
  readonly skip: number;
}

export interface EvalRunReport {
  readonly contender: string;
  readonly cases: readonly CaseOutcome[];
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Turn verdicts of every judge, over every played turn. */
  readonly judges: Readonly<Record<JudgeName, JudgeTally>>;
}

/** The cases of a dataset the selection keeps. */
export function selectCases(dataset: EvalDataset, selection: EvalSelection): readonly EvalCase[] {
  const tags = selection.tags ?? [];
  return dataset.cases.filter((item) => (selection.tier === undefined || item.tier === selection.tier) && tags.every((tag) => item.tags.includes(tag)));
}

/** Why a case cannot run with this contender, or null when it can. */
export function skipReason(evalCase: EvalCase, contender: EvalContender): string | null {
  if (evalCase.needs !== 'model' || contender.provider !== undefined) return null;
  if (contender.scripts && (evalCase.script !== undefined || evalCase.roles !== undefined)) return null;
  return contender.scripts ? 'need a model: run with --provider, or give each case a script' : 'need a model, and this run has none';
}

/**
 * Plays the selected cases of every dataset with one contender, each case on fresh data, and
 * scores every turn with every judge. A case passes when each of its turns is correct (or left
 * unread as it must be).
 */
export async function runEval(options: EvalRunOptions): Promise<EvalRunReport> {
  const cases: CaseOutcome[] = [];
  const judge = options.judge === undefined ? undefined : qualityJudge(options.judge);
  for (const dataset of options.datasets) {
    const selected = new Set(selectCases(dataset, options));
    const skipped = new Map<EvalCase, string>();
    for (const item of selected) {
      const reason = skipReason(item, options.contender);
      if (reason !== null) skipped.set(item, reason);
    }
    for (const [item, reason] of skipped) {
      const outcome: CaseOutcome = { dataset: dataset.name, caseId: item.id, tier: item.tier, tags: item.tags, contender: options.contender.label, status: 'skipped', skipped: reason, turns: [], durationMs: 0 };
      cases.push(outcome);
      await options.onCase?.(outcome);
    }
    let started = Date.now();
    const confirmedTools = options.confirmedToolsFor?.(dataset);
    await runDataset(dataset, {
      openCase: caseOpener({
        fixture: options.fixtureFor(dataset),
        now: new Date(dataset.now),
        provider: options.contender.provider,
        scripts: options.contender.scripts,
        engineSettings: options.engineSettings,
        toolSettings: options.toolSettings,
      }),
      filter: (item) => selected.has(item) && !skipped.has(item),
      ...(confirmedTools === undefined ? {} : { confirmedTools }),
      ...(judge === undefined ? {} : { judgeQuality: judge }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onCase: (item, turns) => {
        const passed = turns.every((turn) => turn.verdict === 'correct' || turn.verdict === 'unread');
        const outcome: CaseOutcome = { dataset: dataset.name, caseId: item.id, tier: item.tier, tags: item.tags, contender: options.contender.label, status: passed ? 'passed' : 'failed', skipped: null, turns, durationMs: Date.now() - started };
        started = Date.now();
        cases.push(outcome);
        return options.onCase?.(outcome);
      },
    });
  }
  return summarize(options.contender.label, cases);
}

export function summarize(contender: string, cases: readonly CaseOutcome[]): EvalRunReport {
  const judges = Object.fromEntries(judgeNames.map((name) => [name, { pass: 0, fail: 0, skip: 0 }])) as Record<JudgeName, { pass: number; fail: number; skip: number }>;
  for (const item of cases) for (const turn of item.turns) for (const verdict of turn.judges) judges[verdict.judge][verdict.status]++;
  const count = (status: CaseStatus): number => cases.filter((item) => item.status === status).length;
  return { contender, cases, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), judges };
}

/** A judge's verdict on a turn, for the comparison table. */
export function judgeOf(turn: TurnResult, name: JudgeName): JudgeVerdict | undefined {
  return turn.judges.find((item) => item.judge === name);
}
