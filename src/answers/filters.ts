/**
 * What a read was filtered by, in words: `{ material__name: 'Steel', density__gt: 5 }` → "material name is Steel,
 * density above 5"; a date bound reads "due before Dec 5, 2026"; a yes/no field "done" / "not done".
 */
import type { JsonObject, JsonValue } from '../core/index.js';
import type { Context } from './context.js';
import { fieldLabel, isList, isRecord } from './labels.js';
import { shown } from './values.js';
import { fill } from './words.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T|$)/;

function describeFilters(ctx: Context, tool: string, filters: JsonValue | undefined, excluded: boolean): string[] {
  if (!isRecord(filters)) return [];
  const words = ctx.words;
  return Object.keys(filters).map((key) => {
    const parts = key.split('__');
    const last = parts[parts.length - 1] as string;
    const operator = parts.length > 1 && Object.hasOwn(words.operators, last) ? (words.operators[last] as string) : null;
    const path = (operator === null ? parts : parts.slice(0, -1)).join('__');
    const field = parts.length > 1 || operator === null ? (operator === null ? parts : parts.slice(0, -1)).at(-1) ?? path : path;
    const value = filters[key];
    const label = fieldLabel(ctx, tool, path);
    const equality = operator === null || last === 'exact' || last === 'iexact';
    if (typeof value === 'boolean' && equality) return fill(value !== excluded ? words.yesField : words.notField, { field: label });
    if (typeof value === 'boolean' && last === 'isnull') return fill(value !== excluded ? words.emptyField : words.setField, { field: label });
    const written = isList(value) ? value.map((v) => shown(ctx, tool, field, v)).join(', ') : shown(ctx, tool, field, value);
    // An excluded value is "is not" it ("material name is not Steel"); another excluded bound says so.
    if (excluded && equality) return `${label} ${words.operators['ne'] ?? ''} ${written}`;
    const dated = typeof value === 'string' && ISO_DATE.test(value) && Object.hasOwn(words.dateOperators, last) ? words.dateOperators[last] : undefined;
    // Portuguese equality is the value after its field ("com status pending"): no operator word at all.
    const text = [label, dated ?? operator ?? words.operators['exact'] ?? '', written].filter((part) => part !== '').join(' ');
    return excluded ? `${words.excluding} ${text}` : text;
  });
}

/** The conditions of a query call's arguments (filters, then exclusions), or '' when it has none. */
export function conditions(ctx: Context, tool: string, args: JsonObject): string {
  return [...describeFilters(ctx, tool, args['filters'], false), ...describeFilters(ctx, tool, args['exclude'], true)].join(', ');
}

/** The conditions after a noun: " where material name is Steel", " where material name is not Steel", or "". */
export function whereOf(ctx: Context, tool: string, args: JsonObject): string {
  const text = conditions(ctx, tool, args);
  return text === '' ? '' : ` ${ctx.words.where} ${text}`;
}
