/**
 * "the next class", "the last repair", "a próxima aula", "o último reparo": a ranking on a date field
 * bounded by the turn's clock — the earliest date from now on, the latest up to now. Without a clock,
 * nothing is read.
 */
import type { JsonValue } from '../core/index.js';
import type { Resolved } from './resolve.js';

export type When = 'past' | 'future';

/** The resolved read with its ranking field bounded by now; null without a clock or with the bound already set. */
export function boundedByNow(resolved: Resolved, when: When, now: string | null): Resolved | null {
  const form = resolved.form;
  if (form?.kind !== 'rank' || now === null) return null;
  const lookup = resolved.target.spec.lookups.find((l) => l.through.length === 0 && l.field === form.field);
  if (lookup === undefined || (lookup.type !== 'date' && lookup.type !== 'datetime')) return null;
  const key = `${lookup.key}__${when === 'past' ? 'lte' : 'gte'}`;
  if (key in resolved.filters) return null;
  const at: JsonValue = lookup.type === 'date' ? now.slice(0, 10) : now.replace(/[Zz]$/, '+00:00');
  return { ...resolved, filters: { ...resolved.filters, [key]: at } };
}
