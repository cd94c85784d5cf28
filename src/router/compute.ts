/** Running a plan's compute step over the results of the read steps it depends on, in decimal arithmetic. */
import { Decimal } from 'decimal.js';
import type { JsonValue } from '../core/index.js';
import type { PlanItem } from './types.js';

/** A row a value came from: `row` of step `step`'s result (its `data` page, or the list itself). */
export interface PickedRow {
  readonly step: number;
  readonly row: number;
}

export type ComputeResult = { readonly value: string; readonly picked?: readonly PickedRow[] } | { readonly error: string };

interface Item {
  readonly value: JsonValue;
  readonly from: PickedRow;
}

/**
 * `results[i]` is step i's result. Each result (or each item of an array result) gives the step's
 * field: the named one, else the one numeric field it has. count counts the results' items; a
 * query-shaped result (`{ data, total_count }`) counts as `total_count` and the others go over `data`
 * — and refuse a page that holds fewer rows than the total, since a sum or a ranking over part of the
 * rows would be wrong. `exists` says whether any row is there; `top` and `bottom` pick the `rows`
 * rows with the highest or lowest field (a list field: its distinct rows; ties with the last one kept), and `minimum` and `maximum`
 * the rows that have the value.
 */
export function runCompute(step: PlanItem, results: readonly JsonValue[]): ComputeResult {
  if (step.kind !== 'compute' || step.compute === null) return { error: 'not a compute step' };
  const { operation, field } = step.compute;
  const items: Item[] = [];
  let counted = 0;
  let partial: string | null = null;
  for (const index of step.dependsOn) {
    const result = results[index];
    if (result === undefined) return { error: `no result for step ${index}` };
    const page = queryPage(result);
    if (page !== null) {
      // A query-shaped result ({ data, total_count }) counts as its total; other operations go over its rows.
      page.data.forEach((value, row) => items.push({ value, from: { step: index, row } }));
      counted += page.total;
      if (page.total > page.data.length) partial = `the read holds ${page.data.length} of ${page.total} rows`;
    } else if (Array.isArray(result)) {
      (result as JsonValue[]).forEach((value, row) => items.push({ value, from: { step: index, row } }));
      counted += result.length;
    } else {
      items.push({ value: result, from: { step: index, row: 0 } });
      counted += 1;
    }
  }
  if (operation === 'count') return { value: String(counted) };
  if (operation === 'exists') return { value: counted > 0 ? 'true' : 'false' };
  if (partial !== null) return { error: `${partial}: a ${operation} over part of them would be wrong` };
  if (operation === 'top' || operation === 'bottom') return rank(items, field, operation, step.compute.rows ?? 1);
  const numbers: { number: Decimal; from: PickedRow }[] = [];
  for (const item of items) {
    const number = numberOf(item.value, field);
    if (number === null) return { error: `a result has no number${field === null ? '' : ` '${field}'`}` };
    numbers.push({ number, from: item.from });
  }
  if (numbers.length === 0) return { error: 'no results to compute over' };
  const values = numbers.map((n) => n.number);
  const first = values[0] as Decimal;
  const second = values[1];
  const having = (extreme: Decimal): PickedRow[] => numbers.filter((n) => n.number.equals(extreme)).map((n) => n.from);
  switch (operation) {
    case 'sum': return { value: Decimal.sum(...values).toString() };
    case 'average': return { value: Decimal.sum(...values).div(values.length).toDecimalPlaces(10).toString() };
    case 'minimum': {
      const min = Decimal.min(...values);
      return { value: min.toString(), picked: having(min) };
    }
    case 'maximum': {
      const max = Decimal.max(...values);
      return { value: max.toString(), picked: having(max) };
    }
    case 'difference': return second === undefined ? { error: 'a difference needs two values' } : { value: first.minus(second).toString() };
    case 'ratio': return second === undefined || second.isZero() ? { error: 'a ratio needs a second, non-zero value' } : { value: first.div(second).toDecimalPlaces(10).toString() };
    case 'percentage': return second === undefined || second.isZero() ? { error: 'a percentage needs a second, non-zero value' } : { value: first.div(second).times(100).toDecimalPlaces(4).toString() };
  }
}

/** The `rows` rows with the highest (top) or lowest (bottom) field, ties with the last kept; rows without it are left out. */
function rank(items: readonly Item[], field: string | null, direction: 'top' | 'bottom', rows: number): ComputeResult {
  if (field === null) return { error: 'a ranking needs a field' };
  const keyed = items.flatMap((item) => {
    const key = sortKeyOf(item.value, field);
    return key === null ? [] : [{ key, from: item.from }];
  });
  if (keyed.length === 0) return { error: items.length === 0 ? 'no rows to rank' : `no row has '${field}'` };
  const sign = direction === 'top' ? -1 : 1;
  keyed.sort((a, b) => sign * compareKeys(a.key, b.key) || a.from.step - b.from.step || a.from.row - b.from.row);
  const last = keyed[Math.min(rows, keyed.length) - 1] as (typeof keyed)[number];
  const picked = keyed.filter((k, i) => i < rows || compareKeys(k.key, last.key) === 0);
  return { value: shown(last.key), picked: picked.map((k) => k.from) };
}

type SortKey = Decimal | string;

/**
 * How many related rows a list holds: distinct ones, leaving out empty links — through a join
 * manager ("the most actors" over roles) one actor with two roles counts once.
 */
export function relatedCount(list: readonly JsonValue[]): number {
  const links = list.filter((item) => !(typeof item === 'object' && item !== null && !Array.isArray(item) && Object.values(item).every((v) => v === null)));
  return new Set(links.map((item) => JSON.stringify(item))).size;
}

function sortKeyOf(item: JsonValue, field: string): SortKey | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const record = item as Record<string, JsonValue>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === field.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  // A list of related rows ranks by how many there are ("the most performances").
  if (Array.isArray(value)) return new Decimal(relatedCount(value));
  if (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value))) return new Decimal(value);
  // Dates and date-times sort as written (ISO 8601 in UTC or one offset).
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  return null;
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (a instanceof Decimal && b instanceof Decimal) return a.comparedTo(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function shown(key: SortKey): string {
  return key instanceof Decimal ? key.toString() : key;
}

function queryPage(result: JsonValue): { data: JsonValue[]; total: number } | null {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  const record = result as Record<string, JsonValue>;
  const data = record['data'];
  const total = record['total_count'];
  if (!Array.isArray(data) || typeof total !== 'number' || !Number.isInteger(total) || total < 0) return null;
  return { data: data as JsonValue[], total };
}

function numberOf(item: JsonValue, field: string | null): Decimal | null {
  const read = (value: JsonValue | undefined): Decimal | null => {
    if (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value))) return new Decimal(value);
    return null;
  };
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return read(item as JsonValue);
  const record = item as Record<string, JsonValue>;
  if (field !== null) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === field.toLowerCase() || k.toLowerCase() === field.toLowerCase().replace(/s$/, ''));
    if (key !== undefined) return read(record[key]);
  }
  const numeric = Object.values(record).map(read).filter((d): d is Decimal => d !== null);
  return numeric.length === 1 ? (numeric[0] as Decimal) : null;
}
