import { suggestionList } from 'graphql/jsutils/suggestionList.js';
import { PlumbError } from '../core/index.js';
import { lookupOperators } from './check-manager.js';
import type { LookupOperator } from './check-manager.js';
import type { FieldType } from './definition-types.js';
import type { ValueShape } from './field-values.js';
import type { Field, Manager, OneRelation, Relation } from './model.js';
import { fieldShape, keyShape } from './keys.js';

/**
 * The lookup language shared by GraphQL filters, read permissions and the chat tools:
 * `field[__relation…][__operator]`, e.g. `name__icontains`, `material__name`, `parts__material__name`.
 */

/** Most relations a lookup key may traverse (`orderLines__order__customer__city` traverses 3). */
export const maxLookupDepth = 3;

export const lookupSeparator = '__';

const comparisons: readonly LookupOperator[] = ['exact', 'in', 'gt', 'gte', 'lt', 'lte'];

/** Operators each field type supports (`isnull` is added for nullable fields). */
export const operatorsByType: Readonly<Record<FieldType | 'id', readonly LookupOperator[]>> = {
  id: comparisons,
  string: ['exact', 'iexact', 'contains', 'icontains', 'startswith', 'in'],
  text: ['exact', 'iexact', 'contains', 'icontains', 'startswith'],
  enum: ['exact', 'in'],
  integer: comparisons,
  decimal: comparisons,
  float: comparisons,
  date: comparisons,
  datetime: comparisons,
  boolean: ['exact'],
  json: [],
};

const foreignKeyOperators: readonly LookupOperator[] = ['exact', 'in'];

/** What a lookup compares at its end: a field, or the id held by a `one` relation's foreign key. */
export type LookupTarget =
  | { readonly kind: 'field'; readonly field: Field }
  | { readonly kind: 'foreignKey'; readonly relation: OneRelation };

export interface ResolvedLookup {
  readonly key: string;
  /** Relations traversed, in order, from the manager the lookup starts at. */
  readonly path: readonly Relation[];
  readonly target: LookupTarget;
  readonly operator: LookupOperator;
  /** Shape of one compared value (the element shape for `in`). */
  readonly shape: ValueShape;
}

function operatorsFor(target: LookupTarget): readonly LookupOperator[] {
  if (target.kind === 'foreignKey') return target.relation.nullable ? [...foreignKeyOperators, 'isnull'] : foreignKeyOperators;
  const base = operatorsByType[target.field.primaryKey ? 'id' : target.field.type];
  return target.field.nullable ? [...base, 'isnull'] : base;
}

function shapeOf(target: LookupTarget): ValueShape {
  if (target.kind === 'foreignKey') return keyShape(target.relation.target);
  return fieldShape(target.field);
}

function keyFor(segments: readonly string[], operator: LookupOperator): string {
  return operator === 'exact' ? segments.join(lookupSeparator) : [...segments, operator].join(lookupSeparator);
}

function isBacktrack(previous: Relation | undefined, next: Relation): boolean {
  return previous !== undefined && next.name === previous.reverseName;
}

/** Every lookup key of a manager (filterable fields, foreign keys, traversals to `maxLookupDepth`). */
export function enumerateLookups(manager: Manager, depth = maxLookupDepth): ResolvedLookup[] {
  const out: ResolvedLookup[] = [];
  const walk = (current: Manager, prefix: readonly string[], path: readonly Relation[]): void => {
    for (const field of current.fields) {
      if (!field.filterable) continue;
      const target: LookupTarget = { kind: 'field', field };
      for (const operator of operatorsFor(target)) {
        out.push({ key: keyFor([...prefix, field.name], operator), path, target, operator, shape: shapeOf(target) });
      }
    }
    for (const relation of current.relations) {
      if (relation.kind === 'one') {
        const target: LookupTarget = { kind: 'foreignKey', relation };
        for (const operator of operatorsFor(target)) {
          out.push({ key: keyFor([...prefix, relation.name], operator), path, target, operator, shape: shapeOf(target) });
        }
      }
    }
    if (path.length >= depth) return;
    for (const relation of current.relations) {
      if (isBacktrack(path[path.length - 1], relation)) continue;
      walk(relation.target, [...prefix, relation.name], [...path, relation]);
    }
  };
  walk(manager, [], []);
  return out;
}

