/** Writing a result's values exactly as the result has them: strings as they are, numbers as JSON writes them, nested values compactly. */
import type { JsonValue } from '../../core/index.js';

/** Longest a single value may run in an answer before it is cut. */
export const MAX_VALUE_CHARS = 300;
/** Items of a nested list (order lines, payments) written before "…". */
export const MAX_NESTED_ITEMS = 10;

export function isRecord(value: unknown): value is Readonly<Record<string, JsonValue>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isList(value: unknown): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/** A value on one line: null as "—", an object as "key: value, …" (a one-key object as its value), a list as "a; b". */
export function compact(value: JsonValue | undefined, depth = 0): string {
  return cut(write(value, depth));
}

function write(value: JsonValue | undefined, depth: number): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isList(value)) {
    if (value.length === 0) return '—';
    const shown = value.slice(0, MAX_NESTED_ITEMS).map((item) => (isRecord(item) && Object.keys(item).length > 1 && value.length > 1 ? `(${write(item, depth + 1)})` : write(item, depth + 1)));
    return value.length > MAX_NESTED_ITEMS ? `${shown.join('; ')}; …` : shown.join('; ');
  }
  const record: Readonly<Record<string, JsonValue>> = value;
  const keys = Object.keys(record);
  if (keys.length === 0) return '—';
  if (keys.length === 1) return write(record[keys[0] as string], depth + 1);
  if (depth > 3) return '…';
  return keys.map((k) => `${k}: ${nested(record[k], depth + 1)}`).join(', ');
}

function nested(value: JsonValue | undefined, depth: number): string {
  const text = write(value, depth);
  return isRecord(value) && Object.keys(value).length > 1 ? `(${text})` : text;
}

function cut(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** One "field: value" line of a record; a nested record goes in parentheses. */
export function fieldLine(key: string, value: JsonValue | undefined): string {
  const text = compact(value);
  return `- ${key}: ${isRecord(value) && Object.keys(value).length > 1 ? `(${text})` : text}`;
}

/** A value inside a Markdown table cell: on one line, with pipes escaped. */
export function cell(value: JsonValue | undefined): string {
  return compact(value).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** A field name as words: 'material__name' → 'material name', 'unit_price' and 'unitPrice' → 'unit price'. */
export function fieldWords(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`)
    .replace(/_+/g, ' ')
    .trim();
}

/** The start of a range before its end ('time_min' before 'time_max'), other keys first, each group as given. */
export function rangeOrder(keys: readonly string[]): string[] {
  const rank = (key: string): number => (/(^|_)(min|start|from|begin|after)$/i.test(key) ? 1 : /(^|_)(max|end|to|until|before)$/i.test(key) ? 2 : 0);
  return keys.map((key, i) => ({ key, i, r: rank(key) })).sort((a, b) => a.r - b.r || a.i - b.i).map((k) => k.key);
}
