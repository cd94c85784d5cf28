import type { Language } from '../router/index.js';

/**
 * A word's stem for telling forms of one word apart from a typo: folded, its inflection dropped
 * ("named", "names", "name" → "nam"; "peças" → "peca").
 */
function stem(word: string, language: Language): string {
  const folded = word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (language === 'pt-BR') return folded.replace(/(?:es|s)$/, '');
  return folded
    .replace(/ies$|ied$/, 'y')
    .replace(/(s|x|z|ch|sh)es$/, '$1')
    .replace(/(?:ing|ed|s)$/, '')
    .replace(/e$/, '');
}

/**
 * Whether a word read as another is worth a note: a typo is ("Ishigro" read as "ishiguro"), while
 * another form of the same word is not ("named" read as "names"): the reader did not correct the
 * person, only the word's ending.
 */
export function correctionWorthSaying(typed: string, read: string, language: Language): boolean {
  return stem(typed, language) !== stem(read, language);
}
