/**
 * What a turn gives that a plan would leave out: a proper name no argument took ("Shape of You by Ed
 * Sheeran" with no artist placed), or a word of a known kind — a colour, a unit, a language — that an
 * open parameter of that kind should hold. A plan that leaves either out is not run: the turn asked
 * for more than was read.
 */
import type { JsonValue } from '../core/index.js';
import type { CompiledLanguage, CompiledParameter, CompiledTool } from './compile.js';
import { fold, stem } from './text.js';

/** Kinds of word a parameter named for the kind takes as typed, where it has no enum of its own. */
const CLASSES: readonly { readonly names: RegExp; readonly words: ReadonlySet<string>; readonly asTyped: boolean }[] = [
  { names: /colou?r/, words: new Set(['red', 'blue', 'green', 'yellow', 'black', 'white', 'orange', 'purple', 'pink', 'brown', 'gray', 'grey', 'violet', 'silver', 'gold']), asTyped: true },
  {
    names: /^units?$|_units?$|^unit_|measure|scale|system/,
    words: new Set(['inch', 'inches', 'cm', 'centimeter', 'centimeters', 'meter', 'meters', 'metre', 'metres', 'feet', 'foot', 'mile', 'miles', 'kilometer', 'kilometers', 'km', 'kg', 'kilogram', 'kilograms', 'pound', 'pounds', 'lbs', 'gram', 'grams', 'celsius', 'fahrenheit', 'kelvin', 'liter', 'liters', 'litre', 'litres', 'gallon', 'gallons', 'metric', 'imperial']),
    asTyped: true,
  },
  { names: /language|lang|locale/, words: new Set(['english', 'spanish', 'french', 'german', 'italian', 'portuguese', 'chinese', 'japanese', 'korean', 'russian', 'arabic', 'hindi', 'dutch']), asTyped: false },
];

const NAME = /\p{Lu}[\p{L}\p{N}'’-]*(?:\.(?=\p{Lu}))?(?:\s+(?:of\s+|de\s+|da\s+|do\s+)?\p{Lu}[\p{L}\p{N}'’-]*)*/gu;
const SENTENCE_START = /(?:^|[.?!:;]\s+|\n\s*|["“'(]\s*)$/;

/** A word of a known kind the clause says for an open parameter of that kind: its value as typed, or null (the parameter stays open). */
export function classValues(tool: CompiledTool, folded: string, typed: string, filled: Readonly<Record<string, JsonValue>>): { parameter: CompiledParameter; value: string | null }[] {
  const out: { parameter: CompiledParameter; value: string | null }[] = [];
  const placed = Object.values(filled).flatMap(texts).map((t) => fold(t));
  for (const cls of CLASSES) {
    const open = tool.parameters.filter((p) => !(p.info.name in filled) && cls.names.test(p.info.name.toLowerCase()));
    if (open.length === 0) continue;
    const said = [...folded.matchAll(/[a-z]+/g)].filter((m) => cls.words.has(m[0]) && !placed.some((p) => p.includes(m[0])));
    if (said.length === 0) continue;
    // Two open parameters of one kind, two words of it, or a unit said of a number ("70 kg": kg, or metric?): no one value.
    const one = said.length === 1 && open.length === 1 ? (said[0] as RegExpMatchArray) : null;
    const attached = one !== null && /\d\s*$/.test(folded.slice(0, one.index));
    const p = open[0] as CompiledParameter;
    const value = one !== null && !attached && cls.asTyped && p.info.enumValues === null && p.info.type === 'string' ? typed.slice(one.index, (one.index as number) + one[0].length) : null;
    for (const q of open) out.push({ parameter: q, value: q === p ? value : null });
  }
  return out;
}

export interface ProperName {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** The proper names of a clause no argument holds and that name nothing the tool itself says. */
export function unplacedNames(lang: CompiledLanguage, tool: CompiledTool, typed: string, args: Readonly<Record<string, JsonValue>>, covered: readonly (readonly [number, number])[]): string[] {
  return properNames(lang, tool, typed, args, covered).map((n) => n.text);
}

/** Capitalized names of a clause (not a sentence's first word, a unit, the tool's own words or a value already placed). */
export function properNames(lang: CompiledLanguage, tool: CompiledTool, typed: string, args: Readonly<Record<string, JsonValue>>, covered: readonly (readonly [number, number])[]): ProperName[] {
  const placed = Object.values(args).flatMap(texts).map((t) => fold(t));
  const known = new Set([...tool.keyWords, ...tool.descriptionWords]);
  const enums = new Set(tool.parameters.flatMap((p) => p.info.enumValues ?? []).map((v) => fold(v)));
  const out: ProperName[] = [];
  for (const m of typed.matchAll(NAME)) {
    const start = m.index;
    const end = start + m[0].length;
    if (covered.some(([s, e]) => start < e && end > s)) continue;
    // A capitalized word right after a number is its unit or currency ("5 Ampere", "50 million USD").
    if (/\d\s*$|\d\s+(?:thousand|million|billion)\s+$/i.test(typed.slice(0, start))) continue;
    let words = m[0].split(/\s+/);
    let from = start;
    // The first word of a sentence is capitalized for the sentence, not for a name.
    if (SENTENCE_START.test(typed.slice(0, start))) {
      from = start + (words[0] ?? '').length + (words.length > 1 ? typed.slice(start).search(/\s\S/) + 1 - (words[0] ?? '').length : 0);
      words = words.slice(1);
    }
    const name = words.join(' ').replace(/['’]s$/, '').replace(/[.'’]+$/, '');
    if (name.length < 2) continue;
    // A one-word name right before a noun describes the noun ("German history", "Italian food").
    const next = /^\s+(\p{Ll}[\p{L}]*)/u.exec(typed.slice(end))?.[1];
    if (words.length === 1 && next !== undefined && !lang.stopwords.has(fold(next))) continue;
    const folded = fold(name);
    const parts = folded.split(/\s+/).filter((w) => w.length > 0);
    if (parts.every((w) => lang.stopwords.has(w) || w === 'i' || /^i['’]/.test(w) || known.has(stem(w)) || enums.has(w))) continue;
    if (enums.has(folded) || placed.some((p) => p.includes(folded) || (folded.includes(p) && p.length > 2))) continue;
    out.push({ text: name, start: from, end: from + name.length });
  }
  return out;
}

function texts(value: JsonValue): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => texts(v as JsonValue));
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap((v) => texts(v));
  return [];
}
