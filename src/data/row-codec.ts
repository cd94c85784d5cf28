import { sql } from 'kysely';
import type { ValueShape } from './field-values.js';
import type { Manager } from './model.js';
import { fieldShape, keyShape } from './keys.js';
import type { ValueStorage } from './value-storage.js';
import { column } from './conditions.js';
import type { Sql } from './conditions.js';

/** A row in row-JSON form: field values plus, under each `one` relation's name, the related id. */
export type Row = Record<string, unknown>;

/** How a manager's rows are selected and turned into row JSON. */
export interface RowCodec {
  readonly columns: readonly string[];
  select(alias: string): Sql;
  decode(raw: Readonly<Record<string, unknown>>): Row;
}

/** `storage` is the database's: it decodes what its columns hold. */
export function rowCodec(manager: Manager, storage: ValueStorage): RowCodec {
  const entries: { name: string; column: string; shape: ValueShape | undefined }[] = [];
  for (const field of manager.fields) {
    const plain = field.type === 'string' || field.type === 'text' || field.type === 'enum' || field.type === 'date' || field.type === 'datetime' || field.type === 'float';
    entries.push({ name: field.name, column: field.column, shape: plain && !field.primaryKey ? undefined : fieldShape(field) });
  }
  for (const relation of manager.relations) {
    if (relation.kind === 'one') entries.push({ name: relation.name, column: relation.column, shape: keyShape(relation.target) });
  }
  const columns = entries.map((entry) => entry.column);
  return {
    columns,
    select: (alias) => sql.join(columns.map((name) => column(alias, name))),
    decode: (raw) => {
      const row: Row = {};
      for (const entry of entries) {
        const value = raw[entry.column];
        row[entry.name] = entry.shape === undefined ? (value ?? null) : storage.fromStorage(entry.shape, value);
      }
      return row;
    },
  };
}
