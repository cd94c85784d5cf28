/** Hand-written data-read entries for the demo's managers (the app reader generates these from an app). */
import type { CatalogueEntry, ReadLookup } from '../../router/index.js';

const schema = {
  type: 'object',
  properties: {
    fields: { type: 'array', items: { type: 'string' } },
    filters: { type: 'object' },
    limit: { type: 'integer', minimum: 1 },
  },
  required: ['fields'],
  additionalProperties: false,
} as const;

function lookup(manager: string, field: string, type: ReadLookup['type'], ...through: string[]): ReadLookup {
  return { key: [...through, field].join('__'), manager, field, type, through };
}

function entry(manager: string, fields: string[], lookups: ReadLookup[]): CatalogueEntry {
  const snake = manager.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  return { name: `query_${snake}`, description: `Read ${manager} rows.`, effect: 'read', parameters: schema, reads: { manager, fields, lookups } };
}

export const readEntries: readonly CatalogueEntry[] = [
  entry('Material', ['id', 'name', 'density'], [
    lookup('Material', 'name', 'string'), lookup('Material', 'density', 'float'),
    lookup('Part', 'name', 'string', 'parts'), lookup('Part', 'stock', 'integer', 'parts'),
  ]),
  entry('Part', ['id', 'name', 'sku', 'unitPrice', 'stock'], [
    lookup('Part', 'name', 'string'), lookup('Part', 'stock', 'integer'), lookup('Part', 'unitPrice', 'decimal'),
    lookup('Material', 'name', 'string', 'material'), lookup('Material', 'density', 'float', 'material'),
    lookup('Project', 'name', 'string', 'projects'), lookup('Project', 'status', 'enum', 'projects'),
  ]),
  entry('Project', ['id', 'name', 'status', 'budget', 'owner'], [
    lookup('Project', 'name', 'string'), lookup('Project', 'status', 'enum'), lookup('Project', 'budget', 'decimal'),
    lookup('Part', 'name', 'string', 'parts'), lookup('Material', 'name', 'string', 'parts', 'material'),
    lookup('Task', 'done', 'boolean', 'tasks'), lookup('Task', 'title', 'string', 'tasks'),
  ]),
  entry('Task', ['id', 'title', 'dueDate', 'done'], [
    lookup('Task', 'title', 'string'), lookup('Task', 'done', 'boolean'),
    lookup('Project', 'name', 'string', 'project'), lookup('Project', 'status', 'enum', 'project'),
    lookup('Part', 'name', 'string', 'project', 'parts'),
  ]),
];

/** English data words the app reader would generate, plus the seed's values. */
export const generatedDataWords = {
  managers: { Material: ['material', 'materials'], Part: ['part', 'parts'], Project: ['project', 'projects'], Task: ['task', 'tasks'], Order: ['order', 'orders'] },
  fields: { 'Material.density': ['density'], 'Part.stock': ['stock'], 'Project.budget': ['budget'] },
  values: {
    'Material.name': { Steel: [], Aluminum: [], Copper: [] },
    'Project.name': { Apollo: [], Mercury: [] },
    'Project.status': { active: [], done: [], on_hold: ['on hold'] },
    'Part.name': { Bolt: [], Gear: [] },
  },
};
