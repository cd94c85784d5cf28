/**
 * The generated part of an app reader's vocabulary: English words for managers and fields from the
 * schema, and every indexed value as its own word in both languages. The host's file is merged over it.
 */
import type { ChatApp, ChatManager, SchemaIndex } from '../tools/index.js';
import type { Language, VocabularyFile } from '../router/index.js';
import { portugueseWords } from './pt-words.js';
import { measureNouns, unitHead, unitSayings } from './field-units.js';
import { englishPlural, inflections } from './inflect.js';
import { valueSayings } from './value-words.js';

/** `Manager.field` → its distinct values, for the fields that are indexed. */
export type DataValues = ReadonlyMap<string, readonly string[]>;

/** Longest value indexed as a word. */
export const MAX_VALUE_LENGTH = 40;

/** Words of an identifier: `OrderLine` → `order line`, `unitPrice` → `unit price`, `due_date` → `due date`. */
export function identifierPhrase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\s]+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * A measure noun as a word for the one numeric field of a manager that carries it: "batch size" is
 * `volumeL`, "session length" `durationMin`; a noun two fields carry names neither.
 */
function measuredFields(fields: readonly { readonly name: string; readonly type: string }[]): Map<string, string[]> {
  const byNoun = new Map<string, string[]>();
  for (const field of fields) {
    if (field.type !== 'integer' && field.type !== 'decimal' && field.type !== 'float') continue;
    for (const noun of measureNouns(identifierPhrase(field.name).split(' '))) byNoun.set(noun, [...(byNoun.get(noun) ?? []), field.name]);
  }
  const out = new Map<string, string[]>();
  for (const [noun, names] of byNoun) if (names.length === 1) out.set(names[0] as string, [...(out.get(names[0] as string) ?? []), noun]);
  return out;
}

/** English plural of a phrase's last word: part → parts, category → categories, box → boxes, person → people. */
export function plural(phrase: string): string {
  const words = phrase.split(' ');
  const last = words.pop() ?? '';
  return [...words, englishPlural(last)].join(' ');
}

/** The fields whose values are indexed: short strings (not text) and enums, never the primary key. */
export function valueFields(app: ChatApp, index: SchemaIndex): { manager: string; field: string; type: string; values: readonly string[] | null }[] {
  const out: { manager: string; field: string; type: string; values: readonly string[] | null }[] = [];
  for (const indexed of index.all) {
    const manager = app.managers.find((m) => m.name === indexed.entry.manager);
    for (const field of indexed.entry.fields) {
      if (field.type !== 'string' && field.type !== 'enum') continue;
      const declared = declaredField(manager, field.name);
      if (declared?.primaryKey === true) continue;
      out.push({ manager: indexed.entry.manager, field: field.name, type: field.type, values: field.type === 'enum' ? (declared?.values ?? null) : null });
    }
  }
  return out;
}

function declaredField(manager: ChatManager | undefined, name: string): { readonly primaryKey?: boolean | undefined; readonly values?: readonly string[] | undefined } | undefined {
  return manager?.fields.find((f) => f.name === name);
}

/** Keeps the values worth a word: at most `MAX_VALUE_LENGTH` characters, with a letter in them, trimmed, each once. */
export function wordValues(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const value of values) {
    const trimmed = value.trim();
    if (trimmed.length === 0 || trimmed.length > MAX_VALUE_LENGTH || !/\p{L}/u.test(trimmed)) continue;
    out.add(trimmed);
  }
  return [...out].sort();
}

/** A date field said by its verb: "placed at" → "placed", "due date" → "due" ("orders placed yesterday"). */
export function dateHead(phrase: string): string | null {
  const head = phrase.replace(/\s+(?:at|on|date|time)$/, '');
  return head !== phrase && head.length >= 3 ? head : null;
}

/** A year field said by its verb: "published year" → "published" ("books published after 2000"). */
export function yearHead(phrase: string): string | null {
  const head = phrase.replace(/\s+year$/, '');
  return head !== phrase && head.length >= 3 ? head : null;
}

