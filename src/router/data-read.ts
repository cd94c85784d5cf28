/**
 * The data-read pass: a clause read as a question about ONE manager's rows ("which parts are made of
 * steel?", "quantas tarefas abertas o Apollo tem?"), planned as the real direct-strategy read (a
 * catalogue entry with `reads`). Strict: every word of the clause must be a manager, field or value
 * word of the vocabulary's `data` section, a comparator with its number, a count, link or list word,
 * or one of the pass's stopwords; otherwise the pass yields nothing and the generic planner reads the
 * clause. Ambiguity (a value two filters could take, two equally short paths) also yields nothing.
 */
import type { JsonValue } from '../core/index.js';
import type { Catalogue } from './catalogue.js';
import { PhraseSet } from './compile.js';
import type { Comparator } from './data-words.js';
import { DATA_GRAMMAR } from './data-words.js';
import { checkArguments } from './schema-check.js';
import { foldPhrase, tokenize } from './text.js';
import type { JsonSchema, Language, ReadLookup, ReadSpec } from './types.js';
import type { LanguageWords } from './vocabulary-types.js';

type Meaning =
  | { readonly kind: 'manager'; readonly manager: string; readonly plural: boolean }
  | { readonly kind: 'field'; readonly manager: string; readonly field: string }
  | { readonly kind: 'value'; readonly manager: string; readonly field: string; readonly value: string }
  | { readonly kind: 'comparator'; readonly op: Comparator }
  | { readonly kind: 'count' }
  | { readonly kind: 'or' }
  | { readonly kind: 'link' }
  | { readonly kind: 'stop' };

/** One read entry the pass may plan. */
export interface ReadTarget {
  readonly tool: string;
  readonly spec: ReadSpec;
  readonly schema: JsonSchema;
}

/** What the pass compiles once per language. */
export interface CompiledReads {
  readonly phrases: PhraseSet;
  readonly meanings: ReadonlyMap<string, readonly Meaning[]>;
  /** Manager → its read entry. */
  readonly targets: ReadonlyMap<string, ReadTarget>;
}

/** A clause read as data: the read's arguments, and whether it is a count. */
export interface DataRead {
  readonly tool: string;
  readonly manager: string;
  readonly arguments: { readonly fields: readonly string[]; readonly filters?: Readonly<Record<string, JsonValue>> };
  readonly filterKeys: readonly string[];
  /** The count words as typed, where the clause asks how many. */
  readonly count: string | null;
}

export function compileReads(language: Language, words: LanguageWords, catalogue: Catalogue): CompiledReads | null {
  const targets = new Map<string, ReadTarget>();
  for (const info of catalogue.tools.values()) {
    const spec = info.entry.reads;
    if (spec !== undefined && !targets.has(spec.manager)) targets.set(spec.manager, { tool: info.name, spec, schema: info.entry.parameters });
  }
  if (targets.size === 0) return null;
  const meanings = new Map<string, Meaning[]>();
  const add = (phrase: string, meaning: Meaning): void => {
    const folded = foldPhrase(phrase);
    if (folded.length === 0) return;
    const list = meanings.get(folded) ?? [];
    if (!list.some((m) => sameMeaning(m, meaning))) list.push(meaning);
    meanings.set(folded, list);
  };
  const data = words.data;
  for (const [manager, list] of Object.entries(data.managers)) for (const word of list) add(word, { kind: 'manager', manager, plural: /s$/.test(foldPhrase(word)) });
  for (const [key, list] of Object.entries(data.fields)) {
    const [manager, field] = splitKey(key);
    for (const word of list) add(word, { kind: 'field', manager, field });
  }
  for (const [key, values] of Object.entries(data.values)) {
    const [manager, field] = splitKey(key);
    for (const [value, list] of Object.entries(values)) {
      add(value, { kind: 'value', manager, field, value });
      for (const word of list) add(word, { kind: 'value', manager, field, value });
    }
  }
  const grammar = DATA_GRAMMAR[language];
  for (const [op, list] of Object.entries(grammar.comparators) as [Comparator, readonly string[]][]) for (const word of list) add(word, { kind: 'comparator', op });
  for (const word of grammar.count) add(word, { kind: 'count' });
  for (const word of grammar.or) add(word, { kind: 'or' });
  for (const word of grammar.links) add(word, { kind: 'link' });
  for (const word of grammar.stopwords) add(word, { kind: 'stop' });
  return { phrases: new PhraseSet([...meanings.keys()]), meanings, targets };
}

function splitKey(key: string): [string, string] {
  const dot = key.indexOf('.');
  return [key.slice(0, dot), key.slice(dot + 1)];
}

function sameMeaning(a: Meaning, b: Meaning): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface Span {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly meanings: readonly Meaning[];
  readonly number: number | null;
}

const NUMBER = /(?<![a-z0-9.,])\d+(?:[.,]\d+)*(?![a-z0-9]|[.,]\d)/g;

