/** One tool step's result in words: an error, a cancelled or pending write, a write done, rows, a record, availability. */
import type { JsonObject, JsonValue } from '../../core/index.js';
import type { PlanItem } from '../../router/index.js';
import { conditions } from './filters.js';
import { capitalize, rowNoun, thingNoun, thingOf, verbOf } from './nouns.js';
import type { Context } from './context.js';
import { MAX_ROWS, rowLines } from './rows.js';
import { compact, fieldLine, fieldWords, isList, isRecord, rangeOrder } from './values.js';
import { isToolFailure, undoneStatus } from './undone.js';
import { fill } from './words.js';

type ToolOutcome = { readonly tool: string; readonly arguments: JsonObject; readonly result: JsonValue };

export function renderToolStep(ctx: Context, step: PlanItem | undefined, outcome: ToolOutcome): string {
  const { result, tool } = outcome;
  const words = ctx.words;
  if (isToolFailure(result) && isRecord(result) && isRecord(result['error'])) {
    const code = typeof result['error']['code'] === 'string' ? result['error']['code'] : 'error';
    // The dispatcher answers a lapsed confirmation as an error: it is a write not done, said as such.
    if (code === 'confirmation_expired') return fill(words.expired, { tool });
    return fill(words.toolError, { tool, code, message: compact(result['error']['message']) });
  }
  const status = undoneStatus(result);
  if (status !== null) return settledWrite(ctx, step, outcome, status, isRecord(result) ? result['reason'] : undefined);
  if (step?.confirmation != null) return renderWrite(ctx, outcome);
  if (Array.isArray(result) && step?.decidedBy.startsWith('D1 availability') === true) return renderAvailability(ctx, outcome, result);
  if (isRecord(result) && isList(result['data'])) return renderQuery(ctx, outcome, result['data'], result['total_count'], result['has_more'] === true);
  if (Array.isArray(result)) return renderList(ctx, outcome, result);
  if (isRecord(result)) return renderRecord(ctx, step, outcome, result);
  return `${capitalize(rowNoun(tool, ctx.language, 1, ctx.label))}: ${compact(result)}`;
}

/** A write that did not happen (rejected, expired, cancelled) or waits for a person. */
function settledWrite(ctx: Context, step: PlanItem | undefined, outcome: ToolOutcome, status: string, reason: JsonValue | undefined): string {
  const words = ctx.words;
  const tool = outcome.tool;
  if (status === 'rejected' || (status === 'cancelled' && reason === 'user_rejected')) return fill(words.rejected, { tool });
  if (status === 'expired' || (status === 'cancelled' && reason === 'confirmation_timed_out')) return fill(words.expired, { tool });
  if (status === 'cancelled') return fill(words.cancelled, { tool, reason: compact(reason) });
  return fill(words.awaiting, { text: step?.confirmation ?? `${tool} (${argumentText(outcome.arguments)})` });
}

function argumentText(args: JsonObject): string {
  return rangeOrder(Object.keys(args))
    .map((k) => `${k}: ${compact(args[k])}`)
    .join(', ');
}

/** What a write did, with the result's own values: "Created project 17 "Alpha".", "Charged 40.00 to order 4411." */
function renderWrite(ctx: Context, outcome: ToolOutcome): string {
  const { words, language, label } = ctx;
  const { tool, result } = outcome;
  const args = outcome.arguments;
  const verb = verbOf(tool);
  const known = Object.hasOwn(words.done, verb);
  const done = known ? (words.done[verb] as string) : words.doneOther;
  const record = isRecord(result) ? result : null;
  const used = new Set<string>();
  let headline: string;
  const amount = args['amount'];
  const target = Object.keys(args).find((k) => thingNoun(k, language, undefined) !== null && (typeof args[k] === 'string' || typeof args[k] === 'number'));
  if ((typeof amount === 'string' || typeof amount === 'number') && target !== undefined) {
    const value = compact(args[target]);
    headline = fill(verb === 'charge' ? words.amountTo : words.amountOn, { done, amount: compact(amount), target: `${thingNoun(target, language, label) ?? target} ${value}` });
    if (record !== null && compact(record[target]) === value) used.add(target);
  } else if (record !== null && record['id'] !== undefined && record['id'] !== null) {
    const name = ['name', 'title'].find((k) => typeof record[k] === 'string');
    used.add('id');
    if (name !== undefined) used.add(name);
    headline = `${done} ${rowNoun(tool, language, 1, label)} ${compact(record['id'])}${name === undefined ? '' : ` "${compact(record[name])}"`}.`;
  } else {
    const text = argumentText(args);
    headline = `${done} ${known ? thingOf(tool) : fieldWords(tool)}${text === '' ? '' : ` (${text})`}.`;
  }
  if (record === null) return result === null ? headline : `${headline}\n${fieldLine('result', result)}`;
  const lines = Object.keys(record).filter((k) => !used.has(k)).map((k) => fieldLine(k, record[k]));
  return [headline, ...lines].join('\n');
}

