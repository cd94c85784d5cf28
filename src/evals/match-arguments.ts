/**
 * Whether a call's arguments satisfy what a dataset expects. Each expected key must match the
 * call's value; keys the dataset does not give are free (the fields a read selects, a limit).
 *
 * Values match when equal, with four readings a person would also accept: numbers and numeric
 * strings compare as numbers ("5" and 5); two RFC 3339 date-times compare as instants
 * ("…T12:00:00Z" and "…T12:00:00+00:00"); `filters` and `exclude` compare as whole lookup maps
 * (absent is the empty map), their keys in snake case with `__exact` dropped, and an `__iexact`
 * lookup matches its value without regard to case; arrays match element by element.
 */
export function argumentsMatch(expected: Readonly<Record<string, unknown>>, actual: unknown): boolean {
  const given = isRecord(actual) ? actual : {};
  for (const [key, want] of Object.entries(expected)) {
    if (key === 'filters' || key === 'exclude') {
      if (!lookupsMatch(want, given[key])) return false;
    } else if (!Object.hasOwn(given, key) || !valuesMatch(want, given[key])) return false;
  }
  return true;
}

function lookupsMatch(want: unknown, got: unknown): boolean {
  const expected = normalizeLookups(want);
  const actual = normalizeLookups(got);
  if (expected === null || actual === null) return false;
  if (expected.size !== actual.size) return false;
  for (const [key, entry] of expected) {
    const other = actual.get(key);
    if (other === undefined) return false;
    const caseless = entry.caseless || other.caseless;
    if (caseless ? !valuesMatch(fold(entry.value), fold(other.value)) : !valuesMatch(entry.value, other.value)) return false;
  }
  return true;
}

interface Lookup {
  readonly value: unknown;
  readonly caseless: boolean;
}

function normalizeLookups(value: unknown): Map<string, Lookup> | null {
  if (value === undefined || value === null) return new Map();
  if (!isRecord(value)) return null;
  const out = new Map<string, Lookup>();
  for (const [raw, item] of Object.entries(value)) {
    const parts = raw.split('__').map(snake);
    const last = parts[parts.length - 1];
    const caseless = last === 'iexact';
    if (last === 'exact' || last === 'iexact') parts.pop();
    out.set(parts.join('__'), { value: item, caseless });
  }
  return out;
}

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function fold(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map(fold);
  return value;
}

const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const numeric = /^-?\d+(\.\d+)?$/;

export function valuesMatch(want: unknown, got: unknown): boolean {
  if (Array.isArray(want)) return Array.isArray(got) && want.length === got.length && want.every((item, i) => valuesMatch(item, got[i]));
  if (isRecord(want)) {
    if (!isRecord(got)) return false;
    const keys = Object.keys(want);
    return keys.length === Object.keys(got).length && keys.every((key) => Object.hasOwn(got, key) && valuesMatch(want[key], got[key]));
  }
  if (typeof want === 'number' || (typeof want === 'string' && numeric.test(want))) {
    if (typeof got === 'number' || (typeof got === 'string' && numeric.test(got))) {
      // "40.00" and "40" are one amount; a string that must keep its form ("4411") still equals itself.
      return Number(want) === Number(got);
    }
    return false;
  }
  if (typeof want === 'string' && typeof got === 'string' && dateTime.test(want) && dateTime.test(got)) {
    return Date.parse(want) === Date.parse(got);
  }
  return want === got;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
