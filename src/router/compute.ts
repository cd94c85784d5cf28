/** Running a plan's compute step over the results of the read steps it depends on, in decimal arithmetic. */
import { Decimal } from 'decimal.js';
import type { JsonValue } from '../core/index.js';
import type { PlanItem } from './types.js';

export type ComputeResult = { readonly value: string } | { readonly error: string };

/**
 * `results[i]` is step i's result. Each result (or each item of an array result) gives the step's
 * field: the named one, else the one numeric field it has. count counts the results' items; a
 * query-shaped result (`{ data, total_count }`) counts as `total_count` and the others go over `data`.
 */
export function runCompute(step: PlanItem, results: readonly JsonValue[]): ComputeResult {
  if (step.kind !== 'compute' || step.compute === null) return { error: 'not a compute step' };
  const { operation, field } = step.compute;
  const items: JsonValue[] = [];
  let counted = 0;
  for (const index of step.dependsOn) {
    const result = results[index];
    if (result === undefined) return { error: `no result for step ${index}` };
    const page = queryPage(result);
    if (page !== null) {
      // A query-shaped result ({ data, total_count }) counts as its total; other operations go over its rows.
      items.push(...page.data);
      counted += page.total;
    } else if (Array.isArray(result)) {
      items.push(...(result as JsonValue[]));
      counted += result.length;
    } else {
      items.push(result);
      counted += 1;
    }
  }
  if (operation === 'count') return { value: String(counted) };
  const numbers: Decimal[] = [];
  for (const item of items) {
    const number = numberOf(item, field);
    if (number === null) return { error: `a result has no number${field === null ? '' : ` '${field}'`}` };
    numbers.push(number);
  }
  if (numbers.length === 0) return { error: 'no results to compute over' };
  const first = numbers[0] as Decimal;
  const second = numbers[1];
  switch (operation) {
    case 'sum': return { value: Decimal.sum(...numbers).toString() };
    case 'average': return { value: Decimal.sum(...numbers).div(numbers.length).toDecimalPlaces(10).toString() };
    case 'minimum': return { value: Decimal.min(...numbers).toString() };
    case 'maximum': return { value: Decimal.max(...numbers).toString() };
    case 'difference': return second === undefined ? { error: 'a difference needs two values' } : { value: first.minus(second).toString() };
    case 'ratio': return second === undefined || second.isZero() ? { error: 'a ratio needs a second, non-zero value' } : { value: first.div(second).toDecimalPlaces(10).toString() };
    case 'percentage': return second === undefined || second.isZero() ? { error: 'a percentage needs a second, non-zero value' } : { value: first.div(second).times(100).toDecimalPlaces(4).toString() };
  }
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
