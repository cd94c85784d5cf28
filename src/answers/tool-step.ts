/** One tool step's result in words: an error, a cancelled or pending write, a write done, rows, one attribute, a record, availability. */
import type { JsonObject, JsonValue } from '../core/index.js';
import type { PlanItem } from '../router/index.js';
import type { Context } from './context.js';
import { conditions, whereOf } from './filters.js';
import { fieldLabel, fieldWords, isList, isRecord, rowsOf } from './labels.js';
import { capitalize, thingNoun, thingOf, verbOf } from './nouns.js';
import { MAX_ROWS, namesOf, rowLines, sourceOf } from './rows.js';
import { schemaAnswer } from './schema-step.js';
import { isToolFailure, undoneStatus } from './undone.js';
import { rangeOrder, shown } from './values.js';
import { fill } from './words.js';
import type { Written } from './written.js';
import { EMPTY, fillIn, join, value, written } from './written.js';

type ToolOutcome = { readonly tool: string; readonly arguments: JsonObject; readonly result: JsonValue };

/** A data read that asks for one attribute says so in its rule (`… asking unitPrice`). */
const ASKING = / asking ([\w.,]+)$/;

export function renderToolStep(ctx: Context, index: number, step: PlanItem | undefined, outcome: ToolOutcome): Written {
  const { result, tool } = outcome;
  const words = ctx.words;
  if (isToolFailure(result) && isRecord(result) && isRecord(result['error'])) {
    const code = typeof result['error']['code'] === 'string' ? result['error']['code'] : 'error';
    // The dispatcher answers a lapsed confirmation as an error: it is a write not done, said as such.
    if (code === 'confirmation_expired') return written(fill(words.expired, { tool }));
    return written(fill(words.toolError, { tool, code, message: shown(ctx, tool, 'message', result['error']['message']) }));
  }
  const status = undoneStatus(result);
  if (status !== null) return written(settledWrite(ctx, step, outcome, status, isRecord(result) ? result['reason'] : undefined));
  if (step?.confirmation != null) return renderWrite(ctx, index, outcome);
  const schema = schemaAnswer(ctx, index, tool, outcome.arguments, result);
  if (schema !== null) return schema;
  if (Array.isArray(result) && step?.decidedBy.startsWith('D1 availability') === true) return renderAvailability(ctx, index, outcome, result);
  if (isRecord(result) && isList(result['data'])) {
    const asking = ASKING.exec(step?.decidedBy ?? '')?.[1];
    if (asking !== undefined && result['data'].length === 1) return renderAttribute(ctx, index, outcome, result['data'][0] as JsonValue, asking.split(','));
    return renderQuery(ctx, index, outcome, result['data'], result['total_count'], result['has_more'] === true);
  }
  if (Array.isArray(result)) return renderList(ctx, index, outcome, result);
  if (isRecord(result)) return renderRecord(ctx, index, step, outcome, result);
  return written(`${capitalize(rowsOf(ctx, tool, 1))}: `, value(shown(ctx, tool, 'value', result), { step: index, tool, row: null, id: null, field: 'value' }));
}

/** A write that did not happen (rejected, expired, cancelled) or waits for a person. */
function settledWrite(ctx: Context, step: PlanItem | undefined, outcome: ToolOutcome, status: string, reason: JsonValue | undefined): string {
  const words = ctx.words;
  const tool = outcome.tool;
  if (status === 'rejected' || (status === 'cancelled' && reason === 'user_rejected')) return fill(words.rejected, { tool });
  if (status === 'expired' || (status === 'cancelled' && reason === 'confirmation_timed_out')) return fill(words.expired, { tool });
  if (status === 'cancelled') return fill(words.cancelled, { tool, reason: shown(ctx, tool, 'reason', reason) });
  return fill(words.awaiting, { text: step?.confirmation ?? `${tool} (${argumentText(ctx, tool, outcome.arguments)})` });
}

function argumentText(ctx: Context, tool: string, args: JsonObject): string {
  return rangeOrder(Object.keys(args))
    .map((k) => `${fieldLabel(ctx, tool, k)}: ${shown(ctx, tool, k, args[k])}`)
    .join(', ');
}

