import { decimalToCanonical, fromStorage, normalizeDecimal, toStorage, ValueProblem } from './field-values.js';
import type { ValueShape } from './field-values.js';

/**
 * How one database stores row-JSON values. Everything that binds a value or decodes a column goes
 * through its database's storage, so the two databases may store decimals and booleans differently.
 */
export interface ValueStorage {
  /** A non-null row-JSON value as the parameter to bind, or a thrown ValueProblem. */
  toStorage(shape: ValueShape, value: unknown): unknown;
  /** A value read from a column back to row JSON. */
  fromStorage(shape: ValueShape, value: unknown): unknown;
}

/** SQLite: decimals as scaled integers, booleans as 0/1, json as its text (see field-values.ts). */
export const sqliteValues: ValueStorage = { toStorage, fromStorage };

/** Significant digits of the `numeric` columns Plumb creates on PostgreSQL. */
export const postgresDecimalPrecision = 38;

const nulProblem = 'PostgreSQL cannot store the NUL character (U+0000)';
/** `\u0000` in JSON text, not preceded by an escaped backslash. */
const escapedNul = /(?:^|[^\\])(?:\\\\)*\\u0000/;

// Refused here, the value names its field; sent, it would fail the whole statement.
function refuseNul(value: unknown): unknown {
  if (typeof value === 'string' && value.includes('\u0000')) throw new ValueProblem(nulProblem);
  return value;
}

/** PostgreSQL: decimals as exact canonical strings for `numeric`, real booleans, json as its text for jsonb. */
export const postgresValues: ValueStorage = {
  toStorage: (shape, value) => {
    switch (shape.type) {
      case 'decimal':
        return decimalToCanonical(value, shape.scale, postgresDecimalPrecision);
      case 'boolean':
        return toStorage(shape, value) === 1;
      case 'string':
      case 'text':
      case 'enum':
        return refuseNul(toStorage(shape, value));
      case 'json': {
        const text = toStorage(shape, value) as string;
        if (escapedNul.test(text)) throw new ValueProblem(nulProblem);
        return text;
      }
      default:
        return toStorage(shape, value);
    }
  },
  fromStorage: (shape, value) => {
    if (shape.type === 'decimal' && typeof value === 'string') return normalizeDecimal(value, shape.scale);
    return fromStorage(shape, value);
  },
};
