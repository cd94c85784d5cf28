/** The router's catalogue entries for an app's data: one data read per exposed manager, from the schema index. */
import type { CatalogueEntry, ReadFieldType, ReadLookup } from '../router/index.js';
import { READ_FIELD_TYPES } from '../router/index.js';
import type { IndexedManager, SchemaIndex, Tool } from '../tools/index.js';
import { renderTool } from '../tools/index.js';

/** How many relations a read's lookups walk at most. */
export const MAX_READ_DEPTH = 2;

export interface ReadTool {
  readonly manager: string;
  readonly tool: Tool;
}

/**
 * One `reads` catalogue entry per direct-strategy read tool: its parameters are the tool's rendered
 * schema (so that a model's call of the same tool passes the check), its fields the manager's scalar
 * fields and its lookups every filterable field of the manager and of the managers its relations
 * reach within two hops (never walking straight back, never revisiting a manager).
 */
export function readEntries(index: SchemaIndex, tools: readonly ReadTool[]): CatalogueEntry[] {
  return tools.map(({ manager, tool }) => {
    const indexed = index.indexed(manager);
    if (indexed === undefined) throw new Error(`The schema index has no exposed manager '${manager}'.`);
    const rendered = renderTool(tool);
    return {
      name: rendered.name,
      description: rendered.description,
      parameters: rendered.parameters,
      effect: 'read' as const,
      outputs: { identity: 'id' },
      reads: {
        manager,
        fields: indexed.entry.fields.filter((field) => asReadType(field.type) !== null).map((field) => field.name),
        lookups: lookupsOf(index, indexed),
        many: indexed.entry.relations.filter((r) => r.cardinality !== 'one' && index.indexed(r.target) !== undefined).map((r) => r.name),
      },
    };
  });
}

function lookupsOf(index: SchemaIndex, subject: IndexedManager): ReadLookup[] {
  const out: ReadLookup[] = [];
  const visit = (manager: IndexedManager, through: readonly string[], visited: ReadonlySet<string>, cameBy: string | undefined): void => {
    for (const field of manager.entry.fields) {
      const type = asReadType(field.type);
      if (type === null || !manager.filterSet.has(field.name)) continue;
      const nullable = manager.filterSet.has(`${field.name}__isnull`);
      out.push({ key: [...through, field.name].join('__'), manager: manager.entry.manager, field: field.name, type, through: [...through], ...(nullable ? { nullable } : {}) });
    }
    if (through.length >= MAX_READ_DEPTH) return;
    for (const relation of manager.entry.relations) {
      if (relation.name === cameBy || visited.has(relation.target)) continue;
      const next = index.indexed(relation.target);
      if (next === undefined) continue;
      visit(next, [...through, relation.name], new Set([...visited, relation.target]), manager.reverseNames.get(relation.name));
    }
  };
  visit(subject, [], new Set([subject.entry.manager]), undefined);
  return out;
}

function asReadType(type: string): ReadFieldType | null {
  if (type === 'id') return 'integer';
  return (READ_FIELD_TYPES as readonly string[]).includes(type) ? (type as ReadFieldType) : null;
}