/** What a write did, with the result's own values: "Created project 17 "Alpha".", "Charged 40.00 to order 4411." */
function renderWrite(ctx: Context, index: number, outcome: ToolOutcome): Written {
  const { words, language } = ctx;
  const label = ctx.labels.row;
  const { tool, result } = outcome;
  const args = outcome.arguments;
  const verb = verbOf(tool);
  const known = Object.hasOwn(words.done, verb);
  const done = known ? (words.done[verb] as string) : words.doneOther;
  const record = isRecord(result) ? result : null;
  const used = new Set<string>();
  const src = (field: string): { step: number; tool: string; row: null; id: JsonValue | null; field: string } => ({ step: index, tool, row: null, id: record?.['id'] ?? null, field });
  let headline: Written;
  const amount = args['amount'];
  const target = Object.keys(args).find((k) => thingNoun(k, language, undefined) !== null && (typeof args[k] === 'string' || typeof args[k] === 'number'));
  if ((typeof amount === 'string' || typeof amount === 'number') && target !== undefined) {
    const targetValue = shown(ctx, tool, target, args[target]);
    const fromResult = record !== null && shown(ctx, tool, target, record[target]) === targetValue;
    if (fromResult) used.add(target);
    headline = fillIn(verb === 'charge' ? words.amountTo : words.amountOn, {
      done,
      amount: shown(ctx, tool, 'amount', amount),
      target: written(`${thingNoun(target, language, label) ?? target} `, value(targetValue, fromResult ? src(target) : null)),
    });
  } else if (record !== null && record['id'] !== undefined && record['id'] !== null) {
    const name = ['name', 'title'].find((k) => typeof record[k] === 'string');
    used.add('id');
    if (name !== undefined) used.add(name);
    headline = written(`${done} ${rowsOf(ctx, tool, 1)} `, value(shown(ctx, tool, 'id', record['id']), src('id')), name === undefined ? '' : written(' "', value(shown(ctx, tool, name, record[name]), src(name)), '"'), '.');
  } else {
    const text = argumentText(ctx, tool, args);
    headline = written(`${done} ${known ? thingOf(tool) : fieldWords(tool)}${text === '' ? '' : ` (${text})`}.`);
  }
  if (record === null) return result === null ? headline : written(headline, '\n- result: ', value(shown(ctx, tool, 'result', result), src('result')));
  const lines = Object.keys(record)
    .filter((k) => !used.has(k))
    .map((k) => fieldLine(ctx, tool, k, record[k], src(k)));
  return join([headline, ...lines], '\n');
}

function fieldLine(ctx: Context, tool: string, key: string, v: JsonValue | undefined, source: ReturnType<typeof sourceOf> | { step: number; tool: string; row: null; id: JsonValue | null; field: string }): Written {
  const text = shown(ctx, tool, key, v);
  return written(`- ${fieldLabel(ctx, tool, key)}: `, value(isRecord(v) && Object.keys(v).length > 1 ? `(${text})` : text, v === null || v === undefined ? null : source));
}

/** Rows of a query page: how many, what they were filtered by, the rows, and how many more past the bound. */
function renderQuery(ctx: Context, index: number, outcome: ToolOutcome, rows: readonly JsonValue[], totalCount: JsonValue | undefined, hasMore: boolean): Written {
  const { words } = ctx;
  const total = typeof totalCount === 'number' && totalCount >= rows.length ? totalCount : rows.length;
  const filters = conditions(ctx, outcome.tool, outcome.arguments);
  if (rows.length === 0 && total === 0) {
    const noun = rowsOf(ctx, outcome.tool, 0);
    return written(filters === '' ? fill(words.noRows, { noun, args: '' }) : fill(words.noRowsWhere, { noun, filters }));
  }
  const header = fill(words.rows, { count: String(total), noun: rowsOf(ctx, outcome.tool, total), where: whereOf(ctx, outcome.tool, outcome.arguments) });
  const more = typeof totalCount !== 'number' && (hasMore || rows.length > MAX_ROWS) ? [words.moreUncounted] : moreLine(ctx, Math.min(rows.length, MAX_ROWS), total);
  return join([written(header), ...rowLines(ctx, index, outcome.tool, rows), ...more.map((m) => written(m))], '\n');
}

/** One attribute of the one row a name picked: "Unit price of Shaft: 38.00." (a related row by its title: "Material of Gear: Cobalt."). */
function renderAttribute(ctx: Context, index: number, outcome: ToolOutcome, row: JsonValue, asked: readonly string[]): Written {
  if (!isRecord(row)) return renderQuery(ctx, index, outcome, [row], 1, false);
  const tool = outcome.tool;
  const { title, identity } = namesOf(tool, [row]);
  const name = title === null ? value(shown(ctx, tool, identity ?? 'id', row[identity ?? 'id']), sourceOf(index, tool, 0, row, identity, identity ?? 'id')) : value(shown(ctx, tool, title, row[title]), sourceOf(index, tool, 0, row, identity, title));
  const sentences = asked.map((field) => {
    const raw = row[field];
    // A related row (`material: { id, name }`) is said by its title; its source is the related row's field.
    const related = isRecord(raw) ? (['name', 'title', 'label', 'code'].find((k) => raw[k] !== undefined) ?? null) : null;
    const shownValue = related !== null && isRecord(raw) ? shown(ctx, tool, related, raw[related]) : shown(ctx, tool, field, raw);
    const source = raw === null || raw === undefined ? null : { ...sourceOf(index, tool, 0, row, identity, related === null ? field : `${field}.${related}`) };
    return fillIn(ctx.words.attribute, { field: capitalize(fieldLabel(ctx, tool, field)), row: name, value: value(shownValue, source) });
  });
  return sentences.length === 0 ? EMPTY : join(sentences, '\n');
}

