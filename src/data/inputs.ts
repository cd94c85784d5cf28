import { PlumbError } from '../core/index.js';
import { ValueProblem } from './field-values.js';
import type { ValueShape } from './field-values.js';
import { assignsKeys, fieldShape, keyShape } from './keys.js';
import type { RowKey } from './keys.js';
import type { Manager, ManyToManyRelation, OneRelation } from './model.js';
import type { ValueStorage } from './value-storage.js';

/** A create/update/load input checked and converted to storage. */
export interface CheckedInput {
  /** column → stored value */
  readonly values: Map<string, unknown>;
  /** manyToMany relation → target keys (replaces the links) */
  readonly links: Map<ManyToManyRelation, RowKey[]>;
  /** The input in row-JSON form (canonical values, integer ids as numbers), as permissions see it. */
  readonly normalized: Record<string, unknown>;
  /** `one` relations set by the input, with the key (or null). */
  readonly references: Map<OneRelation, RowKey | null>;
}

export type InputMode = 'create' | 'update' | 'load';

function invalid(manager: Manager, name: string, reason: string): PlumbError {
  return new PlumbError('invalid_input', `${manager.name}.${name}: ${reason}.`, { details: { manager: manager.name, field: name } });
}

function convert(storage: ValueStorage, manager: Manager, name: string, shape: ValueShape, value: unknown): unknown {
  try {
    return storage.toStorage(shape, value);
  } catch (error) {
    if (error instanceof ValueProblem) throw invalid(manager, name, error.reason);
    throw error;
  }
}

export function inputNames(manager: Manager, mode: InputMode): string[] {
  return [
    ...manager.fields.filter((field) => !field.primaryKey || mode === 'load' || (mode === 'create' && !assignsKeys(manager))).map((field) => field.name),
    ...manager.relations.filter((relation) => relation.kind !== 'many').map((relation) => relation.name),
  ];
}

/**
 * Checks an input against the manager (unknown keys, required fields, nulls, types) and converts
 * it for `storage`, the database's. Errors name the field.
 */
export function checkInput(storage: ValueStorage, manager: Manager, input: Readonly<Record<string, unknown>>, mode: InputMode): CheckedInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PlumbError('invalid_input', `${manager.name}: an input is an object of field values.`, { details: { manager: manager.name } });
  }
  const values = new Map<string, unknown>();
  const links = new Map<ManyToManyRelation, RowKey[]>();
  const references = new Map<OneRelation, RowKey | null>();
  const normalized: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (input[key] === undefined) continue;
    const relation = manager.relation(key);
    if (manager.field(key) === undefined && relation === undefined) {
      throw new PlumbError('invalid_input', `Unknown field '${key}' on ${manager.name}. Fields: ${inputNames(manager, mode).join(', ')}.`, {
        details: { manager: manager.name, field: key },
      });
    }
    if (relation?.kind === 'many') {
      throw invalid(manager, key, `is set from the other side, through ${relation.target.name}.${relation.reverseName}`);
    }
    if (key === 'id' && mode === 'update') throw invalid(manager, key, 'the key of a row does not change');
    if (key === 'id' && mode === 'create' && assignsKeys(manager)) throw invalid(manager, key, 'the id is assigned by the database');
  }
  for (const field of manager.fields) {
    const value = input[field.name];
    if (value === undefined) {
      if (mode === 'update' || field.primaryKey) continue;
      if (field.hasDefault) {
        values.set(field.column, field.default === null ? null : convert(storage, manager, field.name, fieldShape(field), field.default));
        normalized[field.name] = field.default;
      } else if (field.nullable) {
        values.set(field.column, null);
        normalized[field.name] = null;
      } else {
        throw invalid(manager, field.name, `is required (${field.type})`);
      }
      continue;
    }
    if (value === null) {
      if (!field.nullable) throw invalid(manager, field.name, 'may not be null');
      values.set(field.column, null);
      normalized[field.name] = null;
      continue;
    }
    const stored = convert(storage, manager, field.name, fieldShape(field), value);
    values.set(field.column, stored);
    normalized[field.name] = storage.fromStorage(fieldShape(field), stored);
  }
  for (const relation of manager.relations) {
    const value = input[relation.name];
    if (relation.kind === 'one') {
      if (value === undefined) {
        if (mode === 'update') continue;
        if (!relation.nullable) throw invalid(manager, relation.name, `is required (the id of a ${relation.target.name})`);
        values.set(relation.column, null);
        references.set(relation, null);
        normalized[relation.name] = null;
        continue;
      }
      if (value === null) {
        if (!relation.nullable) throw invalid(manager, relation.name, 'may not be null');
        values.set(relation.column, null);
        references.set(relation, null);
        normalized[relation.name] = null;
        continue;
      }
      const id = convert(storage, manager, relation.name, keyShape(relation.target), value) as RowKey;
      values.set(relation.column, id);
      references.set(relation, id);
      normalized[relation.name] = id;
    } else if (relation.kind === 'manyToMany' && value !== undefined) {
      if (!Array.isArray(value)) throw invalid(manager, relation.name, `expected a list of ${relation.target.name} ids`);
      const ids = [...new Set(value.map((item) => convert(storage, manager, relation.name, keyShape(relation.target), item) as RowKey))];
      links.set(relation, ids);
      normalized[relation.name] = ids;
    }
  }
  return { values, links, normalized, references };
}
