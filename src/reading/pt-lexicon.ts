/**
 * The built-in English ↔ Brazilian Portuguese lexicon of nouns that apps' tables, fields and
 * low-cardinality values are named with ("player" → jogador, jogadores, jogadora, jogadoras). Each
 * entry is written once, in the singular; plural, feminine and gender come from the language's rules
 * (`ptPlural`, `ptFeminine`, `ptGender`), so a table lists only what no rule gives. Matching is
 * diacritic-insensitive (every phrase is folded), so "telescopio" reads as "telescópio".
 *
 * An entry is `english: 'forma, outra forma'`; each form is `singular[/plural][*][:m|:f]` — `/` gives a
 * plural no rule gives ("mão/mãos"), `*` marks a person noun with a feminine by rule ("enfermeiro*" →
 * enfermeira), `:m`/`:f` a gender no rule gives ("mapa:m"). The first form is the label.
 */
import { PT_LEXICON_PEOPLE } from './pt-lexicon-people.js';
import { PT_LEXICON_THINGS } from './pt-lexicon-things.js';
import { foldPhrase } from '../router/index.js';
import { englishPlural } from './inflect.js';

export type PtGender = 'm' | 'f';

/** One Portuguese noun of an English one, every form derived. */
export interface PtNoun {
  readonly singular: string;
  readonly plural: string;
  readonly gender: PtGender;
  /** A person noun's other gender, singular and plural ("enfermeira", "enfermeiras"); none for "paciente". */
  readonly feminine: readonly [string, string] | null;
}

const FORM = /^([^/*:]+)(?:\/([^/*:]+))?(\*)?(?::([mf]))?$/;

/** Parses one form of an entry; a form the grammar above does not describe is a programming error. */
export function ptNoun(form: string): PtNoun {
  const match = FORM.exec(form.trim());
  if (match === null) throw new Error(`pt-lexicon: "${form}" is not singular[/plural][*][:m|:f]`);
  const singular = match[1] as string;
  const feminine = match[3] === undefined ? null : ptFeminine(singular);
  return {
    singular,
    plural: match[2] ?? ptPlural(singular),
    gender: (match[4] as PtGender | undefined) ?? ptGender(singular),
    feminine: feminine === null ? null : [feminine, ptPlural(feminine)],
  };
}

/**
 * The plural by Brazilian Portuguese rules, for a phrase: a noun phrase "X de Y" pluralizes X
 * ("linha de pedido" → linhas de pedido), another phrase each word ("centro cirúrgico" → centros cirúrgicos).
 */
export function ptPlural(phrase: string): string {
  const words = phrase.split(' ');
  const de = words.findIndex((w) => /^(?:de|do|da|dos|das|em|para)$/.test(w));
  const head = de === -1 ? words : words.slice(0, de);
  return [...head.map(pluralWord), ...(de === -1 ? [] : words.slice(de))].join(' ');
}

function pluralWord(word: string): string {
  if (/ão$/.test(word)) return `${word.slice(0, -2)}ões`;
  if (/[aeiouáéíóúâêôã]$/.test(word)) return `${word}s`;
  if (/ês$/.test(word)) return `${word.slice(0, -2)}eses`;
  if (/[rz]$/.test(word)) return `${word}es`;
  if (/[íú]s$/.test(word)) return `${word}es`;
  if (/[sx]$/.test(word)) return word;
  if (/ém$/.test(word)) return `${word.slice(0, -2)}éns`;
  if (/m$/.test(word)) return `${word.slice(0, -1)}ns`;
  if (/n$/.test(word)) return `${word}s`;
  // An accent before the last syllable leaves "-el"/"-il" unstressed: nível → níveis, fóssil → fósseis.
  const accented = /[áéíóúâêô]/.test(word.slice(0, -2));
  if (/el$/.test(word)) return accented ? `${word.slice(0, -2)}eis` : `${word.slice(0, -2)}éis`;
  if (/il$/.test(word)) return accented ? `${word.slice(0, -2)}eis` : `${word.slice(0, -1)}s`;
  if (/ol$/.test(word)) return `${word.slice(0, -2)}óis`;
  if (/[au]l$/.test(word)) return `${word.slice(0, -1)}is`;
  return `${word}s`;
}

/** The feminine of a person noun: -o → -a, -or → -ora, -ês → -esa, -ão → -ã; null where one form serves both. */
export function ptFeminine(phrase: string): string | null {
  const words = phrase.split(' ');
  const first = words[0] as string;
  const feminine = /ão$/.test(first) ? `${first.slice(0, -2)}ã` : /o$/.test(first) ? `${first.slice(0, -1)}a` : /or$/.test(first) ? `${first}a` : /ês$/.test(first) ? `${first.slice(0, -2)}esa` : null;
  return feminine === null ? null : [feminine, ...words.slice(1)].join(' ');
}

/** The gender a noun's ending gives (-a, -ção, -dade, -gem, -ie, -ise: feminine); an entry's `:m`/`:f` overrides. */
export function ptGender(phrase: string): PtGender {
  const first = phrase.split(' ')[0] as string;
  return /(?:a|ã|ção|são|dade|tude|gem|ie|ise)$/.test(first) ? 'f' : 'm';
}

interface Entry {
  readonly english: string;
  readonly nouns: readonly PtNoun[];
}

const ENTRIES: ReadonlyMap<string, Entry> = buildEntries();

function buildEntries(): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const table of [PT_LEXICON_PEOPLE, PT_LEXICON_THINGS])
    for (const [english, forms] of Object.entries(table)) {
      const entry: Entry = { english, nouns: forms.split(',').map(ptNoun) };
      out.set(english, entry);
      // A table named in the plural ("players") finds its singular's entry.
      const plural = english.split(' ').map((w, i, all) => (i === all.length - 1 ? englishPlural(w) : w)).join(' ');
      if (!out.has(plural)) out.set(plural, entry);
    }
  return out;
}

