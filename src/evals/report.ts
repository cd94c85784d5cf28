import type { TurnResult } from './run-dataset.js';

/** The dataset's three measures and their counts. */
export interface EvalMetrics {
  readonly turns: number;
  /** Turns meant to be answered (expected outcome run, ask or declined). */
  readonly meantAnswered: number;
  /** Of those, how many were answered. */
  readonly answeredOfMeant: number;
  /** answeredOfMeant / meantAnswered. */
  readonly coverage: number;
  /** Every answered turn, a must-be-unread turn answered included. */
  readonly answered: number;
  readonly correct: number;
  /** correct / answered (1 when nothing was answered). */
  readonly precision: number;
  readonly mustBeUnread: number;
  readonly leftUnread: number;
  /** leftUnread / mustBeUnread (1 when there are none). */
  readonly unreadShare: number;
}

export function metricsOf(results: readonly TurnResult[]): EvalMetrics {
  const meant = results.filter((result) => result.expectedOutcome !== 'unread');
  const answeredOfMeant = meant.filter((result) => result.answered).length;
  const answered = results.filter((result) => result.answered);
  const correct = answered.filter((result) => result.verdict === 'correct').length;
  const mustBe = results.filter((result) => result.mustBeUnread);
  const leftUnread = mustBe.filter((result) => !result.answered).length;
  return {
    turns: results.length,
    meantAnswered: meant.length,
    answeredOfMeant,
    coverage: ratio(answeredOfMeant, meant.length),
    answered: answered.length,
    correct,
    precision: ratio(correct, answered.length),
    mustBeUnread: mustBe.length,
    leftUnread,
    unreadShare: ratio(leftUnread, mustBe.length),
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

/** The targets issue 8 sets for the embedded default. */
export const defaultTargets = Object.freeze({ precision: 1, coverage: 0.9, unreadShare: 1 });

export function meetsTargets(metrics: EvalMetrics, targets = defaultTargets): boolean {
  return metrics.precision >= targets.precision && metrics.coverage >= targets.coverage && metrics.unreadShare >= targets.unreadShare;
}

const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;

/** The report as Markdown: the measures, a breakdown by kind and by language, and every failing turn with why. */
export function formatReport(results: readonly TurnResult[], title = 'dataset'): string {
  const m = metricsOf(results);
  const lines: string[] = [];
  lines.push(`### ${title}: coverage, precision, must-be-unread`, '');
  lines.push('| turns | meant to be answered | answered of those | coverage | answered (all) | fully correct | precision | must be unread | left unread | share |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  lines.push(`| ${m.turns} | ${m.meantAnswered} | ${m.answeredOfMeant} | ${percent(m.coverage)} | ${m.answered} | ${m.correct} | ${percent(m.precision)} | ${m.mustBeUnread} | ${m.leftUnread} | ${percent(m.unreadShare)} |`);
  lines.push('', `Targets: precision 100%, coverage ≥ 90%, every must-be-unread turn unread — ${meetsTargets(m) ? 'met' : 'NOT met'}.`, '');
  lines.push(...breakdown('kind', results, (result) => result.kind));
  lines.push(...breakdown('language', results, (result) => result.language));
  const failing = results.filter((result) => result.verdict === 'wrong' || result.verdict === 'missed');
  lines.push(`### Failing turns (${failing.length})`, '');
  if (failing.length === 0) lines.push('None.');
  for (const result of failing) {
    const label =
      result.verdict === 'wrong' ? (result.mustBeUnread ? 'ANSWERED, MUST BE UNREAD' : 'WRONG') : result.observed.error !== null ? 'ERROR, not answered' : 'unread (coverage)';
    lines.push(`- \`${result.id}\` [${label}] (${result.language}, ${result.actor}) "${result.text}"${result.afterFailure ? ' — after an earlier failure in the case' : ''}`);
    for (const reason of result.reasons) lines.push(`  - ${reason}`);
    if (result.verdict === 'wrong' && result.observed.answer !== '') lines.push(`  - answer: ${JSON.stringify(clip(result.observed.answer, 300))}`);
  }
  return `${lines.join('\n')}\n`;
}

function breakdown(by: string, results: readonly TurnResult[], key: (result: TurnResult) => string): string[] {
  const groups = new Map<string, TurnResult[]>();
  for (const result of results) {
    const name = key(result);
    const group = groups.get(name) ?? [];
    group.push(result);
    groups.set(name, group);
  }
  const lines = [`| ${by} | turns | answered | fully correct | wrong | unread (missed) | must-be-unread left unread |`, '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const [name, group] of groups) {
    const count = (verdict: string): number => group.filter((result) => result.verdict === verdict).length;
    const mustBe = group.filter((result) => result.mustBeUnread);
    lines.push(`| ${name} | ${group.length} | ${group.filter((result) => result.answered).length} | ${count('correct')} | ${count('wrong')} | ${count('missed')} | ${mustBe.length === 0 ? '—' : `${mustBe.filter((result) => !result.answered).length} / ${mustBe.length}`} |`);
  }
  lines.push('');
  return lines;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
