import { canonicalHash, PlumbError } from '../core/index.js';
import type { CatalogueEntry, Effect, JsonSchema, ReadSpec } from './types.js';
import { EFFECTS, READ_FIELD_TYPES } from './types.js';
import { identifierWords, stem } from './text.js';

/** One parameter as the router reads it. */
export interface ParameterInfo {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly type: string;
  readonly format: string | null;
  readonly required: boolean;
  readonly words: readonly string[];
  readonly enumValues: readonly string[] | null;
  /** For an array parameter: the values its items may take, where the schema lists them. */
  readonly itemEnum: readonly string[] | null;
}

export interface ToolInfo {
  readonly entry: CatalogueEntry;
  readonly name: string;
  readonly effect: Effect;
  readonly nameWords: readonly string[];
  readonly descriptionWords: readonly string[];
  readonly parameters: readonly ParameterInfo[];
  readonly byName: ReadonlyMap<string, ParameterInfo>;
  /** The period parameters, where the tool takes a start and an end (`time_min`/`time_max`, …). */
  readonly period: { readonly start: string; readonly end: string } | null;
}

export interface Catalogue {
  readonly entries: readonly CatalogueEntry[];
  readonly tools: ReadonlyMap<string, ToolInfo>;
  readonly version: string;
}

const PERIOD_PAIRS: readonly (readonly [string, string])[] = [
  ['time_min', 'time_max'], ['start_time', 'end_time'], ['start', 'end'], ['from', 'to'], ['start_date', 'end_date'],
  ['date_from', 'date_to'], ['since', 'until'], ['after', 'before'], ['timeMin', 'timeMax'], ['startTime', 'endTime'], ['startDate', 'endDate'],
  ['check_in', 'check_out'], ['check_in_date', 'check_out_date'], ['checkin', 'checkout'], ['checkInDate', 'checkOutDate'],
  ['inicio', 'fim'], ['data_inicio', 'data_fim'], ['data_inicial', 'data_final'], ['dataInicio', 'dataFim'],
];

/** Checks and indexes a catalogue. Its version is the SHA-256 of its canonical JSON unless given. */
export function loadCatalogue(entries: readonly CatalogueEntry[], version?: string): Catalogue {
  if (!Array.isArray(entries)) throw new PlumbError('router_invalid_catalogue', 'The catalogue must be an array of tool entries.');
  const tools = new Map<string, ToolInfo>();
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as CatalogueEntry;
    const where = `Catalogue entry ${index}${typeof entry?.name === 'string' ? ` ('${entry.name}')` : ''}`;
    if (typeof entry?.name !== 'string' || entry.name.length === 0) throw new PlumbError('router_invalid_catalogue', `${where} has no name.`);
    if (typeof entry.description !== 'string') throw new PlumbError('router_invalid_catalogue', `${where} has no description string.`);
    if (!EFFECTS.includes(entry.effect)) throw new PlumbError('router_invalid_catalogue', `${where} has effect '${String(entry.effect)}'. Effects: read, write, irreversible.`);
    if (typeof entry.parameters !== 'object' || entry.parameters === null) throw new PlumbError('router_invalid_catalogue', `${where} has no parameters schema (an object JSON Schema).`);
    checkReadParts(entry, where);
    if (tools.has(entry.name)) throw new PlumbError('router_invalid_catalogue', `${where} repeats the name '${entry.name}'.`);
    tools.set(entry.name, indexTool(entry));
  }
  for (const info of tools.values()) {
    if (info.entry.undo !== undefined && !tools.has(info.entry.undo)) {
      throw new PlumbError('router_invalid_catalogue', `Tool '${info.name}' names undo tool '${info.entry.undo}', which is not in the catalogue.`);
    }
  }
  return Object.freeze({ entries, tools, version: version ?? canonicalHash(entries as unknown as object[]).slice(0, 16) });
}

/** Whether the router's own planning may choose this entry (not a data read, not check-only). */
export function isPlannable(entry: CatalogueEntry): boolean {
  return entry.reads === undefined && entry.checkOnly !== true;
}