/** Whether an English phrase names people (its whole, else its last word, is a people entry): "staff", "night nurse". */
export function isPersonNoun(phrase: string): boolean {
  return PT_LEXICON_PEOPLE[phrase] !== undefined || PT_LEXICON_PEOPLE[phrase.split(' ').at(-1) ?? ''] !== undefined;
}

/** Every Portuguese form of a noun: singular and plural, then a person noun's feminine ones. */
export function nounForms(noun: PtNoun): string[] {
  return [noun.singular, noun.plural, ...(noun.feminine ?? [])];
}

/** The Portuguese nouns of an English phrase the lexicon holds whole (singular or plural), else none. */
export function lexiconNouns(phrase: string): readonly PtNoun[] {
  return ENTRIES.get(phrase)?.nouns ?? [];
}

/**
 * The Portuguese forms of an English phrase: the lexicon's entry for it whole; else for a two-word
 * phrase whose words both have one, the Portuguese order "Y de X" ("birth date" → data de nascimento,
 * "shirt number" → número da camisa); else none — never a guess from one word of two.
 */
export function lexiconWords(phrase: string): string[] {
  const whole = lexiconNouns(phrase);
  if (whole.length > 0) return whole.flatMap(nounForms);
  const words = phrase.split(' ');
  if (words.length !== 2) return [];
  const [modifier, head] = [lexiconNouns(words[0] as string)[0], lexiconNouns(words[1] as string)[0]];
  if (modifier === undefined || head === undefined) return [];
  const article = modifier.gender === 'f' ? 'da' : 'do';
  return [`${head.singular} de ${modifier.singular}`, `${head.plural} de ${modifier.singular}`, `${head.singular} ${article} ${modifier.singular}`, `${head.plural} ${article} ${modifier.singular}`];
}

let byForm: Map<string, Set<string>> | null = null;

/**
 * The English phrases a Portuguese word is a form of, for a value typed in Portuguese ("enfermeira"
 * → nurse): the entries holding it, by its folded form; several when the word is two entries'.
 */
export function englishOf(form: string): string[] {
  if (byForm === null) {
    byForm = new Map();
    for (const entry of ENTRIES.values())
      for (const noun of entry.nouns)
        for (const f of nounForms(noun)) byForm.set(foldPhrase(f), (byForm.get(foldPhrase(f)) ?? new Set()).add(entry.english));
  }
  return [...(byForm.get(foldPhrase(form)) ?? [])];
}
