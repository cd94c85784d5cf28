import type { JsonValue } from '../core/index.js';
import type { EvalExpectedCall, EvalExpectedResult, EvalTurn } from './dataset-schema.js';
import { argumentsMatch, valuesMatch } from './match-arguments.js';
import { containsFact } from './match-facts.js';
import type { ObservedCall, ObservedTurn } from './play-case.js';

/**
 * The judges a turn is scored by. `contract` is the product's hard contract (outcome, error, tools
 * required and forbidden, facts, confirmations): a failure there is a defect. The others measure
 * how the turn got there and what it returned; `quality` needs a judge model.
 */
export const judgeNames = ['contract', 'sequence', 'accuracy', 'resultSet', 'quality'] as const;
export type JudgeName = (typeof judgeNames)[number];

export interface JudgeVerdict {
  readonly judge: JudgeName;
  /** `skip`: the turn asks nothing of this judge (or, for quality, there is no judge model). */
  readonly status: 'pass' | 'fail' | 'skip';
  readonly reasons: readonly string[];
}

export interface ContractOptions {
  /** Tools that need a person's confirmation: each expected call of one must have been confirmed. */
  readonly confirmedTools?: ReadonlySet<string> | undefined;
}

function verdict(judge: JudgeName, applies: boolean, reasons: readonly string[]): JudgeVerdict {
  return { judge, status: !applies ? 'skip' : reasons.length === 0 ? 'pass' : 'fail', reasons };
}

export function judgeContract(turn: EvalTurn, observed: ObservedTurn, options: ContractOptions = {}): JudgeVerdict {
  const expect = turn.expect;
  const reasons: string[] = [];
  if (expect.outcome === 'unread' && observed.outcome !== 'unread' && observed.outcome !== null) reasons.push(`must be unread, but the router answered (${observed.outcome})`);
  else if (expect.outcome !== undefined && observed.outcome !== expect.outcome) reasons.push(`expected outcome ${expect.outcome}, got ${observed.outcome ?? 'no plan event'}`);
  if (expect.error !== undefined) {
    if (observed.error?.code !== expect.error) reasons.push(`expected error ${expect.error}, ${observed.error === null ? 'the turn ended without one' : `got ${observed.error.code}`}`);
  } else if (observed.error !== null) reasons.push(`error ${observed.error.code}: ${observed.error.message}`);
  const called = new Set(observed.calls.map((call) => call.tool));
  for (const tool of expect.requiredTools) if (!called.has(tool)) reasons.push(`required tool ${tool} was not called`);
  for (const tool of expect.forbiddenTools) if (called.has(tool)) reasons.push(`forbidden tool ${tool} was called`);
  if (expect.compute !== undefined) {
    const steps = observed.planSteps.filter((step) => step.kind === 'compute');
    if (steps.length === 0) reasons.push(`expected a ${expect.compute} step in the plan, found none`);
    else if (!steps.some((step) => step.operation === null || step.operation === expect.compute)) {
      reasons.push(`expected a ${expect.compute} step, the plan computes ${steps.map((step) => step.operation).join(', ')}`);
    }
  }
  if (expect.coverage !== undefined) {
    const seen = observed.coverage;
    if (seen === null) reasons.push(`expected coverage ${expect.coverage.resolved}/${expect.coverage.total}, done carried none`);
    else if (seen.resolved !== expect.coverage.resolved || seen.total !== expect.coverage.total) {
      reasons.push(`expected coverage ${expect.coverage.resolved}/${expect.coverage.total}, got ${seen.resolved}/${seen.total}`);
    }
  }
  reasons.push(...confirmationProblems(turn, observed, options.confirmedTools));
  for (const fact of expect.facts) if (!containsFact(observed.answer, fact)) reasons.push(`answer lacks '${fact}'`);
  for (const fact of expect.absent) if (containsFact(observed.answer, fact)) reasons.push(`answer states '${fact}', which it must not`);
  return verdict('contract', true, reasons);
}

export function judgeSequence(turn: EvalTurn, observed: ObservedTurn): JudgeVerdict {
  const wanted = turn.expect.sequence;
  if (wanted === undefined) return verdict('sequence', false, []);
  const tools = observed.calls.map((call) => call.tool);
  const ok = wanted.order === 'strict' ? tools.length === wanted.tools.length && tools.every((tool, i) => tool === wanted.tools[i]) : isSubsequence(wanted.tools, tools);
  const shown = tools.length === 0 ? 'no calls' : tools.join(' → ');
  return verdict('sequence', true, ok ? [] : [`expected ${wanted.order === 'strict' ? 'exactly' : 'in order'} ${wanted.tools.join(' → ')}; got ${shown}`]);
}

