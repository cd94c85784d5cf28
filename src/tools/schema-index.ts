import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import type { ChatApp, ChatCardinality, ChatManager, ChatRelation } from './chat-app.js';
import { ownFilterKeys } from './filter-keys.js';
import { tokenize } from './tokens.js';

/** One exposed manager as the chat tools describe it. */
export interface SchemaIndexEntry {
  readonly manager: string;
  readonly description: string;
  readonly fields: readonly { readonly name: string; readonly type: string }[];
  readonly relations: readonly { readonly name: string; readonly target: string; readonly cardinality: ChatCardinality }[];
  /** Lookup keys on the manager itself; traverse a relation with `<relation>__<key of its target>`. */
  readonly filters: readonly string[];
  /** The manager's catalogue metadata, when it has any (`distinguishFrom` lists exposed managers only). */
  readonly catalog?: SchemaCatalog;
  /** The host's named conditions: a name, what it means, and the filter it stands for. */
  readonly conditions?: readonly SchemaCondition[];
}

export interface SchemaCondition {
  readonly name: string;
  readonly description: string;
  readonly filter: JsonObject;
}

export interface SchemaCatalog {
  /** Words a person says for the manager, folded: trimmed, lower case, each once. */
  readonly aliases?: readonly string[];
  readonly domain?: string;
  readonly useWhen?: string;
  readonly distinguishFrom?: readonly string[];
}

/** What search and validation precompute per entry. */
export interface IndexedManager {
  readonly entry: SchemaIndexEntry;
  readonly nameTokens: readonly string[];
  /** The aliases' words: search scores them as the name's. */
  readonly aliasTokens: ReadonlySet<string>;
  readonly strongTokens: ReadonlySet<string>;
  readonly weakTokens: ReadonlySet<string>;
  readonly haystack: string;
  readonly fieldTypes: ReadonlyMap<string, string>;
  readonly relationTargets: ReadonlyMap<string, string>;
  /** Relation name → the reverse relation's name on its target (to refuse walking straight back). */
  readonly reverseNames: ReadonlyMap<string, string | undefined>;
  readonly filterSet: ReadonlySet<string>;
}

export interface RelationEdge {
  readonly relation: string;
  readonly to: string;
}

/** The exposed part of an app's schema, sorted, with a fingerprint over its canonical JSON. */
export interface SchemaIndex {
  readonly entries: readonly SchemaIndexEntry[];
  /** SHA-256 hex of the entries' canonical JSON. */
  readonly fingerprint: string;
  /** The entry of an exposed manager; undefined for unknown and hidden alike. */
  entry(name: string): SchemaIndexEntry | undefined;
  indexed(name: string): IndexedManager | undefined;
  /** Relation edges out of a manager, both directions, sorted by relation name. */
  edges(name: string): readonly RelationEdge[];
  readonly all: readonly IndexedManager[];
}

export function targetName(relation: ChatRelation): string {
  return typeof relation.target === 'string' ? relation.target : relation.target.name;
}