function moreLine(ctx: Context, shownRows: number, total: number): string[] {
  return total > shownRows ? [fill(ctx.words.more, { more: String(total - shownRows), total: String(total) })] : [];
}

/** Rows of any other tool: how many, the arguments they were read with, the rows. */
function renderList(ctx: Context, index: number, outcome: ToolOutcome, rows: readonly JsonValue[]): Written {
  const { words } = ctx;
  const text = argumentText(ctx, outcome.tool, outcome.arguments);
  const args = text === '' ? '' : ` (${text})`;
  if (rows.length === 0) return written(fill(words.noRows, { noun: rowsOf(ctx, outcome.tool, 0), args }));
  const header = fill(words.rows, { count: String(rows.length), noun: rowsOf(ctx, outcome.tool, rows.length), where: args });
  return join([written(header), ...rowLines(ctx, index, outcome.tool, rows), ...moreLine(ctx, Math.min(rows.length, MAX_ROWS), rows.length).map((m) => written(m))], '\n');
}

/** "Am I free …": the period when nothing overlaps it, else the events that do. */
function renderAvailability(ctx: Context, index: number, outcome: ToolOutcome, events: readonly JsonValue[]): Written {
  const args = outcome.arguments;
  const fromKey = 'time_min' in args ? 'time_min' : (Object.keys(args)[0] ?? 'time_min');
  const toKey = 'time_max' in args ? 'time_max' : (Object.keys(args)[1] ?? 'time_max');
  const from = shown(ctx, outcome.tool, fromKey, args[fromKey]);
  const to = shown(ctx, outcome.tool, toKey, args[toKey]);
  if (events.length === 0) return written(fill(ctx.words.free, { from, to }));
  const header = fill(ctx.words.busy, { from, to, count: String(events.length), noun: rowsOf(ctx, outcome.tool, events.length) });
  return join([written(header), ...rowLines(ctx, index, outcome.tool, events), ...moreLine(ctx, Math.min(events.length, MAX_ROWS), events.length).map((m) => written(m))], '\n');
}

/** Where `words` stand as whole words in `text` (no letter or digit on either side), or -1. */
function wordAt(text: string, words: string): number {
  if (words.length === 0) return -1;
  for (let at = text.indexOf(words); at >= 0; at = text.indexOf(words, at + 1)) {
    const before = at === 0 ? '' : text.charAt(at - 1);
    const after = text.charAt(at + words.length);
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return at;
  }
  return -1;
}

/** Folds accents and case so that a field's words can be found in the turn. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** One record as "field: value" lines under its type and identity, led by the field the turn asks about. */
function renderRecord(ctx: Context, index: number, step: PlanItem | undefined, outcome: ToolOutcome, record: Readonly<Record<string, JsonValue>>): Written {
  const tool = outcome.tool;
  const thing = thingOf(tool).replace(/ /g, '_');
  const keys = Object.keys(record);
  const identity = keys.find((k) => k === 'id') ?? keys.find((k) => k === `${thing}_id`) ?? keys.find((k) => k === `${thing}_number`);
  const noun = capitalize(rowsOf(ctx, tool, 1));
  const src = (field: string): { step: number; tool: string; row: null; id: JsonValue | null; field: string } => ({ step: index, tool, row: null, id: identity === undefined ? null : (record[identity] ?? null), field });
  const title = identity === undefined ? written(noun) : written(`${noun} `, value(shown(ctx, tool, identity, record[identity]), src(identity)));
  const turn = fold(`${step?.text ?? ''} ${ctx.plan.turn}`);
  let lead: { key: string; at: number } | null = null;
  for (const key of keys) {
    if (key === identity) continue;
    for (const w of new Set([fieldWords(key), fieldLabel(ctx, tool, key)].map(fold))) {
      const at = wordAt(turn, w);
      if (at >= 0 && (lead === null || at < lead.at)) lead = { key, at };
    }
  }
  const heading = lead === null ? written(title, ':') : written(title, ` — ${fieldLabel(ctx, tool, lead.key)}: `, value(shown(ctx, tool, lead.key, record[lead.key]), src(lead.key)));
  return join([heading, ...keys.map((k) => fieldLine(ctx, tool, k, record[k], src(k)))], '\n');
}