function checkReadParts(entry: CatalogueEntry, where: string): void {
  const bad = (message: string): never => {
    throw new PlumbError('router_invalid_catalogue', `${where} ${message}`);
  };
  if (entry.checkOnly !== undefined && typeof entry.checkOnly !== 'boolean') bad(`has checkOnly '${String(entry.checkOnly)}': give true or false.`);
  if (entry.reads === undefined) return;
  if (entry.checkOnly === true) bad('is both a data read and check-only: a read entry is planned by the data-read pass, a check-only entry never.');
  if (entry.effect !== 'read') bad(`reads data but has effect '${entry.effect}': a data read has effect read.`);
  const spec = entry.reads as ReadSpec | null;
  if (typeof spec !== 'object' || spec === null) bad('has reads that is not an object { manager, fields, lookups }.');
  const reads = spec as ReadSpec;
  if (typeof reads.manager !== 'string' || reads.manager.length === 0) bad('has reads with no manager name.');
  if (!Array.isArray(reads.fields) || reads.fields.length === 0 || reads.fields.some((f) => typeof f !== 'string' || f.length === 0)) {
    bad(`has reads.fields that is not a non-empty list of field names (manager ${reads.manager}).`);
  }
  if (!Array.isArray(reads.lookups)) bad(`has reads.lookups that is not a list (manager ${reads.manager}).`);
  if (reads.many !== undefined && (!Array.isArray(reads.many) || reads.many.some((r) => typeof r !== 'string' || r.length === 0))) bad(`has reads.many that is not a list of relation names (manager ${reads.manager}).`);
  const keys = new Set<string>();
  reads.lookups.forEach((lookup, i) => {
    const at = `reads.lookups[${i}]`;
    if (typeof lookup !== 'object' || lookup === null) bad(`has ${at} that is not an object { key, manager, field, type, through }.`);
    if (typeof lookup.manager !== 'string' || lookup.manager.length === 0 || typeof lookup.field !== 'string' || lookup.field.length === 0) bad(`has ${at} with no manager or field.`);
    if (!READ_FIELD_TYPES.includes(lookup.type)) bad(`has ${at} ('${String(lookup.key)}') with type '${String(lookup.type)}'. Types: ${READ_FIELD_TYPES.join(', ')}.`);
    if (!Array.isArray(lookup.through) || lookup.through.some((t) => typeof t !== 'string' || t.length === 0)) bad(`has ${at} ('${String(lookup.key)}') whose through is not a list of relation names.`);
    if (lookup.nullable !== undefined && typeof lookup.nullable !== 'boolean') bad(`has ${at} ('${String(lookup.key)}') with nullable '${String(lookup.nullable)}': give true or false.`);
    if (lookup.through.length > 2) bad(`has ${at} ('${lookup.key}') walking ${lookup.through.length} relations; a lookup walks at most 2.`);
    const expected = [...lookup.through, lookup.field].join('__');
    if (lookup.key !== expected) bad(`has ${at} with key '${String(lookup.key)}', but its through and field make '${expected}'.`);
    if (lookup.through.length === 0 && lookup.manager !== reads.manager) bad(`has ${at} ('${lookup.key}') on manager ${lookup.manager} with no relation walked; an own field belongs to ${reads.manager}.`);
    if (keys.has(lookup.key)) bad(`repeats the lookup '${lookup.key}'.`);
    keys.add(lookup.key);
  });
}

function indexTool(entry: CatalogueEntry): ToolInfo {
  const required = new Set(entry.parameters.required ?? []);
  const parameters: ParameterInfo[] = Object.entries(entry.parameters.properties ?? {}).map(([name, schema]) => {
    const type = Array.isArray(schema.type) ? String(schema.type[0] ?? 'string') : typeof schema.type === 'string' ? schema.type : 'string';
    return {
      name,
      schema,
      type: normalizeType(type),
      format: schema.format ?? null,
      required: required.has(name),
      words: identifierWords(name).map(stem),
      enumValues: Array.isArray(schema.enum) ? schema.enum.map((value) => String(value)) : null,
      itemEnum: Array.isArray(schema.items?.enum) ? schema.items.enum.map((value) => String(value)) : null,
    };
  });
  const byName = new Map(parameters.map((p) => [p.name, p]));
  let period: ToolInfo['period'] = null;
  for (const [start, end] of PERIOD_PAIRS) if (byName.has(start) && byName.has(end)) period = { start, end };
  return {
    entry,
    name: entry.name,
    effect: entry.effect,
    nameWords: identifierWords(entry.name).map(stem),
    descriptionWords: (entry.description.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stem),
    parameters,
    byName,
    period,
  };
}

function normalizeType(type: string): string {
  switch (type) {
    case 'int': case 'long': return 'integer';
    case 'float': case 'double': return 'number';
    case 'bool': return 'boolean';
    case 'dict': case 'object': return 'object';
    case 'list': case 'tuple': case 'array': return 'array';
    case 'str': case 'any': return 'string';
    default: return type;
  }
}

/** The structural shape the tools folder renders for a Plumb tool. */
export interface ToolDefinitionLike {
  readonly name: string;
  readonly description: string;
  readonly effect: Effect;
  readonly parameters: JsonSchema | Readonly<Record<string, unknown>>;
  readonly outputs?: CatalogueEntry['outputs'];
  readonly undo?: string;
}

/** Turns Plumb tool definitions (name, description, effect, parameters as JSON Schema) into catalogue entries. */
export function catalogueFromTools(defs: readonly ToolDefinitionLike[]): CatalogueEntry[] {
  return defs.map((def) => ({
    name: def.name,
    description: def.description,
    parameters: def.parameters,
    effect: def.effect,
    ...(def.outputs === undefined ? {} : { outputs: def.outputs }),
    ...(def.undo === undefined ? {} : { undo: def.undo }),
  }));
}
