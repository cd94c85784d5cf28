/** Writing a result's values for the person: formatted for the locale, nested values compactly, each bounded in length. */
import type { JsonValue } from '../core/index.js';
import type { Context } from './context.js';
import { fieldLabel, isList, isRecord, scalarText } from './labels.js';

/** Longest a single value may run in an answer before it is cut. */
export const MAX_VALUE_CHARS = 300;
/** Items of a nested list (order lines, payments) written before "…". */
export const MAX_NESTED_ITEMS = 10;

/** A value on one line: null as "—", a record as "label: value, …" (a one-key record as its value), a list as "a; b". */
export function shown(ctx: Context, tool: string, field: string, value: JsonValue | undefined): string {
  return cut(write(ctx, tool, field, value, 0));
}

function write(ctx: Context, tool: string, field: string, value: JsonValue | undefined, depth: number): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return scalarText(ctx, tool, field, value);
  if (isList(value)) {
    if (value.length === 0) return '—';
    const items = value.slice(0, MAX_NESTED_ITEMS).map((item) => (isRecord(item) && Object.keys(item).length > 1 && value.length > 1 ? `(${write(ctx, tool, field, item, depth + 1)})` : write(ctx, tool, field, item, depth + 1)));
    return value.length > MAX_NESTED_ITEMS ? `${items.join('; ')}; …` : items.join('; ');
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '—';
  if (keys.length === 1) return write(ctx, tool, keys[0] as string, value[keys[0] as string], depth + 1);
  if (depth > 3) return '…';
  return keys
    .map((k) => {
      const text = write(ctx, tool, k, value[k], depth + 1);
      const inner = value[k];
      return `${fieldLabel(ctx, tool, k)}: ${isRecord(inner) && Object.keys(inner).length > 1 ? `(${text})` : text}`;
    })
    .join(', ');
}

function cut(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** A value inside a Markdown table cell: on one line, with pipes escaped. */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** The start of a range before its end ('time_min' before 'time_max'), other keys first, each group as given. */
export function rangeOrder(keys: readonly string[]): string[] {
  const rank = (key: string): number => (/(^|_)(min|start|from|begin|after)$/i.test(key) ? 1 : /(^|_)(max|end|to|until|before)$/i.test(key) ? 2 : 0);
  return keys.map((key, i) => ({ key, i, r: rank(key) })).sort((a, b) => a.r - b.r || a.i - b.i).map((k) => k.key);
}
