/**
 * Text written with the sources of its values: each value slotted into a sentence, a list or a table
 * carries the row and field it came from, and its offsets in the final answer follow it through every
 * join. Immutable values and plain functions.
 */
import type { JsonValue } from '../core/index.js';

/** Where a value of an answer came from. */
export interface Source {
  /** The plan step whose result holds it (a compute step for a computed value). */
  readonly step: number;
  readonly tool: string | null;
  /** The row of the step's result (its `data` page, or its list); null for a record, a scalar or a computed value. */
  readonly row: number | null;
  /** The row's identity (`id`, or the record's own identity field) where it has one. */
  readonly id: JsonValue | null;
  /** The field of the row (`unitPrice`, `material.name`); `value` for a computed value. */
  readonly field: string;
  /** For a computed value: the rows it was computed over (a ranking's: the rows it picked). */
  readonly from?: readonly { readonly step: number; readonly row: number }[];
}

/** A value's source with its offsets in the answer text (UTF-16 code units, end exclusive). */
export interface ValueSource extends Source {
  readonly start: number;
  readonly end: number;
}

export interface Written {
  readonly text: string;
  readonly sources: readonly ValueSource[];
}

/** A piece of a sentence: plain words, a value with its source, or text already written. */
export type Piece = string | Written;

export const EMPTY: Written = { text: '', sources: [] };

/** A value as shown, with where it came from (null: a value of the plan, such as an argument). */
export function value(text: string, source: Source | null): Written {
  return source === null || text.length === 0 ? { text, sources: [] } : { text, sources: [{ ...source, start: 0, end: text.length }] };
}

export function written(...pieces: readonly Piece[]): Written {
  let text = '';
  const sources: ValueSource[] = [];
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      text += piece;
      continue;
    }
    for (const s of piece.sources) sources.push({ ...s, start: s.start + text.length, end: s.end + text.length });
    text += piece.text;
  }
  return { text, sources };
}

export function join(parts: readonly Written[], separator: string): Written {
  const pieces: Piece[] = [];
  parts.forEach((part, i) => {
    if (i > 0) pieces.push(separator);
    pieces.push(part);
  });
  return written(...pieces);
}

/** Fills `{name}` slots of a template with plain words or written values; a slot with nothing for it stays as written. */
export function fillIn(template: string, slots: Readonly<Record<string, Piece>>): Written {
  const pieces: Piece[] = [];
  let at = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    pieces.push(template.slice(at, m.index));
    const slot = Object.hasOwn(slots, m[1] as string) ? slots[m[1] as string] : undefined;
    pieces.push(slot ?? m[0]);
    at = m.index + m[0].length;
  }
  pieces.push(template.slice(at));
  return written(...pieces);
}

/** Joins items as people write lists: `a`, `a and b`, `a, b and c`. */
export function listOf(items: readonly Written[], and: string): Written {
  if (items.length <= 1) return items[0] ?? EMPTY;
  return written(join(items.slice(0, -1), ', '), ` ${and} `, items[items.length - 1] as Written);
}

/** The text cut to `limit` characters, keeping only the sources that end within it. */
export function cutTo(w: Written, limit: number, note: string): Written {
  if (w.text.length <= limit) return w;
  const room = limit - note.length - 1;
  const head = w.text.slice(0, room);
  const line = head.lastIndexOf('\n');
  const text = line > 0 ? head.slice(0, line) : head;
  return { text: `${text}\n${note}`, sources: w.sources.filter((s) => s.end <= text.length) };
}
