/**
 * What the reader compiles once per language: a phrase matcher over every data and grammar word with
 * what each means, the read entries by manager, the discovery tools it may call, and the words a typo
 * may be corrected to.
 */
import type { Catalogue, Language, LanguageWords } from '../router/index.js';
import { foldPhrase, PhraseSet } from '../router/index.js';
import type { DataGrammar } from './grammar.js';
import { DATA_GRAMMAR } from './grammar.js';
import type { Meaning, ReadTarget } from './meanings.js';
import { sameMeaning } from './meanings.js';
import { inflections } from './inflect.js';
import { relationMeanings, stateMeanings } from './states.js';
import { derivedWords } from './derived-words.js';
import type { DerivedWord } from './relation-verbs.js';

/** The discovery tools a schema question is answered with, where the catalogue holds them. */
export interface SchemaTools {
  readonly search: string | null;
  readonly schema: string | null;
  readonly path: string | null;
}

export interface CompiledReads {
  readonly language: Language;
  readonly grammar: DataGrammar;
  readonly phrases: PhraseSet;
  readonly meanings: ReadonlyMap<string, readonly Meaning[]>;
  /** Manager → its read entry. */
  readonly targets: ReadonlyMap<string, ReadTarget>;
  /** Tool name → its read entry. */
  readonly byTool: ReadonlyMap<string, ReadTarget>;
  /** One-word data words (managers, fields, values) a typo may be read as: folded word → what it means. */
  readonly typoTargets: ReadonlyMap<string, string>;
  readonly schemaTools: SchemaTools;
  /** Manager → its words, singular first, for the schema questions and the rephrase offer. */
  readonly managerWords: ReadonlyMap<string, readonly string[]>;
  /** `Manager.field` → its words (folded), for adjectives ("densest" → density) and price-like fields. */
  readonly fieldWords: ReadonlyMap<string, readonly string[]>;
  /** Folded phrase → the words derived from the schema it stands for, with where each came from. */
  readonly derived: ReadonlyMap<string, readonly DerivedWord[]>;
  /** The cue words of the host's read tools' parameters (folded): "order 4411" is theirs to read, not a row by number. */
  readonly hostNouns: ReadonlySet<string>;
}

