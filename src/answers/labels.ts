/** Field names, values and row types in the answer's language: the host's labels first, else names in words. */
import type { JsonValue } from '../core/index.js';
import type { Context } from './context.js';
import { formatScalar } from './locale.js';
import { rowNoun } from './nouns.js';

/** A field name as words: 'material__name' → 'material name', 'unit_price' and 'unitPrice' → 'unit price'. */
export function fieldWords(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`)
    .replace(/_+/g, ' ')
    .trim();
}

/** A field of a tool's results in the answer's language. */
export function fieldLabel(ctx: Context, tool: string, field: string): string {
  return ctx.labels.field?.(tool, field, ctx.language) ?? fieldWords(field);
}

export function rowsOf(ctx: Context, tool: string, count: number): string {
  return rowNoun(tool, ctx.language, count, ctx.labels.row);
}

/** A scalar of a field as the person reads it: the host's word for an enum or yes/no value, else formatted for the locale. */
export function scalarText(ctx: Context, tool: string, field: string, value: string | number | boolean): string {
  if (typeof value !== 'number') {
    const word = ctx.labels.value?.(tool, field, String(value), ctx.language) ?? null;
    if (word !== null) return word;
  }
  return formatScalar(value, field, ctx.language);
}

export function isRecord(value: unknown): value is Readonly<Record<string, JsonValue>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isList(value: unknown): value is readonly JsonValue[] {
  return Array.isArray(value);
}
