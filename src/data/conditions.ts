import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { PlumbError } from '../core/index.js';
import type { SqlFragments } from './database.js';
import type { RowCondition } from './definition-types.js';
import { ValueProblem } from './field-values.js';
import { lookupSeparator, resolveLookup } from './lookups.js';
import type { ResolvedLookup } from './lookups.js';
import type { Manager, Relation } from './model.js';
import type { ValueStorage } from './value-storage.js';

/** Most values an `__in` lookup accepts. */
export const maxInValues = 1000;

export type Sql = RawBuilder<unknown>;

export interface ConditionScope {
  readonly fragments: SqlFragments;
  readonly values: ValueStorage;
  /**
   * The actor's read condition for a manager, applied inside traversals so that a filter cannot
   * reveal rows through relations the actor may not see. Undefined: trusted (no permissions).
   */
  readonly readCondition: ((manager: Manager) => RowCondition) | undefined;
}

export const sqlTrue: Sql = sql`1 = 1`;
export const sqlFalse: Sql = sql`1 = 0`;

export function idColumn(manager: Manager): string {
  return manager.fields[0]!.column;
}

export function column(alias: string, name: string): Sql {
  return sql.ref(`${alias}.${name}`);
}

function storageValue(scope: ConditionScope, lookup: ResolvedLookup, value: unknown): unknown {
  try {
    return scope.values.toStorage(lookup.shape, value);
  } catch (error) {
    if (!(error instanceof ValueProblem)) throw error;
    throw new PlumbError('invalid_filter_value', `Filter '${lookup.key}': ${error.reason}.`, { details: { key: lookup.key } });
  }
}

function leaf(scope: ConditionScope, lookup: ResolvedLookup, alias: string, value: unknown): Sql {
  const name = lookup.target.kind === 'field' ? lookup.target.field.column : lookup.target.relation.column;
  const ref = column(alias, name);
  switch (lookup.operator) {
    case 'isnull':
      if (typeof value !== 'boolean') throw new PlumbError('invalid_filter_value', `Filter '${lookup.key}': expected true or false.`, { details: { key: lookup.key } });
      return value ? sql`${ref} is null` : sql`${ref} is not null`;
    case 'in': {
      if (!Array.isArray(value)) throw new PlumbError('invalid_filter_value', `Filter '${lookup.key}': expected a list of values.`, { details: { key: lookup.key } });
      if (value.length > maxInValues) {
        throw new PlumbError('invalid_filter_value', `Filter '${lookup.key}': at most ${maxInValues} values, got ${value.length}.`, { details: { key: lookup.key } });
      }
      if (value.length === 0) return sqlFalse;
      return sql`${ref} in (${sql.join(value.map((item) => storageValue(scope, lookup, item)))})`;
    }
    default:
      break;
  }
  if (value === null) {
    if (lookup.operator === 'exact') return sql`${ref} is null`;
    throw new PlumbError('invalid_filter_value', `Filter '${lookup.key}': null only works with the exact lookup; use ${lookup.key.replace(/__[a-z]+$/, '')}__isnull.`, { details: { key: lookup.key } });
  }
  const stored = storageValue(scope, lookup, value);
  switch (lookup.operator) {
    case 'exact':
      return sql`${ref} = ${stored}`;
    case 'iexact':
      return scope.fragments.iexact(ref, stored as string);
    case 'contains':
      return scope.fragments.contains(ref, stored as string);
    case 'icontains':
      return scope.fragments.icontains(ref, stored as string);
    case 'startswith':
      return scope.fragments.startsWith(ref, stored as string);
    case 'gt':
      return sql`${ref} > ${stored}`;
    case 'gte':
      return sql`${ref} >= ${stored}`;
    case 'lt':
      return sql`${ref} < ${stored}`;
    case 'lte':
      return sql`${ref} <= ${stored}`;
    default:
      return lookup.operator satisfies never;
  }
}