/** `extra`: phrases only the host defines (its conditions) and the first person, added beside the grammar's. */
export function compileReads(language: Language, words: LanguageWords, catalogue: Catalogue, extra: readonly { phrase: string; meaning: Meaning }[] = []): CompiledReads | null {
  const targets = new Map<string, ReadTarget>();
  const byTool = new Map<string, ReadTarget>();
  for (const info of catalogue.tools.values()) {
    const spec = info.entry.reads;
    if (spec === undefined || targets.has(spec.manager)) continue;
    const target = { tool: info.name, spec, schema: info.entry.parameters };
    targets.set(spec.manager, target);
    byTool.set(info.name, target);
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
  const managerWords = new Map<string, string[]>();
  for (const [manager, list] of Object.entries(data.managers)) {
    managerWords.set(manager, [...list]);
    for (const word of list) add(word, { kind: 'manager', manager, plural: isPlural(foldPhrase(word), language) });
  }
  const fieldWords = new Map<string, string[]>();
  for (const [key, list] of Object.entries(data.fields)) {
    const [manager, field] = splitKey(key);
    fieldWords.set(key, list.map(foldPhrase));
    for (const word of list) add(word, { kind: 'field', manager, field });
  }
  const dataPhrases = new Set(meanings.keys());
  // "totals", "preços", "costs": a field word said in the plural (or a verb's third person) is the field.
  for (const [key, list] of Object.entries(data.fields)) {
    const [manager, field] = splitKey(key);
    for (const word of list) for (const form of inflections(foldPhrase(word), language)) if (!dataPhrases.has(form)) add(form, { kind: 'field', manager, field });
  }
  for (const [key, values] of Object.entries(data.values)) {
    const [manager, field] = splitKey(key);
    for (const [value, list] of Object.entries(values)) {
      const meaning: Meaning = { kind: 'value', manager, field, value };
      for (const word of [value, ...list]) {
        add(word, meaning);
        // "bearings", "washers": a value said in the plural is the value, unless the form is another data word.
        for (const form of inflections(foldPhrase(word), language)) if (!dataPhrases.has(form)) add(form, meaning);
      }
    }
  }
  // Derived words never displace a data word ("books" stays the manager where a Booking says "book").
  const derived = new Map<string, DerivedWord[]>();
  const taken = new Set(meanings.keys());
  // Nor is a derived verb a grammar word ("contains", "use"): it would read two ways.
  const grammarPhrases = new Set<string>();
  addGrammar(DATA_GRAMMAR[language], (phrase) => grammarPhrases.add(foldPhrase(phrase)));
  for (const word of derivedWords(targets, data.values, language)) {
    const folded = foldPhrase(word.phrase);
    // A verb may share a date field's word of its own manager ("enrolled": Enrollment.enrolledOn); the question tells them apart.
    const verbOfOwnDate = word.meaning.kind === 'verb' && (meanings.get(folded) ?? []).every((m) => m.kind === 'field' && m.manager === (word.meaning as { via: string }).via);
    if ((taken.has(folded) && !verbOfOwnDate) || ((word.meaning.kind === 'verb' || word.meaning.kind === 'agentField') && grammarPhrases.has(folded))) continue;
    add(folded, word.meaning);
    derived.set(folded, [...(derived.get(folded) ?? []), word]);
  }
  const grammar = DATA_GRAMMAR[language];
  addGrammar(grammar, add);
  for (const [phrase, meaning] of stateMeanings(language)) add(phrase, meaning);
  // A relation's name is a word of its own only where it is no other word but a verb ("tutor", also "to tutor"; "ticket" stays the manager's).
  for (const [phrase, meaning] of relationMeanings(targets)) if (!meanings.has(foldPhrase(phrase)) || meanings.get(foldPhrase(phrase))?.every((m) => m.kind === 'relation' || m.kind === 'verb')) add(phrase, meaning);
  for (const { phrase, meaning } of extra) add(phrase, meaning);
  const typoTargets = new Map<string, string>();
  for (const [phrase, list] of meanings) {
    if (phrase.includes(' ') || phrase.length < 4 || !list.some((m) => m.kind === 'manager' || m.kind === 'field' || m.kind === 'value')) continue;
    if (list.some((m) => m.kind !== 'manager' && m.kind !== 'field' && m.kind !== 'value')) continue;
    typoTargets.set(phrase, list.map(identity).sort().join('|'));
  }
  // A word of a longer value ("Ishiguro" of "Kazuo Ishiguro") may be mistyped too: corrected, the
  // whole phrase must still be said for the clause to read.
  for (const [phrase, list] of meanings) {
    if (!phrase.includes(' ') || !list.some((m) => m.kind === 'value')) continue;
    for (const word of phrase.split(' ')) if (word.length >= 4 && !meanings.has(word) && !typoTargets.has(word)) typoTargets.set(word, `w:${word}`);
  }
  return {
    language,
    grammar,
    phrases: new PhraseSet([...meanings.keys()]),
    meanings,
    targets,
    byTool,
    typoTargets,
    schemaTools: schemaToolsOf(catalogue),
    managerWords,
    fieldWords,
    hostNouns: hostNounsOf(catalogue, words),
    derived,
  };
}

function hostNounsOf(catalogue: Catalogue, words: LanguageWords): Set<string> {
  const out = new Set<string>();
  for (const info of catalogue.tools.values()) {
    if (info.entry.reads !== undefined || info.entry.checkOnly === true || info.effect !== 'read') continue;
    for (const name of info.byName.keys()) for (const cue of words.parameters[name]?.cues ?? []) out.add(foldPhrase(cue));
  }
  return out;
}

function addGrammar(grammar: DataGrammar, add: (phrase: string, meaning: Meaning) => void): void {
  for (const [op, list] of Object.entries(grammar.comparators) as [keyof DataGrammar['comparators'], readonly string[]][]) for (const word of list) add(word, { kind: 'comparator', op });
  for (const [op, list] of Object.entries(grammar.comparatorsAfter) as [keyof DataGrammar['comparatorsAfter'], readonly string[]][]) for (const word of list) add(word, { kind: 'comparator', op, after: true });
  for (const [bound, list] of Object.entries(grammar.dateBounds) as [keyof DataGrammar['dateBounds'], readonly string[]][]) for (const word of list) add(word, { kind: 'dateBound', bound });
  for (const word of grammar.current) add(word, { kind: 'current' });
  for (const word of grammar.between.open) add(word, { kind: 'between' });
  for (const word of grammar.count) add(word, { kind: 'count' });
  for (const [op, list] of Object.entries(grammar.aggregates) as [keyof DataGrammar['aggregates'], readonly string[]][]) for (const word of list) add(word, { kind: 'aggregate', op });
  for (const [phrase, sense] of Object.entries(grammar.superlatives)) add(phrase, { kind: 'superlative', sense });
  for (const [word, direction] of Object.entries(grammar.degree)) add(word, { kind: 'degree', direction });
  for (const word of grammar.exists) add(word, { kind: 'exists' });
  for (const word of grammar.how) add(word, { kind: 'how' });
  for (const word of grammar.negations) add(word, { kind: 'negation' });
  for (const word of grammar.referents) add(word, { kind: 'referent' });
  for (const word of grammar.replacing) add(word, { kind: 'replacing' });
  for (const word of grammar.narrowing) add(word, { kind: 'narrowing' });
  for (const word of grammar.or) add(word, { kind: 'or' });
  for (const word of grammar.links) add(word, { kind: 'link' });
  for (const word of grammar.madeOf) add(word, { kind: 'madeOf' });
  for (const word of grammar.stopwords) add(word, { kind: 'stop' });
  for (const [word, value] of Object.entries(grammar.numbers)) add(word, { kind: 'numberWord', value });
  grammar.months.forEach((names, month) => {
    for (const name of names) add(name, { kind: 'month', month });
  });
  for (const word of grammar.monthLead) add(word, { kind: 'monthLead' });
}

/** What a data word names, whatever its form (singular, plural): for telling two typo readings apart. */
function identity(meaning: Meaning): string {
  switch (meaning.kind) {
    case 'manager': return `m:${meaning.manager}`;
    case 'field': return `f:${meaning.manager}.${meaning.field}`;
    case 'value': return `v:${meaning.manager}.${meaning.field}=${meaning.value}`;
    default: return meaning.kind;
  }
}

function schemaToolsOf(catalogue: Catalogue): SchemaTools {
  const has = (name: string, parameter: string): string | null => (catalogue.tools.get(name)?.byName.has(parameter) === true ? name : null);
  return { search: has('search_managers', 'query'), schema: has('get_manager_schema', 'manager'), path: has('find_path', 'from_manager') };
}

function isPlural(word: string, language: Language): boolean {
  const last = word.split(' ').at(-1) ?? word;
  return language === 'pt-BR' ? /s$/.test(last) : /s$/.test(last) && !/ss$/.test(last);
}

function splitKey(key: string): [string, string] {
  const dot = key.indexOf('.');
  return [key.slice(0, dot), key.slice(dot + 1)];
}
