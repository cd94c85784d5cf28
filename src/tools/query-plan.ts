import { maxLookupDepth } from '../data/index.js';
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

const listLimit = 40;

/** What to do when a read goes deeper than `maxRelationDepth`, said the same way for selections and filters. */
const readInSteps = 'Read in steps: query the nearer manager first, then filter the next by its id.';

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

/**
 * Validates a selection against the index; `"*"` expands to the scalar fields at the top level only.
 * Relations nest at most `maxDepth` deep (the `maxRelationDepth` tool setting).
 */
export function planSelection(index: SchemaIndex, manager: IndexedManager, selection: readonly FieldSelection[], maxDepth = maxLookupDepth): SelectionPlan {
  return planLevel(index, manager, selection, { root: manager.entry.manager, path: [], maxDepth });
}

interface Level {
  readonly root: string;
  /** The relations walked from the root to this level. */
  readonly path: readonly string[];
  readonly maxDepth: number;
}

function planLevel(index: SchemaIndex, manager: IndexedManager, selection: readonly FieldSelection[], level: Level): SelectionPlan {
  const depth = level.path.length;
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
      const targetManager = index.indexed(target);
      if (targetManager === undefined) {
        throw toolError('invalid_arguments', `Unknown relation '${relation}' on ${where}. Relations: ${list([...manager.relationTargets.keys()])}.`);
      }
      // After the exposure checks, so that a hidden relation past the limit still looks unknown.
      const path = [...level.path, relation];
      if (path.length > level.maxDepth) {
        throw toolError(
          'invalid_arguments',
          `The selection '${path.join('.')}' on ${level.root} nests ${path.length} relations; the depth limit is ${level.maxDepth} (maxRelationDepth). ${readInSteps}`,
        );
      }
      if (!Array.isArray(nested)) {
        throw toolError('invalid_arguments', `Select the fields of '${relation}' as a list: { "${relation}": ["name", …] }.`);
      }
      const plan = planLevel(index, targetManager, nested, { ...level, path });
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
 * spellings of exactly one valid key are normalized to it; a key (or its one spelling) whose
 * relations are valid but traverse more than `maxDepth` (the `maxRelationDepth` tool setting) is
 * `invalid_arguments` naming the limit; anything else is `invalid_arguments` naming the manager's
 * keys and traversable relations. Traversals stay on exposed relations.
 */
export function normalizeFilterKey(index: SchemaIndex, manager: IndexedManager, key: string, argument: string, maxDepth = maxLookupDepth): string {
  const segments = key.split('__');
  // Each relation takes a segment (a token when spelled), so their count bounds the walk at any depth.
  const depth = keyDepth(index, manager, segments, 0, undefined, segments.length);
  if (depth !== undefined) {
    if (depth <= maxDepth) return key;
    throw tooDeep(manager, `'${key}'`, depth, argument, maxDepth);
  }
  const tokens = tokenize(key);
  const found = new Map<string, number>();
  if (tokens.length > 0) spellings(index, manager, tokens, 0, '', 0, undefined, found, tokens.length);
  const near = [...found].filter(([, relations]) => relations <= maxDepth);
  if (near.length === 1) return near[0]![0];
  const only = found.size === 1 ? [...found][0] : undefined;
  if (only !== undefined) throw tooDeep(manager, `'${key}' ('${only[0]}')`, only[1], argument, maxDepth);
  const relations = manager.entry.relations.map((relation) => `${relation.name} (${relation.target})`);
  throw toolError(
    'invalid_arguments',
    `Unknown filter key '${key}' in ${argument} on ${manager.entry.manager}. Filters: ${list(manager.entry.filters)}${
      relations.length > 0 ? `; traverse a relation with <relation>__<key of its manager>: ${list(relations)}` : ''
    }.`,
  );
}

function tooDeep(manager: IndexedManager, named: string, relations: number, argument: string, maxDepth: number): Error {
  return toolError(
    'invalid_arguments',
    `Filter key ${named} in ${argument} on ${manager.entry.manager} traverses ${relations} relations; the depth limit is ${maxDepth} (maxRelationDepth). ${readInSteps}`,
  );
}

/** The relations a valid key traverses (never straight back, only to exposed managers), or undefined for an invalid one. */
function keyDepth(index: SchemaIndex, manager: IndexedManager, segments: readonly string[], depth: number, cameBy: string | undefined, maxDepth: number): number | undefined {
  if (segments.length === 0) return undefined;
  if (manager.filterSet.has(segments.join('__'))) return depth;
  if (depth >= maxDepth || segments.length < 2) return undefined;
  const [head, ...rest] = segments as [string, ...string[]];
  const target = manager.relationTargets.get(head);
  if (target === undefined || (cameBy !== undefined && head === cameBy)) return undefined;
  const next = index.indexed(target);
  return next === undefined ? undefined : keyDepth(index, next, rest, depth + 1, manager.reverseNames.get(head), maxDepth);
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
  /** Each spelling found → the relations it traverses. */
  found: Map<string, number>,
  maxDepth: number,
): void {
  for (const filter of manager.entry.filters) {
    const filterTokens = tokenize(filter);
    if (filterTokens.length === tokens.length - at && sameTokens(tokens, at, filterTokens)) found.set(`${prefix}${filter}`, depth);
  }
  if (depth >= maxDepth) return;
  for (const relation of manager.entry.relations) {
    if (cameBy !== undefined && relation.name === cameBy) continue;
    const relationTokens = tokenize(relation.name);
    if (!sameTokens(tokens, at, relationTokens) || at + relationTokens.length >= tokens.length) continue;
    const next = index.indexed(relation.target);
    if (next !== undefined) {
      spellings(index, next, tokens, at + relationTokens.length, `${prefix}${relation.name}__`, depth + 1, manager.reverseNames.get(relation.name), found, maxDepth);
    }
  }
}