/** Every valid lookup key of a manager, in a stable order (used by errors, GraphQL and the chat tools). */
export function filterKeys(manager: Manager, depth = maxLookupDepth): string[] {
  return enumerateLookups(manager, depth).map((lookup) => lookup.key);
}

/** ` Did you mean 'a' or 'b'?` — up to three of the manager's keys closest to one it does not have — or '' when none is close. */
export function didYouMeanKey(manager: Manager, key: string, keys: readonly string[] = filterKeys(manager)): string {
  const close = suggestionList(key, keys).slice(0, 3);
  return close.length > 0 ? ` Did you mean ${close.map((k) => `'${k}'`).join(' or ')}?` : '';
}

/** The lookup keys on the manager itself (no traversal) and the relations one can traverse. */
export function describeKeys(manager: Manager): { keys: string[]; relations: string[] } {
  return {
    keys: enumerateLookups(manager, 0).map((lookup) => lookup.key),
    relations: manager.relations.map((relation) => `${relation.name}__<${relation.target.name} key>`),
  };
}

function unknownKey(manager: Manager, key: string, reason: string): PlumbError {
  const { keys, relations } = describeKeys(manager);
  return new PlumbError(
    'unknown_filter_key',
    `Unknown filter key '${key}' on ${manager.name}${reason}. Keys: ${keys.join(', ')}${relations.length > 0 ? `; through relations: ${relations.join(', ')}` : ''}.`,
    { details: { manager: manager.name, key, keys, relations } },
  );
}

/** Resolves one lookup key on a manager, or throws `unknown_filter_key` / `unsupported_operator`. */
export function resolveLookup(manager: Manager, key: string, depth = maxLookupDepth): ResolvedLookup {
  const segments = key.split(lookupSeparator);
  let operator: LookupOperator = 'exact';
  const last = segments[segments.length - 1]!;
  if (segments.length > 1 && (lookupOperators as readonly string[]).includes(last)) {
    operator = last as LookupOperator;
    segments.pop();
  }
  const path: Relation[] = [];
  let current = manager;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const isLast = index === segments.length - 1;
    const field = current.field(segment);
    const relation = current.relation(segment);
    let target: LookupTarget | undefined;
    if (isLast && field !== undefined) {
      if (!field.filterable) throw unknownKey(manager, key, ` (${current.name}.${field.name} is not filterable)`);
      target = { kind: 'field', field };
    } else if (isLast && relation?.kind === 'one') {
      target = { kind: 'foreignKey', relation };
    } else if (!isLast && relation !== undefined) {
      if (path.length >= depth) throw unknownKey(manager, key, ` (lookups traverse at most ${depth} relations)`);
      if (isBacktrack(path[path.length - 1], relation)) throw unknownKey(manager, key, ` ('${segment}' goes straight back where the lookup came from)`);
      path.push(relation);
      current = relation.target;
      continue;
    } else if (isLast && relation !== undefined) {
      throw unknownKey(manager, key, ` (${current.name}.${segment} is a list; compare one of its fields, e.g. ${segment}__id)`);
    } else {
      throw unknownKey(manager, key, '');
    }
    const allowed = operatorsFor(target);
    if (!allowed.includes(operator)) {
      const what = target.kind === 'field' ? `${current.name}.${target.field.name} (${target.field.type}${target.field.nullable ? ', nullable' : ''})` : `${current.name}.${segment} (relation id)`;
      throw new PlumbError(
        'unsupported_operator',
        `Lookup '${key}': ${what} does not support '${operator}'. Operators: ${allowed.join(', ') || 'none (not filterable)'}.`,
        { details: { manager: manager.name, key, operator, operators: allowed } },
      );
    }
    return { key, path, target, operator, shape: shapeOf(target) };
  }
  throw unknownKey(manager, key, '');
}