/** Units a field's name may end in (`distance_km`, `cost_eur`, `duration_minutes`): the field is also said without them. */
const UNITS = new Set(['km', 'kms', 'mi', 'miles', 'm', 'cm', 'mm', 'kg', 'kgs', 'g', 't', 'lb', 'lbs', 'usd', 'eur', 'brl', 'gbp', 'cents', 'minutes', 'mins', 'min', 'hours', 'hrs', 'h', 'seconds', 'secs', 'days', 'pct', 'percent', 'm2', 'sqm']);
/** State words a two-word field may be said with on either side ("free beds", "beds free"). */
const EITHER_SIDE = new Set(['free', 'available', 'remaining', 'left', 'spare', 'empty', 'occupied', 'taken', 'booked', 'used']);

/** Other ways a field's phrase is said: without its unit ("distance km" → "distance"), or a state word on the other side. */
export function sayings(phrase: string): string[] {
  const words = phrase.split(' ');
  const last = words.at(-1) ?? '';
  if (words.length >= 2 && UNITS.has(last)) return [words.slice(0, -1).join(' ')];
  if (words.length === 2 && (EITHER_SIDE.has(words[0] as string) || EITHER_SIDE.has(last))) return [`${last} ${words[0] as string}`];
  return [];
}

/**
 * The generated vocabulary: English manager and field words (a date field also by its verb, a field
 * with a unit also without it; a manager also by its catalogue aliases, in both languages), the
 * Portuguese ones a schema's English names have (`PT_WORDS`), and each value as itself in both languages.
 */
export function generatedVocabulary(index: SchemaIndex, values: DataValues): VocabularyFile {
  const managers: Record<string, string[]> = {};
  const fields: Record<string, string[]> = {};
  const ptManagers: Record<string, string[]> = {};
  const ptFields: Record<string, string[]> = {};
  for (const indexed of index.all) {
    const name = indexed.entry.manager;
    const phrase = identifierPhrase(name);
    // The catalogue's aliases are the host's own words: the manager is said by them in every language.
    const aliases = indexed.entry.catalog?.aliases ?? [];
    managers[name] = [...new Set([phrase, plural(phrase), ...aliases.flatMap((alias) => [alias, ...inflections(alias, 'en')])])];
    // An alias Portuguese cannot pluralize ("ferry") is a loan word, said in the plural as in English ("ferries").
    const ptAlias = (alias: string): string[] => { const forms = inflections(alias, 'pt-BR'); return forms.length > 0 ? forms : inflections(alias, 'en'); };
    const pt = [...portugueseWords(phrase), ...aliases.flatMap((alias) => [alias, ...ptAlias(alias)])];
    if (pt.length > 0) ptManagers[name] = [...new Set(pt)];
    const measured = measuredFields(indexed.entry.fields);
    for (const field of indexed.entry.fields) {
      const words = identifierPhrase(field.name);
      const numeric = field.type === 'integer' || field.type === 'decimal' || field.type === 'float';
      const head = field.type === 'date' || field.type === 'datetime' ? dateHead(words) : field.type === 'integer' ? (yearHead(words) ?? unitHead(words)) : numeric ? unitHead(words) : null;
      const other = [...sayings(words), ...(numeric ? unitSayings(words) : []), ...(measured.get(field.name) ?? [])];
      fields[`${name}.${field.name}`] = [...new Set([words, plural(words), ...(head === null ? [] : [head]), ...other, ...other.map(plural)])];
      const ptField = [...portugueseWords(words), ...(head === null ? [] : portugueseWords(head)), ...other.flatMap(portugueseWords)];
      if (ptField.length > 0) ptFields[`${name}.${field.name}`] = [...new Set(ptField)];
    }
  }
  const valueWords = (language: Language): Record<string, Record<string, string[]>> => {
    const out: Record<string, Record<string, string[]>> = {};
    for (const key of [...values.keys()].sort()) {
      const map: Record<string, string[]> = {};
      for (const value of values.get(key) ?? []) map[value] = valueSayings(value, identifierPhrase(value), language);
      if (Object.keys(map).length > 0) out[key] = map;
    }
    return out;
  };
  return {
    languages: {
      en: { data: { managers, fields, values: valueWords('en') } },
      'pt-BR': { data: { managers: ptManagers, fields: ptFields, values: valueWords('pt-BR') } },
    },
  };
}
