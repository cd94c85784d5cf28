import { toolError } from './define-tool.js';
import type { IndexedManager, SchemaIndex } from './schema-index.js';
import { tokenize } from './tokens.js';

/** A selection as the model writes it: field names, or `{ relation: [selection…] }`, nested. */
export type FieldSelection = string | { readonly [relation: string]: readonly FieldSelection[] };

/** A validated selection: scalar fields, then relations with their own selections. */
export interface SelectionPlan {
  readonly manager: string;
  readonly fields: readonly string[];
  readonly relations: readonly { readonly name: string; readonly plan: SelectionPlan }[];
}

/** Most relations a selection or a filter key may traverse. */
export const maxTraversal = 3;
const listLimit = 40;

function list(names: readonly string[]): string {
  if (names.length === 0) return '(none)';
  return names.length <= listLimit ? names.join(', ') : `${names.slice(0, listLimit).join(', ')}, … (${names.length - listLimit} more)`;
}

/** The exposed manager named, or `not_exposed` naming the choices (unknown and hidden alike). */
export function requireManager(index: SchemaIndex, name: string): IndexedManager {
  const found = index.indexed(name);
  if (found === undefined) {
    throw toolError('not_exposed', `Unknown manager '${name}'. Managers: ${list(index.entries.map((entry) => entry.manager))}.`);
  }
  return found;
}

function scalarNames(manager: IndexedManager): string[] {
  return manager.entry.fields.map((field) => field.name);
}

/** Validates a selection against the index; `"*"` expands to the scalar fields at the top level only. */
export function planSelection(index: SchemaIndex, manager: IndexedManager, selection: readonly FieldSelection[], depth = 0): SelectionPlan {
  const where = manager.entry.manager;
  if (selection.length === 0) {
    throw toolError('invalid_arguments', `Select at least one field of ${where}. Fields: ${list(scalarNames(manager))}.`);
  }
  const fields: string[] = [];
  const relations = new Map<string, SelectionPlan>();
  const addField = (name: string): void => {
    if (!fields.includes(name)) fields.push(name);
  };
  for (const item of selection) {
    if (typeof item === 'string') {
      if (item === '*') {
        if (depth > 0) {
          throw toolError('invalid_arguments', `'*' is allowed only at the top level; name the fields of ${where}: ${list(scalarNames(manager))}.`);
        }
        for (const name of scalarNames(manager)) addField(name);
      } else if (manager.fieldTypes.has(item)) {
        addField(item);
      } else if (manager.relationTargets.has(item)) {
        throw toolError(
          'invalid_arguments',
          `'${item}' is a relation of ${where}; select its fields as { "${item}": ["name", …] }. Fields: ${list(scalarNames(manager))}.`,
        );
      } else {
        throw toolError('invalid_arguments', `Unknown field '${item}' on ${where}. Fields: ${list(scalarNames(manager))}.`);
      }
      continue;
    }
    for (const [relation, nested] of Object.entries(item)) {
      const target = manager.relationTargets.get(relation);
      if (target === undefined) {
        throw toolError('invalid_arguments', `Unknown relation '${relation}' on ${where}. Relations: ${list([...manager.relationTargets.keys()])}.`);
      }
      if (depth + 1 > maxTraversal) {
        throw toolError('invalid_arguments', `Selections may nest at most ${maxTraversal} relations deep.`);
      }
      const targetManager = index.indexed(target);
      if (targetManager === undefined) {
        throw toolError('invalid_arguments', `Unknown relation '${relation}' on ${where}. Relations: ${list([...manager.relationTargets.keys()])}.`);
      }
      if (!Array.isArray(nested)) {
        throw toolError('invalid_arguments', `Select the fields of '${relation}' as a list: { "${relation}": ["name", …] }.`);
      }
      const plan = planSelection(index, targetManager, nested, depth + 1);
      const known = relations.get(relation);
      relations.set(relation, known === undefined ? plan : mergePlans(known, plan));
    }
  }
  return { manager: where, fields, relations: [...relations].map(([name, plan]) => ({ name, plan })) };
}

function mergePlans(a: SelectionPlan, b: SelectionPlan): SelectionPlan {
  const fields = [...a.fields, ...b.fields.filter((name) => !a.fields.includes(name))];
  const relations = new Map(a.relations.map((relation) => [relation.name, relation.plan]));
  for (const relation of b.relations) {
    const known = relations.get(relation.name);
    relations.set(relation.name, known === undefined ? relation.plan : mergePlans(known, relation.plan));
  }
  return { manager: a.manager, fields, relations: [...relations].map(([name, plan]) => ({ name, plan })) };
}

/**
 * A lookup key as the data layer spells it: valid keys pass; camelCase and single-underscore
 * spellings of exactly one valid key are normalized to it; anything else is `invalid_arguments`
 * naming the manager's keys and traversable relations. Traversals stay on exposed relations.
 */
export function normalizeFilterKey(index: SchemaIndex, manager: IndexedManager, key: string, argument: string): string {
  if (isValidKey(index, manager, key.split('__'), 0, undefined)) return key;
  const tokens = tokenize(key);
  const found = new Set<string>();
  if (tokens.length > 0) spellings(index, manager, tokens, 0, '', 0, undefined, found);
  if (found.size === 1) return [...found][0] as string;
  const relations = manager.entry.relations.map((relation) => `${relation.name} (${relation.target})`);
  throw toolError(
    'invalid_arguments',
    `Unknown filter key '${key}' in ${argument} on ${manager.entry.manager}. Filters: ${list(manager.entry.filters)}${
      relations.length > 0 ? `; traverse a relation with <relation>__<key of its manager>: ${list(relations)}` : ''
    }.`,
  );
}

function isValidKey(index: SchemaIndex, manager: IndexedManager, segments: readonly string[], depth: number, cameBy: string | undefined): boolean {
  if (segments.length === 0) return false;
  if (manager.filterSet.has(segments.join('__'))) return true;
  if (depth >= maxTraversal || segments.length < 2) return false;
  const [head, ...rest] = segments as [string, ...string[]];
  const target = manager.relationTargets.get(head);
  if (target === undefined || (cameBy !== undefined && head === cameBy)) return false;
  const next = index.indexed(target);
  return next !== undefined && isValidKey(index, next, rest, depth + 1, manager.reverseNames.get(head));
}

function sameTokens(tokens: readonly string[], at: number, candidate: readonly string[]): boolean {
  if (at + candidate.length > tokens.length) return false;
  for (let i = 0; i < candidate.length; i++) if (tokens[at + i] !== candidate[i]) return false;
  return true;
}

function spellings(
  index: SchemaIndex,
  manager: IndexedManager,
  tokens: readonly string[],
  at: number,
  prefix: string,
  depth: number,
  cameBy: string | undefined,
  found: Set<string>,
): void {
  for (const filter of manager.entry.filters) {
    const filterTokens = tokenize(filter);
    if (filterTokens.length === tokens.length - at && sameTokens(tokens, at, filterTokens)) found.add(`${prefix}${filter}`);
  }
  if (depth >= maxTraversal) return;
  for (const relation of manager.entry.relations) {
    if (cameBy !== undefined && relation.name === cameBy) continue;
    const relationTokens = tokenize(relation.name);
    if (!sameTokens(tokens, at, relationTokens) || at + relationTokens.length >= tokens.length) continue;
    const next = index.indexed(relation.target);
    if (next !== undefined) {
      spellings(index, next, tokens, at + relationTokens.length, `${prefix}${relation.name}__`, depth + 1, manager.reverseNames.get(relation.name), found);
    }
  }
}
