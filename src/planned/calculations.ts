import { Decimal } from 'decimal.js';
import type { JsonValue } from '../core/index.js';
import type { EvidenceRecord, EvidenceStore } from './evidence.js';
import type { CalculationOperation, Operand } from './plan.js';

/** Why a calculation could not run; the task stays unresolved with it. */
export class CalculationError extends Error {
  override readonly name = 'CalculationError';
}

/** A decimal's text, without trailing zeros after the point ("12.50" → "12.5", "3.000" → "3"). */
function text(value: Decimal): string {
  return value.toDecimalPlaces(10).toFixed().replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

function asDecimal(value: JsonValue | undefined): Decimal | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Decimal(value);
  if (typeof value === 'string' && /^[+-]?\d+(\.\d+)?$/.test(value.trim())) return new Decimal(value.trim());
  return undefined;
}

/**
 * The values at a path in a row: each segment a field of an object, or an index of a list; a list
 * met without an index gives the values of each of its items (`lines.unitPrice`).
 */
function valuesAt(value: JsonValue | undefined, path: readonly string[]): JsonValue[] {
  if (value === undefined) return [];
  const list: readonly JsonValue[] | undefined = Array.isArray(value) ? (value as readonly JsonValue[]) : undefined;
  if (path.length === 0) return list === undefined ? [value] : [...list];
  const [head, ...rest] = path as [string, ...string[]];
  if (list !== undefined) return /^\d+$/.test(head) ? valuesAt(list[Number(head)], rest) : list.flatMap((item) => valuesAt(item, path));
  if (value === null || typeof value !== 'object') return [];
  return valuesAt(Object.hasOwn(value, head) ? (value as Readonly<Record<string, JsonValue>>)[head] : undefined, rest);
}

/** The values an operand stands for: a calculation's value, or the values at the path in the rows its task read. */
function valuesOf(operand: Operand, store: EvidenceStore): { values: Decimal[]; rows: number } {
  const records = store.forTask(operand.task);
  const computed = records.find((record) => record.kind === 'calculation');
  if (computed?.value !== undefined) return { values: [new Decimal(computed.value)], rows: 1 };
  const rows = records.filter((record: EvidenceRecord) => record.kind === 'query').flatMap((record) => record.rows);
  if (operand.field === undefined) return { values: [], rows: rows.length };
  const path = operand.field.split('.');
  const values = rows.flatMap((row) => valuesAt(row, path)).map(asDecimal).filter((found) => found !== undefined);
  return { values, rows: rows.length };
}

function single(operand: Operand, store: EvidenceStore): Decimal {
  const { values } = valuesOf(operand, store);
  if (values.length !== 1) throw new CalculationError(`task '${operand.task}'${operand.field === undefined ? '' : ` field '${operand.field}'`} holds ${values.length} values, and this operation takes one`);
  return values[0]!;
}

/**
 * One of the calculations a plan may ask for, over the evidence by id, in decimal arithmetic: never
 * a model's arithmetic. Returns the value as an exact decimal string.
 */
export function calculate(operation: CalculationOperation, operands: readonly Operand[], store: EvidenceStore): string {
  const [first, second] = operands;
  if (first === undefined) throw new CalculationError('no operand');
  if (operation === 'count') {
    const { values, rows } = valuesOf(first, store);
    return String(first.field === undefined ? rows : values.length);
  }
  if (operation === 'sum' || operation === 'average' || operation === 'minimum' || operation === 'maximum') {
    const { values } = valuesOf(first, store);
    if (values.length === 0) throw new CalculationError(`task '${first.task}' holds no numeric '${first.field ?? ''}' values`);
    if (operation === 'sum') return text(Decimal.sum(...values));
    if (operation === 'average') return text(Decimal.sum(...values).dividedBy(values.length));
    return text(operation === 'minimum' ? Decimal.min(...values) : Decimal.max(...values));
  }
  if (second === undefined) throw new CalculationError(`${operation} takes two operands`);
  const a = single(first, store);
  const b = single(second, store);
  if (operation === 'difference') return text(a.minus(b));
  if (b.isZero()) throw new CalculationError(`${operation} by zero`);
  return text(operation === 'ratio' ? a.dividedBy(b) : a.dividedBy(b).times(100));
}
