import type { Actor } from '../core/index.js';
import type { FieldType, ManagerSpec, RowCondition } from './definition-types.js';
import type { ManagerCatalog } from './manager-catalog.js';
import type { NamedCondition } from './named-conditions.js';

/** A field after defineApp: every default filled in. */
export interface Field {
  readonly name: string;
  readonly type: FieldType;
  readonly column: string;
  readonly nullable: boolean;
  /** Whether create/load fill the field when the input omits it. */
  readonly hasDefault: boolean;
  /** The default in row-JSON form (decimals as strings). */
  readonly default: unknown;
  readonly filterable: boolean;
  readonly values: readonly string[] | undefined;
  /** Digits after the point of a decimal (0 for other types). */
  readonly scale: number;
  readonly description: string | undefined;
  /** True for the implicit `id` primary key. */
  readonly primaryKey: boolean;
}

export type RelationCardinality = 'one' | 'many' | 'manyToMany';

interface RelationBase {
  readonly name: string;
  /** The same as `kind`: one, many or manyToMany. */
  readonly cardinality: RelationCardinality;
  readonly target: Manager;
  /** The same relation seen from the target. */
  readonly reverseName: string;
  /** Declared by the host (false when derived as the reverse of a declared relation). */
  readonly declared: boolean;
  readonly description: string | undefined;
}

/** A foreign key on this manager's table. */
export interface OneRelation extends RelationBase {
  readonly kind: 'one';
  readonly column: string;
  readonly nullable: boolean;
}

/** The rows of the target whose foreign key `column` points here. */
export interface ManyRelation extends RelationBase {
  readonly kind: 'many';
  /** The foreign-key column on the target's table. */
  readonly column: string;
}

/** Rows linked through a join table. */
export interface ManyToManyRelation extends RelationBase {
  readonly kind: 'manyToMany';
  readonly through: string;
  /** Join-table column holding this manager's id. */
  readonly sourceColumn: string;
  /** Join-table column holding the target's id. */
  readonly targetColumn: string;
}

export type Relation = OneRelation | ManyRelation | ManyToManyRelation;

export interface ResolvedPermissions {
  readonly read: (actor: Actor) => RowCondition;
  readonly create: (actor: Actor, input: Readonly<Record<string, unknown>>) => boolean;
  readonly update: (actor: Actor, row: Readonly<Record<string, unknown>>, input: Readonly<Record<string, unknown>>) => boolean;
  readonly delete: (actor: Actor, row: Readonly<Record<string, unknown>>) => boolean;
}

/** A manager after defineApp: fields (with `id`), relations on both sides, permissions with defaults. */
export interface Manager {
  readonly name: string;
  readonly description: string | undefined;
  readonly table: string;
  readonly fields: readonly Field[];
  readonly relations: readonly Relation[];
  readonly chatExposed: boolean;
  readonly catalog: ManagerCatalog | undefined;
  readonly permissions: ResolvedPermissions;
  /** Its named conditions (`conditions` on the declaration), in one shape. */
  readonly conditions: readonly NamedCondition[];
  /** The declaration it came from. */
  readonly spec: ManagerSpec;
  field(name: string): Field | undefined;
  relation(name: string): Relation | undefined;
}
