import type { ValueShape } from './field-values.js';
import type { Field, Manager } from './model.js';

/** A primary key's value: an integer id, or a string key (a code, a UUID) of an existing table. */
export type RowKey = number | string;

const integerKey: ValueShape = Object.freeze({ type: 'id', scale: 0, values: undefined });
const stringKey: ValueShape = Object.freeze({ type: 'key', scale: 0, values: undefined });

/** The shape of a manager's key: what its id, and every foreign key to it, holds. */
export function keyShape(manager: Manager): ValueShape {
  return manager.fields[0]!.type === 'string' ? stringKey : integerKey;
}

/** The shape of a field's values; a primary key has its key's shape. */
export function fieldShape(field: Field): ValueShape {
  if (field.primaryKey) return field.type === 'string' ? stringKey : integerKey;
  return { type: field.type, scale: field.scale, values: field.values };
}

/** Whether the database assigns a manager's keys (integer ids); string keys are given by the writer. */
export function assignsKeys(manager: Manager): boolean {
  return manager.fields[0]!.type !== 'string';
}

/** A key as a map key: integer and string keys read back from SQL compare equal to what was asked. */
export function keyText(key: unknown): string {
  return typeof key === 'bigint' ? key.toString() : String(key);
}
