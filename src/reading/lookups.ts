/** Finding the filter a word means on a subject: the shortest lookup path to a field, its type, its value. */
import type { JsonValue } from '../core/index.js';
import type { ReadLookup, ReadSpec } from '../router/index.js';
import type { ReadTarget } from './meanings.js';

/** The subject's one shortest lookup reaching `manager.field`; two when two are equally short (an ambiguity). */
export function lookupFor(target: ReadTarget, manager: string, field: string): ReadLookup[] {
  const candidates = target.spec.lookups.filter((l) => l.manager === manager && l.field === field);
  if (candidates.length === 0) return [];
  const shortest = Math.min(...candidates.map((l) => l.through.length));
  const best = candidates.filter((l) => l.through.length === shortest);
  return best.length === 1 ? best : [best[0] as ReadLookup, best[1] as ReadLookup];
}

/** The one lookup nearest the subject, or null when none or two as near. */
export function nearestOf(lookups: readonly ReadLookup[]): ReadLookup | null {
  if (lookups.length === 0) return null;
  const nearest = Math.min(...lookups.map((l) => l.through.length));
  const best = lookups.filter((l) => l.through.length === nearest);
  return best.length === 1 ? (best[0] as ReadLookup) : null;
}

/** The managers a lookup walks through, the field's owner included. */
export function pathManagers(spec: ReadSpec, lookup: ReadLookup): string[] {
  const out = [lookup.manager];
  for (let i = 1; i < lookup.through.length; i++) {
    const prefix = lookup.through.slice(0, i);
    const hop = spec.lookups.find((l) => l.through.length === i && prefix.every((r, k) => l.through[k] === r));
    if (hop !== undefined) out.push(hop.manager);
  }
  return out;
}

/** A value as its field takes it: booleans `true`/`false`, numbers for numeric fields, the canonical string otherwise. */
export function typedValue(lookup: ReadLookup, value: string): JsonValue | null {
  switch (lookup.type) {
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : null;
    case 'integer': case 'float': case 'decimal': {
      const n = Number(value);
      return Number.isFinite(n) ? n : null;
    }
    default:
      return value;
  }
}

export const NUMERIC = new Set(['integer', 'decimal', 'float']);
export const DATED = new Set(['date', 'datetime']);

/** Whether `manager.field` is a number field of its own manager's read. */
export function isNumberField(reads: { readonly targets: ReadonlyMap<string, ReadTarget> }, manager: string, field: string): boolean {
  return reads.targets.get(manager)?.spec.lookups.some((l) => l.through.length === 0 && l.field === field && NUMERIC.has(l.type)) === true;
}

/** The subject's own fields of some types, by name (its lookups with no relation walked). */
export function ownFields(target: ReadTarget, types: ReadonlySet<string>): ReadLookup[] {
  return target.spec.lookups.filter((l) => l.through.length === 0 && types.has(l.type) && !isIdentity(l.field));
}

/** An id or a foreign key: never what a ranking or a total is over. */
export function isIdentity(field: string): boolean {
  return field === 'id' || /(?:^|_)id$|[a-z]Id$/.test(field);
}

/** The lookup of a relation walked once from the subject to `manager`; null when none or several. */
export function relationTo(target: ReadTarget, manager: string): string | null {
  const relations = new Set(target.spec.lookups.filter((l) => l.through.length === 1 && l.manager === manager).map((l) => l.through[0] as string));
  return relations.size === 1 ? ([...relations][0] as string) : null;
}

/** A filter key without its operator: `material__name__in` → `material__name`. */
export function baseKey(key: string): string {
  return key.replace(/__(?:in|gt|gte|lt|lte|exact|iexact|contains|icontains|startswith|isnull)$/, '');
}