function isSubsequence(wanted: readonly string[], tools: readonly string[]): boolean {
  let i = 0;
  for (const tool of tools) if (tool === wanted[i]) i++;
  return i === wanted.length;
}

export function judgeAccuracy(turn: EvalTurn, observed: ObservedTurn): JudgeVerdict {
  const { calls, results } = turn.expect;
  if (calls === undefined && results.length === 0) return verdict('accuracy', false, []);
  const reasons: string[] = [];
  if (calls !== undefined) reasons.push(...callProblems(calls, observed.calls));
  for (const want of results) {
    const candidates = observed.calls.filter((call) => call.tool === want.tool && argumentsMatch(want.arguments, call.arguments));
    if (candidates.length === 0) {
      reasons.push(`no ${want.tool} call${Object.keys(want.arguments).length === 0 ? '' : ` with ${JSON.stringify(want.arguments)}`}`);
      continue;
    }
    if (!candidates.some((call) => resultHolds(want, call.result))) {
      reasons.push(`no ${want.tool} result holds ${describeResult(want)}; got ${candidates.map((call) => clip(JSON.stringify(call.result ?? null), 200)).join('; ')}`);
    }
  }
  return verdict('accuracy', true, reasons);
}

function resultHolds(want: EvalExpectedResult, result: JsonValue | undefined): boolean {
  const rows = rowsOf(result);
  if (rows === null) return false;
  if (want.rows !== undefined) {
    const total = isRecord(result) && typeof result.total_count === 'number' ? result.total_count : rows.length;
    if (total !== want.rows) return false;
  }
  return want.includes.every((subset) => rows.some((row) => Object.entries(subset).every(([key, value]) => Object.hasOwn(row, key) && valuesMatch(value, row[key]))));
}

function describeResult(want: EvalExpectedResult): string {
  const parts = [...(want.rows === undefined ? [] : [`${want.rows} rows`]), ...want.includes.map((row) => JSON.stringify(row))];
  return parts.join(' and ') || 'rows';
}

/** The rows of a tool result: a page's `data`, a bare array of rows, or a single row. */
export function rowsOf(result: JsonValue | undefined): Readonly<Record<string, JsonValue>>[] | null {
  if (result === undefined || result === null) return null;
  if (Array.isArray(result)) return result.filter(isRecord);
  if (!isRecord(result) || Object.hasOwn(result, 'error')) return null;
  if (Array.isArray(result.data)) return result.data.filter(isRecord);
  return [result];
}

export function judgeResultSet(turn: EvalTurn, observed: ObservedTurn): JudgeVerdict {
  const wanted = turn.expect.resultSet;
  if (wanted === undefined) return verdict('resultSet', false, []);
  const expected = new Set(wanted.values.map(String));
  const universe = new Set<string>(wanted.others.map(String));
  for (const call of observed.calls) for (const row of rowsOf(call.result) ?? []) collectValues(row, wanted.field, universe);
  const reasons: string[] = [];
  const missing = [...expected].filter((value) => !containsFact(observed.answer, value));
  if (missing.length > 0) reasons.push(`answer lacks ${missing.map((value) => `'${value}'`).join(', ')}`);
  const extra = [...universe].filter((value) => !expected.has(value) && containsFact(observed.answer, value)).sort();
  if (extra.length > 0) reasons.push(`answer also names ${extra.map((value) => `'${value}'`).join(', ')}, outside the set`);
  return verdict('resultSet', true, reasons);
}

/** A field's values in a row, in nested related rows too (`{ parts: [{ name }] }`). */
function collectValues(row: Readonly<Record<string, JsonValue>>, field: string, into: Set<string>): void {
  for (const [key, value] of Object.entries(row)) {
    if (key === field && (typeof value === 'string' || typeof value === 'number')) into.add(String(value));
    else if (Array.isArray(value)) {
      for (const item of value) if (isRecord(item)) collectValues(item, field, into);
    } else if (isRecord(value)) collectValues(value, field, into);
  }
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

function isRecord(value: unknown): value is Readonly<Record<string, JsonValue>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