/** Rows of a query page: how many, what they were filtered by, the rows, and how many more past the bound. */
function renderQuery(ctx: Context, outcome: ToolOutcome, rows: readonly JsonValue[], totalCount: JsonValue | undefined, hasMore: boolean): string {
  const { words, language, label } = ctx;
  const total = typeof totalCount === 'number' && totalCount >= rows.length ? totalCount : rows.length;
  const filters = conditions(outcome.arguments, words);
  if (rows.length === 0 && total === 0) {
    const noun = rowNoun(outcome.tool, language, 0, label);
    return filters === '' ? fill(words.noRows, { noun, args: '' }) : fill(words.noRowsWhere, { noun, filters });
  }
  const header = fill(words.rows, { count: String(total), noun: rowNoun(outcome.tool, language, total, label), where: filters === '' ? '' : ` ${words.where} ${filters}` });
  const more = typeof totalCount !== 'number' && (hasMore || rows.length > MAX_ROWS) ? [ctx.words.moreUncounted] : moreLine(ctx, Math.min(rows.length, MAX_ROWS), total);
  return [header, ...rowLines(rows), ...more].join('\n');
}

function moreLine(ctx: Context, shown: number, total: number): string[] {
  return total > shown ? [fill(ctx.words.more, { more: String(total - shown), total: String(total) })] : [];
}

/** Rows of any other tool: how many, the arguments they were read with, the rows. */
function renderList(ctx: Context, outcome: ToolOutcome, rows: readonly JsonValue[]): string {
  const { words, language, label } = ctx;
  const text = argumentText(outcome.arguments);
  const args = text === '' ? '' : ` (${text})`;
  if (rows.length === 0) return fill(words.noRows, { noun: rowNoun(outcome.tool, language, 0, label), args });
  const header = fill(words.rows, { count: String(rows.length), noun: rowNoun(outcome.tool, language, rows.length, label), where: args });
  return [header, ...rowLines(rows), ...moreLine(ctx, Math.min(rows.length, MAX_ROWS), rows.length)].join('\n');
}

/** "Am I free …": the period when nothing overlaps it, else the events that do. */
function renderAvailability(ctx: Context, outcome: ToolOutcome, events: readonly JsonValue[]): string {
  const args = outcome.arguments;
  const from = compact(args['time_min'] ?? Object.values(args)[0]);
  const to = compact(args['time_max'] ?? Object.values(args)[1]);
  if (events.length === 0) return fill(ctx.words.free, { from, to });
  const header = fill(ctx.words.busy, { from, to, count: String(events.length), noun: rowNoun(outcome.tool, ctx.language, events.length, ctx.label) });
  return [header, ...rowLines(events), ...moreLine(ctx, Math.min(events.length, MAX_ROWS), events.length)].join('\n');
}

/** Folds accents and case so that a field's words can be found in the turn. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** One record as "field: value" lines under its type and identity, led by the field the turn asks about. */
function renderRecord(ctx: Context, step: PlanItem | undefined, outcome: ToolOutcome, record: Record<string, JsonValue>): string {
  const thing = thingOf(outcome.tool).replace(/ /g, '_');
  const keys = Object.keys(record);
  const identity = keys.find((k) => k === 'id') ?? keys.find((k) => k === `${thing}_id`) ?? keys.find((k) => k === `${thing}_number`);
  const noun = capitalize(rowNoun(outcome.tool, ctx.language, 1, ctx.label));
  const title = identity === undefined ? noun : `${noun} ${compact(record[identity])}`;
  const turn = fold(`${step?.text ?? ''} ${ctx.plan.turn}`);
  let lead: { key: string; at: number } | null = null;
  for (const key of keys) {
    if (key === identity) continue;
    const match = new RegExp(`(^|[^\\p{L}\\p{N}])${fold(fieldWords(key)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u').exec(turn);
    if (match !== null && (lead === null || match.index < lead.at)) lead = { key, at: match.index };
  }
  const heading = lead === null ? `${title}:` : `${title} — ${lead.key}: ${compact(record[lead.key])}`;
  return [heading, ...keys.map((k) => fieldLine(k, record[k]))].join('\n');
}
