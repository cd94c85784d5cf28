import type { Actor } from '../core/index.js';
import type { ManagerCatalog } from './manager-catalog.js';

/**
 * What a host writes: the declaration of a manager (a model over one SQL table). `defineManager`
 * checks one declaration; `defineApp` checks the whole set and resolves relations on both sides.
 */
export const fieldTypes = [
  'string',
  'text',
  'integer',
  'decimal',
  'float',
  'boolean',
  'date',
  'datetime',
  'enum',
  'json',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export interface FieldSpec {
  readonly type: FieldType;
  /** May hold null. Default false. */
  readonly nullable?: boolean;
  /** Applied by create when the input omits the field. Decimals as strings ("0.00"). */
  readonly default?: unknown;
  /** Offered as a filter (and indexed). Default true; false for `json` and `text` is allowed too. */
  readonly filterable?: boolean;
  /** The declared values of an `enum` field. */
  readonly values?: readonly string[];
  /** Column name in SQL. Default: the field name in snake_case. */
  readonly column?: string;
  readonly description?: string;
  /** Digits after the point of a `decimal` (0–9, default 2). Stored exactly as a scaled integer. */
  readonly scale?: number;
}

/** `one`: a foreign key on this table. `many`: the reverse of a `one` on the target. `manyToMany`: through a join table. */
export type RelationSpec =
  | {
      readonly kind: 'one';
      readonly target: string;
      /** Name of the reverse `many` relation on the target. Default: the camelCase plural of this manager's name. */
      readonly reverse?: string;
      /** Foreign key column. Default: `<relation in snake_case>_id`. */
      readonly column?: string;
      readonly nullable?: boolean;
      readonly description?: string;
    }
  | {
      readonly kind: 'many';
      readonly target: string;
      /** The `one` relation on the target that this reverses. */
      readonly via: string;
      readonly description?: string;
    }
  | {
      readonly kind: 'manyToMany';
      readonly target: string;
      /** Name of the reverse relation on the target. Default: the camelCase plural of this manager's name. */
      readonly reverse?: string;
      /** Join table. Default: `<this table>_<relation in snake_case>`. */
      readonly through?: string;
      /** Join-table column holding this manager's key. Default: `<this manager in snake_case>_id`. */
      readonly sourceColumn?: string;
      /** Join-table column holding the target's key. Default: `<target in snake_case>_id`. */
      readonly targetColumn?: string;
      readonly description?: string;
    };

/** A row condition in the lookup language of filters (`{ owner__id: '7' }`), or all/none. */
export type RowCondition = boolean | Readonly<Record<string, unknown>>;

export interface ManagerPermissions {
  /** Which rows the actor may see, everywhere: lists, counts, relation fields, by-id. Default: all. */
  readonly read?: (actor: Actor) => RowCondition;
  /** Default: authenticated actors only. */
  readonly create?: (actor: Actor, input: Readonly<Record<string, unknown>>) => boolean;
  readonly update?: (actor: Actor, row: Readonly<Record<string, unknown>>, input: Readonly<Record<string, unknown>>) => boolean;
  readonly delete?: (actor: Actor, row: Readonly<Record<string, unknown>>) => boolean;
}

export interface ManagerSpec {
  /** PascalCase, unique in the app: `Part`, `OrderLine`. */
  readonly name: string;
  readonly description?: string;
  /** SQL table. Default: the name in snake_case. */
  readonly table?: string;
  readonly fields: Readonly<Record<string, FieldSpec | FieldType>>;
  readonly relations?: Readonly<Record<string, RelationSpec>>;
  /** Visible to chat. Default false: nothing reaches a model unless the host says so. */
  readonly chatExposed?: boolean;
  readonly permissions?: ManagerPermissions;
  /** What helps a model (and `search_managers`) pick this manager among similar ones; it never changes what is visible. */
  readonly catalog?: ManagerCatalog;
  /**
   * Host-named filters ("overdue", "active"): a plain filter in the lookup language, or one with a
   * description and the words a person says for it. `$now` and `$today` stand for the asking time.
   */
  readonly conditions?: Readonly<Record<string, ConditionSpec>>;
}

/** A named condition: a plain filter (`{ dueOn__lt: '$today', paidOn__isnull: true }`) or the full form. */
export type ConditionSpec = Readonly<Record<string, unknown>> | NamedConditionSpec;

export interface NamedConditionSpec {
  readonly filter: Readonly<Record<string, unknown>>;
  readonly description?: string;
  /** Words for it per language, beside its name in words ("overdue"); `pt-BR`: "atrasada", "em atraso". */
  readonly words?: { readonly en?: readonly string[]; readonly 'pt-BR'?: readonly string[] };
}

