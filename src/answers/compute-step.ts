/**
 * A compute step's value with what it was computed from: a count of the rows and the filters they
 * were read by, yes or no with the rows that say so, a total or an average over a field, the rows
 * with the highest or lowest value of a field, or arithmetic over records.
 */
import { Decimal } from 'decimal.js';
import type { JsonValue } from '../core/index.js';
import type { PickedRow, PlanItem } from '../router/index.js';
import { relatedCount } from '../router/index.js';
import type { Context } from './context.js';
import { conditions, whereOf } from './filters.js';
import { fieldLabel, isRecord, rowsOf } from './labels.js';
import { formatNumber, scaleOf } from './locale.js';
import { capitalize, thingOf } from './nouns.js';
import { namesOf, rowLines, sourceOf } from './rows.js';
import type { StepOutcome } from './types.js';
import { shown } from './values.js';
import { fill } from './words.js';
import type { Source, Written } from './written.js';
import { fillIn, join, value, written } from './written.js';

type ComputeOutcome = Extract<StepOutcome, { kind: 'compute' }>;
type ToolOutcome = Extract<StepOutcome, { kind: 'tool' }>;

export function renderComputeStep(ctx: Context, index: number, step: PlanItem | undefined, outcome: ComputeOutcome): Written {
  const { words } = ctx;
  const operation = words.operations[outcome.operation];
  if (outcome.value === null) return written(fill(words.computeError, { operation, error: outcome.error ?? '—' }));
  const inputs = (step?.dependsOn ?? []).flatMap((i) => {
    const s = ctx.steps[i];
    return s !== undefined && s.kind === 'tool' ? [{ index: i, outcome: s }] : [];
  });
  const first = inputs[0];
  const computed = (text: string, from: readonly PickedRow[] = []): Written => value(text, { step: index, tool: null, row: null, id: null, field: 'value', ...(from.length > 0 ? { from } : {}) });
  if (outcome.operation === 'count') {
    if (first === undefined) return written(`${operation}: `, computed(outcome.value));
    const count = Number(outcome.value);
    const filters = isQuery(first.outcome.result) ? conditions(ctx, first.outcome.tool, first.outcome.arguments) : '';
    const of = fill(words.countOf, { noun: rowsOf(ctx, first.outcome.tool, 0) });
    return written(computed(formatNumber(outcome.value, ctx.language)), ` ${rowsOf(ctx, first.outcome.tool, count)} (${of}${filters === '' ? '' : whereOf(ctx, first.outcome.tool, first.outcome.arguments)}).`);
  }
  if (first !== undefined && isQuery(first.outcome.result)) {
    const page = first.outcome.result;
    if (outcome.operation === 'exists') return existsAnswer(ctx, first.index, first.outcome, page.data, outcome.value === 'true');
    if (outcome.operation === 'top' || outcome.operation === 'bottom') return rankAnswer(ctx, index, first.index, first.outcome, page.data, outcome);
    if (outcome.field !== null && ['sum', 'average', 'minimum', 'maximum'].includes(outcome.operation)) return aggregateAnswer(ctx, index, first.index, first.outcome, page, outcome);
  }
  const valueText = outcome.operation === 'percentage' ? `${formatNumber(outcome.value, ctx.language)}%` : formatNumber(outcome.value, ctx.language);
  const from = inputs.map((s) => describeSource(ctx, s.index, s.outcome, outcome.field)).filter((w) => w.text !== '');
  const sources = from.length === 0 ? written('—') : join(from, '; ');
  const template = outcome.field === null ? words.computedBare : words.computed;
  return fillIn(template, { operation: capitalize(operation), field: outcome.field ?? '', value: computed(valueText), over: words.over, sources });
}

function isQuery(result: JsonValue): result is { data: JsonValue[]; total_count?: JsonValue } {
  return isRecord(result) && Array.isArray(result['data']);
}

