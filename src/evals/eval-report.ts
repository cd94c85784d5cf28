import type { CaseOutcome, EvalRunReport } from './eval-run.js';
import { judgeOf } from './eval-run.js';
import { clip, judgeNames } from './judges.js';
import type { JudgeName } from './judges.js';
import type { TurnResult } from './run-dataset.js';

/** The run as text: totals, each judge's tally over turns, every failed case with why. */
export function formatEvalReport(report: EvalRunReport): string {
  const lines = [`plumb eval: ${report.contender}`, ''];
  lines.push(`cases: ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped (of ${report.cases.length})`);
  lines.push(`judges over turns: ${judgeNames.map((name) => tallyText(name, report)).join(' · ')}`);
  const failed = report.cases.filter((item) => item.status === 'failed');
  if (failed.length > 0) lines.push('', 'failed:');
  for (const item of failed) lines.push(...failedCase(item));
  const skipped = report.cases.filter((item) => item.status === 'skipped');
  if (skipped.length > 0) {
    const reasons = new Map<string, string[]>();
    for (const item of skipped) reasons.set(item.skipped ?? '', [...(reasons.get(item.skipped ?? '') ?? []), `${item.dataset}/${item.caseId}`]);
    lines.push('', 'skipped:');
    for (const [reason, ids] of reasons) lines.push(`  ${ids.length} ${reason}: ${clip(ids.join(', '), 300)}`);
  }
  return `${lines.join('\n')}\n`;
}

function tallyText(name: JudgeName, report: EvalRunReport): string {
  const tally = report.judges[name];
  if (tally.pass + tally.fail === 0) return `${name} —`;
  return `${name} ${tally.pass}/${tally.pass + tally.fail}`;
}

function failedCase(item: CaseOutcome): string[] {
  const lines = [`  ✗ ${item.dataset}/${item.caseId} (tier ${item.tier}${item.tags.length === 0 ? '' : `, ${item.tags.join(', ')}`})`];
  for (const turn of item.turns) {
    if (turn.verdict === 'correct' || turn.verdict === 'unread') continue;
    lines.push(`    ${turn.id} [${turn.verdict}] ${JSON.stringify(clip(turn.text, 120))}${turn.afterFailure ? ' (after an earlier failure)' : ''}`);
    for (const verdict of turn.judges) for (const reason of verdict.status === 'fail' ? verdict.reasons : []) lines.push(`      ${verdict.judge}: ${clip(reason, 400)}`);
    if (turn.verdict === 'missed' && turn.judges.every((verdict) => verdict.status !== 'fail')) for (const reason of turn.reasons) lines.push(`      ${clip(reason, 400)}`);
    if (turn.verdict === 'wrong' && turn.observed.answer !== '') lines.push(`      answer: ${JSON.stringify(clip(turn.observed.answer, 300))}`);
  }
  return lines;
}

/**
 * Two or more contenders over the same cases: the case totals side by side, a table per judge
 * (turns passed, failed and not judged), and every case whose status or verdicts differ from the first's.
 */
export function formatComparison(first: EvalRunReport, ...others: readonly EvalRunReport[]): string {
  const reports = [first, ...others];
  const header = `| | ${reports.map((report) => report.contender).join(' | ')} |`;
  const rule = `| --- |${reports.map(() => ' --- |').join('')}`;
  const row = (label: string, cell: (report: EvalRunReport) => string | number): string => `| ${label} | ${reports.map(cell).join(' | ')} |`;
  const lines = [`plumb eval --compare: ${reports.map((report) => report.contender).join(' vs ')}`, ''];
  lines.push(header, rule, row('cases passed', (r) => r.passed), row('cases failed', (r) => r.failed), row('cases skipped', (r) => r.skipped));
  for (const name of judgeNames) {
    lines.push('', `judge ${name}:`, '', header, rule);
    lines.push(row('turns passed', (r) => r.judges[name].pass), row('turns failed', (r) => r.judges[name].fail), row('pass rate', (r) => judgeCell(r, name)));
  }
  for (const peer of others) lines.push('', ...caseChanges(first, peer));
  return `${lines.join('\n')}\n`;
}

/** The cases whose status or judge verdicts differ between two reports. */
function caseChanges(a: EvalRunReport, b: EvalRunReport): string[] {
  const other = new Map(b.cases.map((item) => [caseKey(item), item]));
  const changed: string[] = [];
  for (const item of a.cases) {
    const peer = other.get(caseKey(item));
    if (peer === undefined) continue;
    const judgeChanges = judgeDifferences(item, peer);
    if (item.status === peer.status && judgeChanges.length === 0) continue;
    changed.push(`  ${caseKey(item)}: ${item.status} → ${peer.status}${judgeChanges.length === 0 ? '' : ` (${judgeChanges.join('; ')})`}`);
  }
  const title = `${a.contender} → ${b.contender}`;
  return [changed.length === 0 ? `${title}: every case has the same status and judge verdicts under both.` : `${title}: cases that differ (${changed.length}):`, ...changed];
}

function judgeCell(report: EvalRunReport, name: JudgeName): string {
  const tally = report.judges[name];
  return tally.pass + tally.fail === 0 ? '—' : `${tally.pass}/${tally.pass + tally.fail} (${((tally.pass / (tally.pass + tally.fail)) * 100).toFixed(0)}%)`;
}

function caseKey(item: CaseOutcome): string {
  return `${item.dataset}/${item.caseId}`;
}

/** Per turn, the judges whose verdict differs: `#2 contract pass→fail`. */
function judgeDifferences(a: CaseOutcome, b: CaseOutcome): string[] {
  const out: string[] = [];
  const turns = new Map<string, TurnResult>(b.turns.map((turn) => [turn.id, turn]));
  for (const turn of a.turns) {
    const peer = turns.get(turn.id);
    if (peer === undefined) continue;
    for (const name of judgeNames) {
      const left = judgeOf(turn, name)?.status ?? 'skip';
      const right = judgeOf(peer, name)?.status ?? 'skip';
      if (left !== right) out.push(`#${turn.id.split('#')[1] ?? '?'} ${name} ${left}→${right}`);
    }
  }
  return out;
}

/** The run as JSON: every case and turn with its judges; event traces are left to `--trace-jsonl`. */
export function evalReportJson(report: EvalRunReport): unknown {
  return {
    contender: report.contender,
    passed: report.passed,
    failed: report.failed,
    skipped: report.skipped,
    judges: report.judges,
    cases: report.cases.map((item) => ({ ...item, turns: item.turns.map((turn) => turnJson(turn)) })),
  };
}

export function turnJson(turn: TurnResult, withEvents = false): unknown {
  if (withEvents) return turn;
  const { trace: _trace, ...observed } = turn.observed;
  return { ...turn, observed };
}

/** One line of `--trace-jsonl`: a case, its turns with every event they streamed. */
export function traceLine(outcome: CaseOutcome): string {
  return `${JSON.stringify({ ...outcome, turns: outcome.turns.map((turn) => turnJson(turn, true)) })}\n`;
}
