import { canonicalHash, PlumbError } from '../core/index.js';
import type { CatalogueEntry, Effect, JsonSchema } from './types.js';
import { EFFECTS } from './types.js';
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
