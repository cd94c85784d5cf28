/**
 * What a router compiles once from its catalogue and vocabulary, per language: phrase matchers for
 * triggers, cues, verbs, calculations and dates. Reading a turn only runs these.
 */
import type { Catalogue, ParameterInfo, ToolInfo } from './catalogue.js';
import { isPlannable } from './catalogue.js';
import type { CompiledDataReader, DataReader } from './data-reader.js';
import type { DateGrammar } from './dates.js';
import { compileDateGrammar } from './dates.js';
import type { Rulebook } from './rulebook.js';
import type { ComputeOperation, Language } from './types.js';
import { foldPhrase, identifierWords, stem } from './text.js';
import { namedUnits } from './units.js';
import { enumWords } from './enum-words.js';
import type { Vocabulary } from './vocabulary.js';
import type { LanguageWords } from './vocabulary-types.js';

export interface PhraseMatch {
  readonly phrase: string;
  readonly start: number;
  readonly end: number;
}

/** Finds phrases in folded text on word boundaries. */
export class PhraseSet {
  readonly #pattern: RegExp | null;
  constructor(phrases: readonly string[]) {
    const sorted = [...new Set(phrases.filter((p) => p.length > 0))].sort((a, b) => b.length - a.length);
    this.#pattern = sorted.length === 0 ? null : new RegExp(`(?<![a-z0-9])(?:${sorted.map(escapePhrase).join('|')})(?![a-z0-9])`, 'g');
  }
  all(folded: string): PhraseMatch[] {
    if (this.#pattern === null) return [];
    const out: PhraseMatch[] = [];
    for (const m of folded.matchAll(this.#pattern)) out.push({ phrase: m[0].replace(/\s+/g, ' '), start: m.index, end: m.index + m[0].length });
    return out;
  }
  test(folded: string): boolean {
    if (this.#pattern === null) return false;
    this.#pattern.lastIndex = 0;
    const found = this.#pattern.test(folded);
    this.#pattern.lastIndex = 0;
    return found;
  }
}

export function escapePhrase(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
}

export interface CompiledParameter {
  readonly info: ParameterInfo;
  readonly cues: PhraseSet;
  /** Whether the vocabulary gave the cues (else they come from the parameter's name). */
  readonly ownCues: boolean;
  /** Name words that, typed in a turn while the parameter stays empty, mean the turn asked for more than was read. */
  readonly mentions: readonly string[];
  /** Example values the parameter's description quotes ("e.g. 'IPR', 'Patent'"): typed in a turn, they belong to it. */
  readonly examples: PhraseSet;
  readonly label: string | null;
  readonly pattern: RegExp | null;
  /** Folded synonym → canonical value, for enums and vocabulary values. */
  readonly values: ReadonlyMap<string, string>;
  readonly valueSet: PhraseSet;
  /** Words of a value of the enum's kind that the enum does not hold ("kelvin" for ["C", "F"]). */
  readonly outsiders: PhraseSet;
  /** The units its name and description name, by kind: a number written with another unit of a kind is not its value. */
  readonly units: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface CompiledTool {
  readonly info: ToolInfo;
  readonly triggers: PhraseSet;
  /** The first word of each trigger: a turn without one of them cannot match a trigger. */
  readonly triggerHeads: readonly string[];
  readonly label: string | null;
  readonly parameters: readonly CompiledParameter[];
  /** Name words worth matching (stemmed, no stopwords, longer than 2 letters). */
  readonly keyWords: readonly string[];
  readonly descriptionWords: ReadonlySet<string>;
}

export interface CompiledLanguage {
  readonly language: Language;
  readonly words: LanguageWords;
  /** The tools the planner may choose (no data reads, nothing check-only). */
  readonly tools: readonly CompiledTool[];
  /** Every catalogue entry, by name (plannable or not). */
  readonly toolsByName: ReadonlyMap<string, CompiledTool>;
  /** Trigger first words and name words → the tools they can select: a turn only scores the tools its words name. */
  readonly toolsByWord: ReadonlyMap<string, readonly CompiledTool[]>;
  /** Name and description words → the tools they describe, for choosing a tool by its description (T5). */
  readonly toolsByDescription: ReadonlyMap<string, readonly CompiledTool[]>;
  readonly readVerbs: PhraseSet;
  readonly writeVerbs: PhraseSet;
  readonly compute: PhraseSet;
  readonly computeKeys: ReadonlyMap<string, ComputeOperation>;
  readonly then: PhraseSet;
  readonly and: PhraseSet;
  readonly it: PhraseSet;
  /** Openers of a follow-up of the previous read ("and", "what about", "e o"). */
  readonly follow: PhraseSet;
  /** Words that open a second question ("how", "where", "como"): after "and" they start a clause of their own. */
  readonly question: PhraseSet;
  /** Words that open a question but also join a relative clause ("is", "were", "quantos"): a clause of their own only after ", and". */
  readonly yesNo: PhraseSet;
  readonly availability: PhraseSet;
  readonly foreign: PhraseSet;
  readonly dates: DateGrammar;
  /** Every tool-name or trigger word: what a reply names when it picks a candidate. */
  readonly stopwords: ReadonlySet<string>;
  /** The data reader the router was given, compiled for this language; null when none or it plans nothing here. */
  readonly reads: CompiledDataReader | null;
}

const GENERIC_WORDS: ReadonlySet<string> = new Set(['name', 'type', 'value', 'data', 'info', 'detail', 'include', 'flag', 'option', 'format', 'mode', 'list', 'item', 'default', 'limit', 'page', 'size', 'count', 'code', 'text', 'string', 'number', 'time', 'date']);

const OPERATIONS: readonly ComputeOperation[] = ['count', 'sum', 'average', 'minimum', 'maximum', 'difference', 'ratio', 'percentage'];

function indexByDescription(tools: readonly CompiledTool[]): Map<string, CompiledTool[]> {
  const index = new Map<string, CompiledTool[]>();
  for (const tool of tools) {
    for (const word of new Set([...tool.keyWords, ...tool.descriptionWords])) {
      const list = index.get(word) ?? [];
      list.push(tool);
      index.set(word, list);
    }
  }
  return index;
}

function indexByWord(tools: readonly CompiledTool[]): Map<string, CompiledTool[]> {
  const index = new Map<string, CompiledTool[]>();
  for (const tool of tools) {
    for (const word of new Set([...tool.triggerHeads, ...tool.keyWords])) {
      const list = index.get(word) ?? [];
      list.push(tool);
      index.set(word, list);
    }
  }
  return index;
}

export function compileLanguage(language: Language, vocabulary: Vocabulary, catalogue: Catalogue, rulebook: Rulebook, dataReader?: DataReader): CompiledLanguage {
  void rulebook;
  const words = vocabulary.words[language];
  const tools: CompiledTool[] = [];
  for (const info of catalogue.tools.values()) {
    const toolWords = words.tools[info.name];
    // A name word two parameters share ("value" of initial_value and final_value) is nobody's cue.
    const uses = new Map<string, number>();
    for (const p of info.parameters) for (const w of new Set(p.words)) uses.set(w, (uses.get(w) ?? 0) + 1);
    const parameters = info.parameters.map((p): CompiledParameter => {
      const entry = words.parameters[p.name] ?? words.parameters[`${info.name}.${p.name}`];
      const ownCues = p.words.filter((w) => w.length > 2 && !['id', 'the'].includes(w) && (uses.get(w) ?? 0) < 2);
      const cueWords = [...(entry?.cues ?? []), ...(entry === undefined || entry.cues.length === 0 ? [foldPhrase(p.name.replace(/[_.]/g, ' ')), ...ownCues] : [])];
      const { values, outsiders } = enumWords(p.enumValues ?? p.itemEnum ?? []);
      for (const [canonical, synonyms] of Object.entries(words.values[p.name] ?? {})) {
        values.set(foldPhrase(canonical), canonical);
        for (const synonym of synonyms) values.set(synonym, canonical);
      }
      let pattern: RegExp | null = null;
      if (typeof p.schema.pattern === 'string') {
        try {
          pattern = new RegExp(p.schema.pattern, 'u');
        } catch {
          pattern = null;
        }
      }
      const mentions = p.words.filter((w) => w.length > 2 && !words.stopwords.has(w) && !info.nameWords.includes(w) && !GENERIC_WORDS.has(w));
      const quoted = [...(p.schema.description ?? '').matchAll(/'([^'\n]{2,30})'|"([^"\n]{2,30})"/g)].map((m) => foldPhrase(m[1] ?? m[2] ?? ''));
      const examples = new PhraseSet(quoted.filter((q) => q.length > 2 && !words.stopwords.has(q)));
      return { info: p, cues: new PhraseSet(cueWords), ownCues: (entry?.cues.length ?? 0) > 0, mentions, examples, label: entry?.label ?? null, pattern, values, valueSet: new PhraseSet([...values.keys()]), outsiders: new PhraseSet(outsiders), units: namedUnits(p.name, p.schema.description ?? '') };
    });
    tools.push({
      info,
      triggers: new PhraseSet(toolWords?.triggers ?? []),
      triggerHeads: [...new Set((toolWords?.triggers ?? []).map((t) => t.split(/[\s-]/)[0] ?? t))],
      label: toolWords?.label ?? null,
      parameters,
      // A dotted name's last part is the tool (`map_service.get_directions` → directions); the rest is its namespace.
      keyWords: [...new Set((info.name.includes('.') ? identifierWords(info.name.slice(info.name.lastIndexOf('.') + 1)).map(stem) : info.nameWords).filter((w) => w.length > 2 && !words.stopwords.has(w)))],
      descriptionWords: new Set(info.descriptionWords.filter((w) => w.length > 2 && !words.stopwords.has(w)).map(stem)),
    });
  }
  const computeKeys = new Map<string, ComputeOperation>();
  for (const op of OPERATIONS) for (const phrase of words.compute[op] ?? []) if (!computeKeys.has(phrase)) computeKeys.set(phrase, op);
  const plannable = tools.filter((t) => isPlannable(t.info.entry));
  return {
    language,
    words,
    tools: plannable,
    toolsByName: new Map(tools.map((t) => [t.info.name, t])),
    toolsByWord: indexByWord(plannable),
    toolsByDescription: indexByDescription(plannable),
    readVerbs: new PhraseSet(words.readVerbs),
    writeVerbs: new PhraseSet(words.writeVerbs),
    compute: new PhraseSet([...computeKeys.keys()]),
    computeKeys,
    then: new PhraseSet(words.connectors['then'] ?? []),
    and: new PhraseSet(words.connectors['and'] ?? []),
    it: new PhraseSet(words.connectors['it'] ?? []),
    follow: new PhraseSet(words.connectors['follow'] ?? []),
    question: new PhraseSet(words.connectors['question'] ?? []),
    yesNo: new PhraseSet(words.connectors['yes_no'] ?? []),
    availability: new PhraseSet(words.availability),
    foreign: new PhraseSet(words.foreign),
    dates: compileDateGrammar(language, words),
    stopwords: words.stopwords,
    reads: dataReader?.compile({ language, words, catalogue }) ?? null,
  };
}
