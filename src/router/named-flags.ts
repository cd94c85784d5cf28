/** The yes/no parameters a clause names by their own words. */
import type { JsonValue } from '../core/index.js';
import type { CompiledLanguage, CompiledParameter, CompiledTool } from './compile.js';
import { fold, stem, tokenize } from './text.js';

/** Words of a yes/no parameter's name that say it is a switch, not what it switches. */
export const SWITCH_WORDS = new Set(['include', 'with', 'is', 'has', 'show', 'get', 'want', 'use', 'enable', 'allow', 'should', 'need', 'incluir', 'com', 'mostrar', 'usar']);
export const POSITIVE_MARKERS = new Set(['including', 'include', 'includes', 'with', 'incluindo', 'inclua', 'incluir', 'com']);
export const NEGATIVE_MARKERS = new Set(['without', 'not', 'no', 'exclude', 'excluding', 'don', 'dont', 'sem', 'nao', 'excluindo', 'exclua']);

/** The same word, allowing a plural or a longer form of five letters or more ("details" / "detailed"). */
export function sameWord(word: string, target: string): boolean {
  const a = stem(word);
  if (a === target) return true;
  const [short, long] = a.length <= target.length ? [a, target] : [target, a];
  if (short.length >= 5 && long.startsWith(short)) return true;
  // "nutricao" / "nutricionais", "history" / "historical": one stem, of six letters or more, with endings of its own.
  let shared = 0;
  while (shared < short.length && short[shared] === long[shared]) shared++;
  return shared >= 6 && shared >= 0.75 * short.length;
}

/**
 * The yes/no parameters a clause names but that stay empty: its own words (less the switch words), or a
 * word of its description the tool's name, its description and its other parameters do not say
 * ("sorted descending" for `reverse`, "Sort in descending order"). Left out, the call would not do what was asked.
 */
export function namedFlags(tool: CompiledTool, folded: string, lang: CompiledLanguage, args: Readonly<Record<string, JsonValue>>): CompiledParameter[] {
  const words = tokenize(joinHyphens(folded)).map((t) => t.word);
  const others = new Set([...tool.keyWords, ...tool.descriptionWords, ...tool.parameters.flatMap((p) => p.info.words)]);
  return tool.parameters.filter((p) => {
    if (p.info.type !== 'boolean' || p.info.name in args) return false;
    const core = p.info.words.filter((w) => !SWITCH_WORDS.has(w) && !lang.stopwords.has(w) && !tool.keyWords.includes(w));
    const described = (fold(p.info.schema.description ?? '').match(/[a-z]{5,}/g) ?? []).map(stem).filter((w) => !lang.stopwords.has(w) && !others.has(w) && !DESCRIPTION_FILLER.has(w));
    return words.some((word) => core.some((w) => sameWord(word, w)) || described.some((w) => sameWord(word, w)));
  });
}

/** "e-books" as one word, as a parameter name writes it (`include_ebooks`). */
export function joinHyphens(folded: string): string {
  return folded.replace(/(?<=[a-z])-(?=[a-z])/g, '');
}

/** Description words of a yes/no parameter that say it is one, not what it does. */
const DESCRIPTION_FILLER = new Set(['whether', 'should', 'include', 'includ', 'true', 'false', 'default', 'enable', 'disable', 'option', 'return', 'results', 'result', 'value', 'otherwise', 'indicate', 'flag', 'specifie', 'specified', 'defaults', 'incluir', 'verdadeiro', 'falso', 'padrao']);