/**
 * A number as typed: English `1,000.5`, Portuguese `1.000,5` (and `5,5`); null for a form that could be
 * read two ways (`5.5` in Portuguese, `1,5` in English).
 */
function readNumber(text: string, language: Language): number | null {
  const [group, point] = language === 'pt-BR' ? ['.', ','] : [',', '.'];
  const grouped = language === 'pt-BR' ? /^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/ : /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
  const plain = language === 'pt-BR' ? /^\d+(?:,\d+)?$/ : /^\d+(?:\.\d+)?$/;
  if (!grouped.test(text) && !plain.test(text)) return null;
  const number = Number(text.split(group).join('').replace(point, '.'));
  return Number.isFinite(number) ? number : null;
}

/**
 * Reads one clause (`folded`/`typed` are the clause's own text) as a data question; null when any
 * word is left over or anything is ambiguous.
 */
export function readData(reads: CompiledReads, language: Language, typed: string, folded: string): DataRead | null {
  const spans: Span[] = [];
  for (const m of folded.matchAll(NUMBER)) {
    const text = m[0];
    const number = readNumber(text, language);
    if (number === null) return null;
    spans.push({ start: m.index, end: m.index + text.length, text, meanings: [], number });
  }
  for (const m of reads.phrases.all(folded)) {
    if (spans.some((s) => s.start < m.end && m.start < s.end)) continue;
    spans.push({ start: m.start, end: m.end, text: typed.slice(m.start, m.end), meanings: reads.meanings.get(m.phrase) ?? [], number: null });
  }
  spans.sort((a, b) => a.start - b.start);
  // Every word must be accounted for.
  for (const token of tokenize(folded)) {
    // An English possessive ("Apollo's tasks") is the word it marks.
    const end = language === 'en' && /['\u2019]s$/.test(token.word) ? token.end - 2 : token.end;
    if (!spans.some((s) => token.start >= s.start && end <= s.end)) return null;
  }
  const meaningful = spans.filter((s) => s.number !== null || !s.meanings.every((m) => m.kind === 'stop' || m.kind === 'link'));

  // The first manager named is the subject; values and fields are resolved against it.
  const first = meaningful.find((s) => s.meanings.some((m) => m.kind === 'manager'));
  const firstManager = first?.meanings.find((m): m is Extract<Meaning, { kind: 'manager' }> => m.kind === 'manager');
  // With no manager named, a field word names it ("what is the density of steel?").
  const fieldOwners = new Set(meaningful.find((s) => s.meanings.some((m) => m.kind === 'field'))?.meanings.flatMap((m) => (m.kind === 'field' ? [m.manager] : [])) ?? []);
  const subjectName = firstManager?.manager ?? (fieldOwners.size === 1 ? [...fieldOwners][0] : undefined);
  const subject: ReadTarget | null = subjectName === undefined ? null : (reads.targets.get(subjectName) ?? null);
  if (subject === null) return null;
  const mentions: ReadLookup[] = [];
  let possessive = false;
  const later: string[] = [];
  const named = new Set(meaningful.flatMap((s) => s.meanings.flatMap((m) => (m.kind === 'manager' ? [m.manager] : []))));
  const values: { lookup: ReadLookup; value: string }[] = [];
  const bounds: { lookup: ReadLookup; op: Comparator; number: number }[] = [];
  let count: string | null = null;
  let sawOr = false;
  for (let i = 0; i < meaningful.length; i++) {
    const span = meaningful[i] as Span;
    if (span.number !== null) return null; // a number not bound to a comparator
    const kinds = new Set(span.meanings.map((m) => m.kind));
    const manager = span.meanings.find((m): m is Extract<Meaning, { kind: 'manager' }> => m.kind === 'manager');
    if (manager !== undefined) {
      if (span !== first) later.push(manager.manager);
      continue;
    }
    if (kinds.has('count')) {
      if (count !== null) return null;
      count = span.text;
      continue;
    }
    if (kinds.has('or')) {
      sawOr = true;
      continue;
    }
    if (kinds.has('value')) {
      // A status-like value (enum, boolean: "open", "active") describes the noun it goes with: through a
      // relation it is read only when its own manager is named ("parts of active projects").
      const resolved = span.meanings
        .flatMap((m) => (m.kind === 'value' ? lookupFor(subject, m.manager, m.field).map((lookup) => ({ lookup, value: m.value })) : []))
        .filter((r) => r.lookup.through.length === 0 || r.lookup.type === 'string' || r.lookup.type === 'text' || named.has(r.lookup.manager));
      // Of the filters the word could be, the nearest to the subject; two as near are a question, not a guess.
      const nearest = Math.min(...resolved.map((r) => r.lookup.through.length));
      const best = resolved.filter((r) => r.lookup.through.length === nearest);
      if (best.length !== 1) return null;
      values.push(best[0] as { lookup: ReadLookup; value: string });
      continue;
    }
    if (kinds.has('field')) {
      const resolved = nearestOf(span.meanings.flatMap((m) => (m.kind === 'field' ? lookupFor(subject, m.manager, m.field) : [])));
      if (resolved === null) return null;
      const comparator = meaningful[i + 1];
      const number = meaningful[i + 2];
      const op = comparator?.meanings.find((m): m is Extract<Meaning, { kind: 'comparator' }> => m.kind === 'comparator');
      if (op === undefined || number?.number == null) {
        // A field named without a bound only says what to show: one of the subject's own, after "their"
        // ("materials with their density") or about rows a name picks ("the budget of Apollo").
        if (resolved.through.length > 0) return null;
        if (POSSESSIVE.test(folded.slice(0, span.start))) possessive = true;
        mentions.push(resolved);
        continue;
      }
      const lookup = resolved;
      if (!['integer', 'decimal', 'float'].includes(lookup.type)) return null;
      if (lookup.type === 'integer' && !Number.isInteger(number.number)) return null;
      bounds.push({ lookup, op: op.op, number: number.number });
      i += 2;
      continue;
    }
    return null; // a comparator with no field before it
  }
  // Every manager named after the subject must lie on the path of a filter it reads.
  const onPath = new Set<string>();
  for (const lookup of [...values.map((v) => v.lookup), ...bounds.map((b) => b.lookup)]) for (const m of pathManagers(subject.spec, lookup)) onPath.add(m);
  if (later.some((m) => m !== subject.spec.manager && !onPath.has(m))) return null;

  const filters: Record<string, JsonValue> = {};
  const byKey = new Map<string, { lookup: ReadLookup; values: string[] }>();
  for (const { lookup, value } of values) {
    const entry = byKey.get(lookup.key) ?? { lookup, values: [] };
    if (!entry.values.includes(value)) entry.values.push(value);
    byKey.set(lookup.key, entry);
  }
  for (const { lookup, values: list } of byKey.values()) {
    const typedValues = list.map((v) => typedValue(lookup, v));
    if (typedValues.some((v) => v === null)) return null;
    if (list.length === 1) filters[lookup.key] = typedValues[0] as JsonValue;
    // Two values of the subject's own field can only mean either ("Apollo and Gemini"); through a
    // relation, "and" could mean both, so only "or" joins them.
    else if ((sawOr || lookup.through.length === 0) && lookup.type !== 'boolean') filters[`${lookup.key}__in`] = typedValues;
    else return null;
  }
  if (sawOr && ![...byKey.values()].some((e) => e.values.length > 1)) return null;
  for (const { lookup, op, number } of bounds) {
    const key = `${lookup.key}__${op}`;
    if (key in filters) return null;
    filters[key] = number;
  }
  // A field named to be shown needs "their" or rows a name picks; a lone singular ("show me order") asks for one row.
  const identified = values.some((v) => v.lookup.type === 'string' || v.lookup.type === 'text');
  if (mentions.length > 0 && !possessive && !identified) return null;
  if (firstManager !== undefined && !firstManager.plural && Object.keys(filters).length === 0 && count === null) return null;
  const args = Object.keys(filters).length === 0 ? { fields: [...subject.spec.fields] } : { fields: [...subject.spec.fields], filters };
  if (checkArguments(subject.schema, args).length > 0) return null;
  return { tool: subject.tool, manager: subject.spec.manager, arguments: args, filterKeys: Object.keys(filters), count };
}

/** The subject's one shortest lookup reaching `manager.field`; none when two are equally short. */
function lookupFor(target: ReadTarget, manager: string, field: string): ReadLookup[] {
  const candidates = target.spec.lookups.filter((l) => l.manager === manager && l.field === field);
  if (candidates.length === 0) return [];
  const shortest = Math.min(...candidates.map((l) => l.through.length));
  const best = candidates.filter((l) => l.through.length === shortest);
  return best.length === 1 ? best : [best[0] as ReadLookup, best[1] as ReadLookup];
}

/** The managers a lookup walks through, the field's owner included. */
function pathManagers(spec: ReadSpec, lookup: ReadLookup): string[] {
  const out = [lookup.manager];
  for (let i = 1; i < lookup.through.length; i++) {
    const prefix = lookup.through.slice(0, i);
    const hop = spec.lookups.find((l) => l.through.length === i && prefix.every((r, k) => l.through[k] === r));
    if (hop !== undefined) out.push(hop.manager);
  }
  return out;
}

/** The one lookup nearest the subject, or null when none or two as near. */
function nearestOf(lookups: readonly ReadLookup[]): ReadLookup | null {
  if (lookups.length === 0) return null;
  const nearest = Math.min(...lookups.map((l) => l.through.length));
  const best = lookups.filter((l) => l.through.length === nearest);
  return best.length === 1 ? (best[0] as ReadLookup) : null;
}

const POSSESSIVE = /(?<![a-z0-9])(?:their|its|seus|suas|seu|sua)\s+$/;

function typedValue(lookup: ReadLookup, value: string): JsonValue | null {
  switch (lookup.type) {
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : null;
    case 'integer': case 'float': case 'decimal': {
      const n = Number(value);
      return Number.isFinite(n) ? n : null;
    }
    default:
      return value;
  }
}
