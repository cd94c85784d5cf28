/** What kind of value a tool's parameter takes, read from its name, type and description. */
import type { CompiledParameter } from './compile.js';
import { dayFormat } from './date-formats.js';

export const PLACE_WORDS = new Set(['location', 'city', 'place', 'town', 'region', 'country', 'area', 'local', 'cidade', 'lugar', 'regiao', 'pai']);
const START_WORDS = /(?:^|_)(?:start|origin|from|source|departure|depart|pickup)(?:_|$)|^(?:start|origin|from|source|departure)/i;
const END_WORDS = /(?:^|_)(?:end|destination|to|target|arrival|dest|dropoff)(?:_|$)|^(?:end|destination|to|target|arrival)/i;
const LOWER_WORDS = /(?:^|_)(?:start|from|begin|lower|min|first|inicio|de)(?:_|$)|^(?:start|from|begin|lower|min)/i;
const UPPER_WORDS = /(?:^|_)(?:end|to|stop|upper|max|last|fim|ate)(?:_|$)|^(?:end|to|stop|upper|max)/i;

/** The one lower and the one upper numeric parameter of a tool, if it has exactly such a pair. */
export function numericPair(params: readonly CompiledParameter[]): [CompiledParameter, CompiledParameter] | null {
  const lows = params.filter((p) => LOWER_WORDS.test(p.info.name));
  const highs = params.filter((p) => UPPER_WORDS.test(p.info.name) && !lows.includes(p));
  return lows.length === 1 && highs.length === 1 ? [lows[0] as CompiledParameter, highs[0] as CompiledParameter] : null;
}

/** The one start place and the one end place among free-text parameters, if the tool has exactly such a pair. */
export function placePair(params: readonly CompiledParameter[]): [CompiledParameter, CompiledParameter] | null {
  const starts = params.filter((p) => START_WORDS.test(p.info.name));
  const ends = params.filter((p) => END_WORDS.test(p.info.name) && !starts.includes(p));
  return starts.length === 1 && ends.length === 1 ? [starts[0] as CompiledParameter, ends[0] as CompiledParameter] : null;
}

export function isFreeText(p: CompiledParameter): boolean {
  return p.info.type === 'string' && p.pattern === null && p.info.format === null && p.info.enumValues === null && !looksLikeIdentifier(p.info.name);
}

/** A parameter that names one row by its number: an id, a code, or digits only by its pattern. */
export function identifies(p: CompiledParameter): boolean {
  return (p.info.type === 'string' || p.info.type === 'integer') && (looksLikeIdentifier(p.info.name) || p.pattern?.source === '^[0-9]+$');
}

export function looksLikeIdentifier(name: string): boolean {
  return /(?:^|_|[a-z])(?:id|Id|ID|code|number|num|no|zip)$/.test(name);
}

export function isDateParameter(p: CompiledParameter): boolean {
  return p.info.format === 'date' || p.info.format === 'date-time';
}

/** A date parameter that takes a day, not an instant: `format: date`, a day format its description names, or a plain `*_date` string. */
export function takesDay(p: CompiledParameter): boolean {
  const format = dayFormat(p);
  if (format === 'time' || p.info.format === 'date-time') return false;
  return format !== null || (p.info.format === null && p.info.words.some((w) => w === 'date' || w === 'data') && !p.info.words.includes('time'));
}

/**
 * How a parameter takes a percentage ("6%"), by its description: as a fraction (0.06) where it says
 * decimal or fraction, as the figure (6) where it says percent; null where it says neither.
 */
export function percentForm(p: CompiledParameter): 'fraction' | 'figure' | null {
  const description = (p.info.schema.description ?? '').toLowerCase();
  if (/decimal|fraction|proportion|between 0 and 1|0 to 1|0\.0\d|e\.g\.,? 0\.\d/.test(description)) return 'fraction';
  if (/percent|percentage|%/.test(description)) return 'figure';
  return null;
}

const QUALIFIED_WORDS = /city,\s*(?:state|country|province)|city and (?:state|country)|state,\s*country|format of ['"][^'"]+,\s*[^'"]+['"]/;
const QUALIFIED_EXAMPLE = /\b(?:e\.g\.|such as|like|for example)[:,]?\s*['"]?(?:\p{Lu}[\p{L}.]*\s?)+,\s*\p{Lu}[\p{L}]+/u;

/** Whether a free-text parameter's description asks for a place with its state or country ("City, State"). */
export function qualifiedPlace(p: CompiledParameter): boolean {
  const description = p.info.schema.description ?? '';
  const place = p.info.words.some((w) => PLACE_WORDS.has(w) || ['loc', 'destination', 'origin', 'address', 'state'].includes(w)) || /\b(?:city|location|place|town)\b/i.test(description);
  return p.info.type === 'string' && place && (QUALIFIED_WORDS.test(description.toLowerCase()) || QUALIFIED_EXAMPLE.test(description));
}

/** For an array parameter whose items are numbers or text: a parameter of the item's type, to read each item with. */
export function itemParameter(p: CompiledParameter): CompiledParameter | null {
  const items = p.info.schema.items;
  if (p.info.type !== 'array' || items === undefined || Array.isArray(items.enum)) return null;
  const type = typeof items.type === 'string' ? items.type : 'string';
  if (!['integer', 'number', 'string', 'float', 'int'].includes(type)) return null;
  const normalized = type === 'float' ? 'number' : type === 'int' ? 'integer' : type;
  return { ...p, info: { ...p.info, type: normalized, enumValues: null, itemEnum: null, schema: { ...items, description: p.info.schema.description ?? '' } }, pattern: null };
}

/** A `city` parameter whose description asks for no state or country takes the city of "Rutherford, NJ" or "Paris, France". */
export function cityOnly(p: CompiledParameter, place: string): string {
  const city = p.info.words.some((w) => w === 'city' || w === 'cidade');
  if (!city || qualifiedPlace(p) || /\b(?:state|country|province|estado|pais|país)\b/i.test(p.info.schema.description ?? '')) return place;
  return /^([^,]+),\s*\S/.exec(place)?.[1]?.trim() ?? place;
}