/** "Yes — 2 projects where parts name = Bolt:" with the rows; "No — no materials match density > 10." */
function existsAnswer(ctx: Context, step: number, read: ToolOutcome, rows: readonly JsonValue[], yes: boolean): Written {
  const filters = conditions(ctx, read.tool, read.arguments);
  if (!yes) return written(fill(ctx.words.no, { noun: rowsOf(ctx, read.tool, 0), filters: filters === '' ? '—' : filters }));
  const header = fill(ctx.words.rows, { count: String(rows.length), noun: rowsOf(ctx, read.tool, rows.length), where: whereOf(ctx, read.tool, read.arguments) });
  return join([fillIn(ctx.words.yes, { rows: header }), ...rowLines(ctx, step, read.tool, rows)], '\n');
}

/** The rows with the highest or lowest value of a field: one in a sentence, several as a numbered list. */
function rankAnswer(ctx: Context, index: number, step: number, read: ToolOutcome, rows: readonly JsonValue[], outcome: ComputeOutcome): Written {
  const field = outcome.field ?? '';
  const picked = (outcome.picked ?? []).filter((p) => p.step === step && isRecord(rows[p.row]));
  const tool = read.tool;
  const { title, identity } = namesOf(tool, rows);
  const dated = picked.some((p) => {
    const v = (rows[p.row] as Record<string, JsonValue>)[field];
    return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v);
  });
  // A list of related rows is ranked by how many there are: "with the most performances: Into the Woods (4)".
  const counted = picked.some((p) => Array.isArray((rows[p.row] as Record<string, JsonValue>)[field]));
  const sense = counted ? (outcome.operation === 'top' ? 'most' : 'fewest') : dated ? (outcome.operation === 'top' ? 'latest' : 'earliest') : outcome.operation === 'top' ? 'top' : 'bottom';
  const clause = whereOf(ctx, tool, read.arguments);
  const where = clause === '' ? '' : `${clause},`;
  const entry = (p: PickedRow): Written => {
    const row = rows[p.row] as Readonly<Record<string, JsonValue>>;
    const name = title ?? identity ?? field;
    const cell = row[field];
    return fillIn(ctx.words.withValue, {
      row: value(shown(ctx, tool, name, row[name]), sourceOf(step, tool, p.row, row, identity, name)),
      value: Array.isArray(cell)
        ? value(String(relatedCount(cell)), { step: index, tool: null, row: null, id: null, field: 'value', from: [p] } satisfies Source)
        : value(shown(ctx, tool, field, cell), { ...sourceOf(step, tool, p.row, row, identity, field), step: index, from: [p] }),
    });
  };
  const label = fieldLabel(ctx, tool, field);
  if (picked.length === 1) {
    const noun = capitalize(rowsOf(ctx, tool, 1));
    return written(fillIn(ctx.words.rankOne, { noun: `${noun}${where}`, rank: ctx.words.rankWords[sense], field: label, row: entry(picked[0] as PickedRow) }), '.');
  }
  const header = fillIn(ctx.words.rankMany, { count: String(picked.length), noun: `${rowsOf(ctx, tool, picked.length)}${where}`, rank: ctx.words.rankManyWords[sense], field: label });
  return join([header, ...picked.map((p, i) => written(`${i + 1}. `, entry(p)))], '\n');
}

