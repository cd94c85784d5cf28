/** A compute step's value with what it was computed from: "3 tasks (count of tasks where status = open)". */
import type { JsonValue } from '../../core/index.js';
import type { PlanItem } from '../../router/index.js';
import type { Context } from './context.js';
import { conditions } from './filters.js';
import { capitalize, rowNoun, thingOf } from './nouns.js';
import type { StepOutcome } from './types.js';
import { compact, isRecord } from './values.js';
import { fill } from './words.js';

type ComputeOutcome = Extract<StepOutcome, { kind: 'compute' }>;
type ToolOutcome = Extract<StepOutcome, { kind: 'tool' }>;

export function renderComputeStep(ctx: Context, step: PlanItem | undefined, outcome: ComputeOutcome): string {
  const { words, language, label } = ctx;
  const operation = words.operations[outcome.operation];
  if (outcome.value === null) return fill(words.computeError, { operation, error: outcome.error ?? '—' });
  const sources = (step?.dependsOn ?? [])
    .map((i) => ctx.steps[i])
    .filter((s): s is ToolOutcome => s !== undefined && s.kind === 'tool');
  const first = sources[0];
  if (outcome.operation === 'count') {
    if (first === undefined) return `${operation}: ${outcome.value}`;
    const count = Number(outcome.value);
    const filters = isQuery(first.result) ? conditions(first.arguments, words) : '';
    const of = fill(words.countOf, { noun: rowNoun(first.tool, language, 0, label) });
    return `${outcome.value} ${rowNoun(first.tool, language, count, label)} (${of}${filters === '' ? '' : ` ${words.where} ${filters}`}).`;
  }
  const value = outcome.operation === 'percentage' ? `${outcome.value}%` : outcome.value;
  const from = sources.map((s) => describeSource(ctx, s, outcome.field)).join('; ');
  const template = outcome.field === null ? words.computedBare : words.computed;
  return fill(template, { operation: capitalize(operation), field: outcome.field ?? '', value, over: words.over, sources: from === '' ? '—' : from });
}

function isQuery(result: JsonValue): result is { data: JsonValue[]; total_count?: JsonValue } {
  return isRecord(result) && Array.isArray(result['data']);
}

/** A source of a computed value: a query's rows and filters, or a record's identity and the field's value in it. */
function describeSource(ctx: Context, source: ToolOutcome, field: string | null): string {
  const { words, language, label } = ctx;
  const result = source.result;
  if (isQuery(result)) {
    const total = typeof result.total_count === 'number' ? result.total_count : result.data.length;
    const filters = conditions(source.arguments, words);
    return `${total} ${rowNoun(source.tool, language, total, label)}${filters === '' ? '' : ` ${words.where} ${filters}`}`;
  }
  if (Array.isArray(result)) return `${result.length} ${rowNoun(source.tool, language, result.length, label)}`;
  const noun = rowNoun(source.tool, language, 1, label);
  if (!isRecord(result)) return `${noun}: ${compact(result)}`;
  const thing = thingOf(source.tool).replace(/ /g, '_');
  const identity = ['id', `${thing}_id`].find((k) => result[k] !== undefined && result[k] !== null);
  const key = field === null ? undefined : Object.keys(result).find((k) => k.toLowerCase() === field.toLowerCase() || k.toLowerCase() === field.toLowerCase().replace(/s$/, ''));
  const name = identity === undefined ? noun : `${noun} ${compact(result[identity])}`;
  return key === undefined ? name : `${name}: ${compact(result[key])}`;
}
