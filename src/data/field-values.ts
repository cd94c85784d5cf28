import type { FieldType } from './definition-types.js';

/**
 * Conversion between row JSON (what GraphQL, tools and `load` speak) and stored SQL values.
 * Decimals are scaled integers (exact); booleans 0/1; dates `YYYY-MM-DD`; datetimes RFC 3339 in
 * UTC with milliseconds (so text order is time order); json as its JSON text.
 */

/** Why a value was refused; callers wrap it into a PlumbError that names the field. */
export class ValueProblem extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ValueProblem';
  }
}

export interface ValueShape {
  /** A field's type, or a key: `id` (an integer id), `key` (a string key). */
  readonly type: FieldType | 'id' | 'key';
  readonly scale: number;
  readonly values: readonly string[] | undefined;
}

const decimalPattern = /^([+-]?)(\d+)(?:\.(\d+))?$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

interface DecimalDigits {
  readonly negative: boolean;
  /** Digits before the point, without leading zeros ('' for zero). */
  readonly whole: string;
  /** Digits after the point, exactly `scale` of them. */
  readonly fraction: string;
}

/** Splits a decimal (string or number) into its digits at `scale` places; more significant places are refused. */
function decimalDigits(value: unknown, scale: number): DecimalDigits {
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else if (typeof value === 'bigint') text = value.toString();
  else throw new ValueProblem(`expected a decimal such as "12.50", got ${describe(value)}`);
  const match = decimalPattern.exec(text);
  if (match === null) throw new ValueProblem(`expected a decimal such as "12.50", got ${describe(value)}`);
  const [, sign, whole = '', rawFraction = ''] = match;
  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > scale) {
    throw new ValueProblem(`expected at most ${scale} decimal place${scale === 1 ? '' : 's'}, got ${describe(value)}`);
  }
  const digits = { whole: whole.replace(/^0+/, ''), fraction: fraction.padEnd(scale, '0') };
  return { negative: sign === '-' && /[1-9]/.test(digits.whole + digits.fraction), ...digits };
}

/** Parses a decimal (string or number) into its scaled integer. */
export function decimalToScaled(value: unknown, scale: number): number {
  const { negative, whole, fraction } = decimalDigits(value, scale);
  const scaled = Number(`${whole}${fraction}`.replace(/^0+(?=\d)/, '') || '0');
  if (!Number.isSafeInteger(scaled)) throw new ValueProblem(`decimal ${describe(value)} is too large`);
  return negative ? -scaled : scaled;
}

/**
 * Parses a decimal (string or number) into its canonical text at `scale` places ("12.5", 2 →
 * "12.50"), refusing more than `precision` significant digits in all.
 */
export function decimalToCanonical(value: unknown, scale: number, precision: number): string {
  const { negative, whole, fraction } = decimalDigits(value, scale);
  if (whole.length + scale > precision) throw new ValueProblem(`decimal ${describe(value)} is too large`);
  return `${negative ? '-' : ''}${whole || '0'}${scale > 0 ? `.${fraction}` : ''}`;
}

/**
 * A decimal as a database wrote it, shown at `scale` places ("12.5", 2 → "12.50"). Places past
 * the scale are dropped only when they are zeros: a value is never rounded on the way out.
 */
export function normalizeDecimal(text: string, scale: number): string {
  const match = decimalPattern.exec(text);
  if (match === null) return text;
  const [, sign = '', whole = '', rawFraction = ''] = match;
  let fraction = rawFraction.padEnd(scale, '0');
  while (fraction.length > scale && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${sign}${whole}${fraction.length > 0 ? `.${fraction}` : ''}`;
}

/** Formats a scaled integer as the decimal string ("1250", scale 2 → "12.50"). */
export function scaledToDecimal(scaled: number | bigint, scale: number): string {
  if (scale === 0) return String(scaled);
  const negative = scaled < 0;
  const digits = String(negative ? -scaled : scaled).padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

function toDate(value: unknown): string {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
  if (typeof value !== 'string') throw new ValueProblem(`expected a date "YYYY-MM-DD", got ${describe(value)}`);
  const match = datePattern.exec(value);
  if (match !== null) {
    const check = new Date(`${value}T00:00:00.000Z`);
    if (!Number.isNaN(check.getTime()) && check.toISOString().slice(0, 10) === value) return value;
  }
  throw new ValueProblem(`expected a date "YYYY-MM-DD", got ${describe(value)}`);
}

function toDateTime(value: unknown): string {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  if (typeof value === 'string' && dateTimePattern.test(value)) {
    const time = Date.parse(value.replace(' ', 'T'));
    if (!Number.isNaN(time)) return new Date(time).toISOString();
  }
  throw new ValueProblem(`expected an RFC 3339 date-time such as "2026-01-31T09:30:00Z", got ${describe(value)}`);
}

function toIdValue(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value) && Number(value) > 0) return Number(value);
  if (typeof value === 'bigint' && value > 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  throw new ValueProblem(`expected an id (a positive integer), got ${describe(value)}`);
}

/** Most characters of a string key. */
export const maxKeyLength = 255;

function toKeyValue(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && value.length > 0 && value.length <= maxKeyLength) return value;
  throw new ValueProblem(`expected a key (a non-empty string of at most ${maxKeyLength} characters), got ${describe(value)}`);
}

/** Converts a non-null row-JSON value into its stored form, or throws a ValueProblem. */
export function toStorage(shape: ValueShape, value: unknown): unknown {
  switch (shape.type) {
    case 'id':
      return toIdValue(value);
    case 'key':
      return toKeyValue(value);
    case 'string':
    case 'text':
      if (typeof value !== 'string') throw new ValueProblem(`expected a string, got ${describe(value)}`);
      return value;
    case 'integer':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      if (typeof value === 'bigint' && value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
      throw new ValueProblem(`expected an integer, got ${describe(value)}`);
    case 'float':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw new ValueProblem(`expected a number, got ${describe(value)}`);
    case 'decimal':
      return decimalToScaled(value, shape.scale);
    case 'boolean':
      if (typeof value === 'boolean') return value ? 1 : 0;
      throw new ValueProblem(`expected true or false, got ${describe(value)}`);
    case 'date':
      return toDate(value);
    case 'datetime':
      return toDateTime(value);
    case 'enum':
      if (typeof value === 'string' && shape.values?.includes(value) === true) return value;
      throw new ValueProblem(`expected one of ${(shape.values ?? []).join(', ')}, got ${describe(value)}`);
    case 'json': {
      if (value === undefined) throw new ValueProblem('expected a JSON value');
      const text = JSON.stringify(value);
      if (text === undefined) throw new ValueProblem(`expected a JSON value, got ${describe(value)}`);
      return text;
    }
    default:
      return shape.type satisfies never;
  }
}

/** Converts a stored value back to row JSON. */
export function fromStorage(shape: ValueShape, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (shape.type) {
    case 'decimal':
      return scaledToDecimal(value as number, shape.scale);
    case 'boolean':
      return value === 1 || value === true || value === 1n;
    case 'json':
      return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
    case 'id':
    case 'integer':
      return typeof value === 'bigint' ? Number(value) : value;
    case 'key':
      // A key column holds text; a number or bigint is a key typed as one by the database.
      return typeof value === 'number' || typeof value === 'bigint' ? value.toString() : value;
    default:
      return value;
  }
}
