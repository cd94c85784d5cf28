/**
 * The words a text value is said with, per language: itself (and its identifier's words), and across
 * the two languages through the lexicon — an English value in a Portuguese turn ("goalkeeper" →
 * goleiro, goleiros, goleira), a Portuguese value in an English one ("enfermeira" → nurse, nurses).
 * Only a value the lexicon holds whole is carried over, and a Portuguese value only when it is the
 * form of one English noun: never a guess from one word of a longer value, nor a word of two nouns.
 */
import type { Language } from '../router/index.js';
import { englishPlural } from './inflect.js';
import { englishOf, lexiconNouns, nounForms } from './pt-lexicon.js';

export function valueSayings(value: string, spoken: string, language: Language): string[] {
  const own = spoken === value.toLowerCase() ? [value] : [value, spoken];
  if (language === 'pt-BR') return [...new Set([...own, ...lexiconNouns(spoken).flatMap(nounForms)])];
  const english = englishOf(spoken);
  if (english.length !== 1 || english[0] === spoken) return own;
  const word = english[0] as string;
  return [...new Set([...own, word, ...(word.includes(' ') ? [] : [englishPlural(word)])])];
}