export function cardinalityOf(relation: ChatRelation): ChatCardinality {
  return relation.cardinality ?? relation.kind ?? 'one';
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Builds the index of the managers an app exposes to chat (`chatExposed: true`). */
export function buildSchemaIndex(managers: readonly ChatManager[]): SchemaIndex {
  const exposed = new Set(managers.filter((manager) => manager.chatExposed).map((manager) => manager.name));
  const tokensOf = memoTokenize();
  const all: IndexedManager[] = managers
    .filter((manager) => manager.chatExposed)
    .sort((a, b) => byName(a.name, b.name))
    .map((manager) => indexManager(manager, exposed, tokensOf));
  const entries = all.map((item) => item.entry);
  const byManager = new Map(all.map((item) => [item.entry.manager, item]));
  const fingerprint = fingerprintOf(entries);
  const edges = buildEdges(all, byManager);
  const none: readonly RelationEdge[] = Object.freeze([]);
  return Object.freeze({
    edges: (name: string) => edges.get(name) ?? none,
    entries: Object.freeze(entries),
    fingerprint,
    all: Object.freeze(all),
    entry: (name: string) => byManager.get(name)?.entry,
    indexed: (name: string) => byManager.get(name),
  });
}

/**
 * SHA-256 of the entries' RFC 8785 canonical JSON. The entries hold only strings and arrays, so
 * JSON.stringify of objects built with sorted keys is that canonical text (and far faster than a
 * general canonicalizer on a large schema); a test checks it against `canonicalHash`.
 */
function fingerprintOf(entries: readonly SchemaIndexEntry[]): string {
  const hash = createHash('sha256');
  hash.update('[');
  entries.forEach((entry, i) => {
    if (i > 0) hash.update(',');
    const q = JSON.stringify;
    let text = `{${entry.catalog === undefined ? '' : `"catalog":${catalogJson(entry.catalog)},`}${entry.conditions === undefined ? '' : `"conditions":${canonicalJson(entry.conditions)},`}"description":${q(entry.description)},"fields":[`;
    entry.fields.forEach((field, k) => {
      text += `${k > 0 ? ',' : ''}{"name":${q(field.name)},"type":${q(field.type)}}`;
    });
    text += `],"filters":${q(entry.filters)},"manager":${q(entry.manager)},"relations":[`;
    entry.relations.forEach((relation, k) => {
      text += `${k > 0 ? ',' : ''}{"cardinality":${q(relation.cardinality)},"name":${q(relation.name)},"target":${q(relation.target)}}`;
    });
    hash.update(`${text}]}`);
  });
  hash.update(']');
  return hash.digest('hex');
}

/** A catalogue's canonical JSON: keys in order, the absent ones left out. */
function catalogJson(catalog: SchemaCatalog): string {
  const parts: string[] = [];
  if (catalog.aliases !== undefined) parts.push(`"aliases":${JSON.stringify(catalog.aliases)}`);
  if (catalog.distinguishFrom !== undefined) parts.push(`"distinguishFrom":${JSON.stringify(catalog.distinguishFrom)}`);
  if (catalog.domain !== undefined) parts.push(`"domain":${JSON.stringify(catalog.domain)}`);
  if (catalog.useWhen !== undefined) parts.push(`"useWhen":${JSON.stringify(catalog.useWhen)}`);
  return `{${parts.join(',')}}`;
}

function memoTokenize(): (text: string) => readonly string[] {
  const cache = new Map<string, readonly string[]>();
  return (text) => {
    let tokens = cache.get(text);
    if (tokens === undefined) {
      tokens = tokenize(text);
      cache.set(text, tokens);
    }
    return tokens;
  };
}

/** Operator words that appear in filter keys (`name__icontains`). */
const operatorTokens = ['exact', 'iexact', 'contains', 'icontains', 'startswith', 'in', 'gt', 'gte', 'lt', 'lte', 'isnull'];

function indexManager(manager: ChatManager, exposed: ReadonlySet<string>, tokensOf: (text: string) => readonly string[]): IndexedManager {
  const visibleRelations = manager.relations.filter((relation) => exposed.has(targetName(relation)));
  const fields = manager.fields.map((field) => ({ name: field.name, type: field.type }));
  const relations = visibleRelations
    .map((relation) => ({ name: relation.name, target: targetName(relation), cardinality: cardinalityOf(relation) }))
    .sort((a, b) => byName(a.name, b.name));
  const filters = ownFilterKeys(manager.fields, visibleRelations, cardinalityOf);
  const catalog = catalogOf(manager, exposed);
  const conditions = (manager.conditions ?? []).map((c): SchemaCondition => ({ name: c.name, description: c.description ?? '', filter: c.filter as JsonObject }));
  const entry: SchemaIndexEntry = Object.freeze({
    manager: manager.name,
    description: manager.description ?? '',
    fields: Object.freeze(fields),
    relations: Object.freeze(relations),
    filters: Object.freeze(filters),
    ...(catalog === undefined ? {} : { catalog }),
    ...(conditions.length === 0 ? {} : { conditions: Object.freeze(conditions) }),
  });
  const nameTokens = tokensOf(manager.name);
  const aliasTokens = new Set((catalog?.aliases ?? []).flatMap((alias) => tokensOf(alias)));
  const strong = new Set<string>();
  for (const field of fields) for (const token of tokensOf(field.name)) strong.add(token);
  for (const relation of relations) for (const token of tokensOf(relation.name)) strong.add(token);
  // The catalogue ranks: its domain as strongly as a field, its use-when as the description.
  for (const token of tokensOf(catalog?.domain ?? '')) strong.add(token);
  // A condition is found by its name as strongly as a field ("overdue"), by its words and description as the description.
  for (const c of manager.conditions ?? []) for (const token of tokensOf(c.name)) strong.add(token);
  // A filter key's words are its field or relation name and its operator.
  const weak = new Set<string>([...tokensOf(entry.description), ...tokensOf(catalog?.useWhen ?? '')]);
  for (const c of manager.conditions ?? []) for (const text of [c.description ?? '', ...(c.words?.en ?? []), ...(c.words?.['pt-BR'] ?? [])]) for (const token of tokensOf(text)) weak.add(token);
  if (filters.length > 0) for (const token of operatorTokens) weak.add(token);
  const haystack = [...new Set([...nameTokens, ...aliasTokens, ...strong, ...weak])].join(' ');
  return {
    entry,
    nameTokens,
    aliasTokens,
    strongTokens: strong,
    weakTokens: weak,
    haystack,
    fieldTypes: new Map(fields.map((field) => [field.name, field.type])),
    relationTargets: new Map(relations.map((relation) => [relation.name, relation.target])),
    reverseNames: new Map(visibleRelations.map((relation) => [relation.name, relation.reverseName])),
    filterSet: new Set(filters),
  };
}

/** The catalogue an entry shows, with only the exposed managers it is to be told from; undefined when empty. */
function catalogOf(manager: ChatManager, exposed: ReadonlySet<string>): SchemaCatalog | undefined {
  const given = manager.catalog;
  if (given === undefined) return undefined;
  const distinguishFrom = (given.distinguishFrom ?? []).filter((name) => exposed.has(name)).sort(byName);
  const aliases = [...new Set((given.aliases ?? []).map((alias) => alias.trim().replace(/\s+/g, ' ').toLowerCase()))];
  const catalog: SchemaCatalog = {
    ...(aliases.length === 0 ? {} : { aliases: Object.freeze(aliases) }),
    ...(distinguishFrom.length === 0 ? {} : { distinguishFrom: Object.freeze(distinguishFrom) }),
    ...(given.domain === undefined ? {} : { domain: given.domain }),
    ...(given.useWhen === undefined ? {} : { useWhen: given.useWhen }),
  };
  return Object.keys(catalog).length === 0 ? undefined : Object.freeze(catalog);
}

function buildEdges(all: readonly IndexedManager[], byManager: ReadonlyMap<string, IndexedManager>): Map<string, RelationEdge[]> {
  const edges = new Map<string, RelationEdge[]>();
  const add = (from: string, edge: RelationEdge): void => {
    const list = edges.get(from) ?? [];
    if (!list.some((known) => known.relation === edge.relation && known.to === edge.to)) list.push(edge);
    edges.set(from, list);
  };
  for (const item of all) {
    for (const relation of item.entry.relations) {
      add(item.entry.manager, { relation: relation.name, to: relation.target });
      const target = byManager.get(relation.target);
      const hasReverse = target?.entry.relations.some((back) => back.target === item.entry.manager) ?? false;
      if (!hasReverse) add(relation.target, { relation: item.reverseNames.get(relation.name) ?? relation.name, to: item.entry.manager });
    }
  }
  for (const list of edges.values()) list.sort((a, b) => byName(a.relation, b.relation));
  return edges;
}

/** The index of an app, built on first use and kept for the app's lifetime. */
export function createSchemaIndexCache(): (app: Pick<ChatApp, 'managers'>) => SchemaIndex {
  const cache = new WeakMap<object, SchemaIndex>();
  return (app) => {
    let index = cache.get(app);
    if (index === undefined) {
      index = buildSchemaIndex(app.managers);
      cache.set(app, index);
    }
    return index;
  };
}