function hop(source: Manager, relation: Relation, alias: string, inner: Sql, depth: number): Sql {
  const target = relation.target;
  const t = `t${depth}`;
  const table = sql`${sql.table(target.table)} as ${sql.id(t)}`;
  switch (relation.kind) {
    case 'one':
      return sql`${column(alias, relation.column)} in (select ${column(t, idColumn(target))} from ${table} where ${inner})`;
    case 'many':
      return sql`${column(alias, idColumn(source))} in (select ${column(t, relation.column)} from ${table} where ${inner})`;
    case 'manyToMany': {
      const j = `j${depth}`;
      return sql`${column(alias, idColumn(source))} in (select ${column(j, relation.sourceColumn)} from ${sql.table(relation.through)} as ${sql.id(j)} where ${column(j, relation.targetColumn)} in (select ${column(t, idColumn(target))} from ${table} where ${inner}))`;
    }
    default:
      return relation satisfies never;
  }
}

function toAnd(parts: readonly Sql[]): Sql | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  return sql`(${sql.join(parts, sql` and `)})`;
}

/**
 * Compiles a filter (lookup key → value, ANDed) on `manager` rows aliased `alias` into a
 * parameterized SQL condition. Keys through the same relation share one subquery, so one related
 * row must match all of them (`parts__name` and `parts__sku` of the same part). Returns undefined
 * for an empty filter.
 */
export function compileFilter(scope: ConditionScope, manager: Manager, alias: string, filter: Readonly<Record<string, unknown>>, depth = 0): Sql | undefined {
  const parts: Sql[] = [];
  const groups = new Map<string, { relation: Relation; rest: Record<string, unknown> }>();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    const lookup = resolveLookup(manager, key);
    const first = lookup.path[0];
    if (first === undefined) {
      parts.push(leaf(scope, lookup, alias, value));
      continue;
    }
    let group = groups.get(first.name);
    if (group === undefined) groups.set(first.name, (group = { relation: first, rest: {} }));
    group.rest[key.slice(first.name.length + lookupSeparator.length)] = value;
  }
  for (const { relation, rest } of groups.values()) {
    const innerAlias = `t${depth + 1}`;
    const innerParts: Sql[] = [];
    const inner = compileFilter(scope, relation.target, innerAlias, rest, depth + 1);
    if (inner !== undefined) innerParts.push(inner);
    if (scope.readCondition !== undefined) {
      const permitted = compileCondition({ ...scope, readCondition: undefined }, relation.target, innerAlias, scope.readCondition(relation.target), depth + 1);
      if (permitted !== undefined) innerParts.push(permitted);
    }
    parts.push(hop(manager, relation, alias, toAnd(innerParts) ?? sqlTrue, depth + 1));
  }
  return toAnd(parts);
}

/** A row condition (true, false or a filter) as SQL; undefined means "all rows". */
export function compileCondition(scope: ConditionScope, manager: Manager, alias: string, condition: RowCondition, depth = 0): Sql | undefined {
  if (condition === true) return undefined;
  if (condition === false) return sqlFalse;
  if (typeof condition !== 'object' || condition === null) {
    throw new PlumbError('invalid_filter_value', `A read permission of ${manager.name} returned ${String(condition)}; return true, false or a filter object.`);
  }
  return compileFilter(scope, manager, alias, condition, depth);
}

/** `exclude`: drop rows matching all of its keys (rows where the condition is NULL stay). */
export function compileExclude(scope: ConditionScope, manager: Manager, alias: string, exclude: Readonly<Record<string, unknown>>): Sql | undefined {
  const condition = compileFilter(scope, manager, alias, exclude);
  return condition === undefined ? undefined : sql`(${condition}) is not true`;
}

export function andAll(parts: readonly (Sql | undefined)[]): Sql {
  return toAnd(parts.filter((part): part is Sql => part !== undefined)) ?? sqlTrue;
}