/** "Total stock of parts where material name = Steel: 30,100 (over 5 parts)." — written with the scale of the values it was computed from. */
function aggregateAnswer(ctx: Context, index: number, step: number, read: ToolOutcome, page: { data: JsonValue[]; total_count?: JsonValue }, outcome: ComputeOutcome): Written {
  const op = outcome.operation as 'sum' | 'average' | 'minimum' | 'maximum';
  const field = outcome.field ?? '';
  const tool = read.tool;
  const rows = page.data;
  const scale = Math.max(0, ...rows.map((r) => (isRecord(r) && (typeof r[field] === 'string' || typeof r[field] === 'number') ? scaleOf(String(r[field])) : 0)));
  const exact = new Decimal(outcome.value as string);
  const digits = op === 'average' ? averageDigits(exact, scale, rows, field) : scale;
  const number = exact.toDecimalPlaces(digits, Decimal.ROUND_HALF_UP).toFixed(digits);
  const picked = (outcome.picked ?? []).filter((p) => p.step === step);
  const { title, identity } = namesOf(tool, rows);
  const from: PickedRow[] = op === 'minimum' || op === 'maximum' ? picked : rows.map((_, row) => ({ step, row }));
  const total = value(formatNumber(number, ctx.language), { step: index, tool: null, row: null, id: null, field: 'value', from } satisfies Source);
  const sentence = fillIn(ctx.words.aggregate, {
    operation: aggregateWord(ctx, op, fieldLabel(ctx, tool, field)),
    field: fieldLabel(ctx, tool, field),
    noun: rowsOf(ctx, tool, 0),
    where: whereOf(ctx, tool, read.arguments),
    value: total,
    count: String(rows.length),
    rows: rowsOf(ctx, tool, rows.length),
  });
  if (picked.length === 0 || (title === null && identity === null)) return sentence;
  const names = picked.flatMap((p) => {
    const row = rows[p.row];
    const name = title ?? identity;
    return isRecord(row) && name !== null ? [value(shown(ctx, tool, name, row[name]), sourceOf(step, tool, p.row, row, identity, name))] : [];
  });
  return written(sentence.text.endsWith('.') ? { text: sentence.text.slice(0, -1), sources: sentence.sources } : sentence, ' — ', join(names, ', '), '.');
}

/**
 * An average is rounded to two places (or the values' own scale, if longer); one that is exact within
 * that keeps only its own places, at the scale decimals are written at ("12,760" over whole numbers,
 * "19.70" over prices written "19.40"), never "12,760.00".
 */
function averageDigits(exact: Decimal, scale: number, rows: readonly JsonValue[], field: string): number {
  const rounded = Math.max(2, scale);
  if (exact.decimalPlaces() > rounded) return rounded;
  // Decimals come as strings with their scale ("19.40"); a float's digits are only its own.
  const written = Math.max(0, ...rows.map((r) => (isRecord(r) && typeof r[field] === 'string' ? scaleOf(r[field]) : 0)));
  return Math.max(exact.decimalPlaces(), written);
}

/** A source of a computed value over records: a query's rows and filters, or a record's identity and the field's value in it. */
function describeSource(ctx: Context, step: number, source: ToolOutcome, field: string | null): Written {
  const result = source.result;
  const tool = source.tool;
  if (isQuery(result)) {
    const total = typeof result.total_count === 'number' ? result.total_count : result.data.length;
    const filters = conditions(ctx, tool, source.arguments);
    return written(`${total} ${rowsOf(ctx, tool, total)}${filters === '' ? '' : whereOf(ctx, tool, source.arguments)}`);
  }
  if (Array.isArray(result)) return written(`${result.length} ${rowsOf(ctx, tool, result.length)}`);
  const noun = rowsOf(ctx, tool, 1);
  if (!isRecord(result)) return written(`${noun}: `, value(shown(ctx, tool, 'value', result), { step, tool, row: null, id: null, field: 'value' }));
  const thing = thingOf(tool).replace(/ /g, '_');
  const identity = ['id', `${thing}_id`].find((k) => result[k] !== undefined && result[k] !== null);
  const key = field === null ? undefined : Object.keys(result).find((k) => k.toLowerCase() === field.toLowerCase() || k.toLowerCase() === field.toLowerCase().replace(/s$/, ''));
  const src = (f: string): Source => ({ step, tool, row: null, id: identity === undefined ? null : (result[identity] ?? null), field: f });
  const name = identity === undefined ? written(noun) : written(`${noun} `, value(shown(ctx, tool, identity, result[identity]), src(identity)));
  return key === undefined ? name : written(name, ': ', value(shown(ctx, tool, key, result[key]), src(key)));
}

/** "Total stock", but "Sum of total" rather than "Total total". */
function aggregateWord(ctx: Context, op: 'sum' | 'average' | 'minimum' | 'maximum', field: string): string {
  const word = ctx.words.aggregateOf[op];
  return field.toLowerCase().startsWith(word.toLowerCase()) ? ctx.words.operations[op].replace(/^./, (c) => c.toUpperCase()) : word;
}
