/**
 * Which of the router's languages a turn is written in, when the person did not say: the function
 * words only one language's stopwords have, and Portuguese letters (ã, ç, é…). Null when the turn gives
 * no sign either way ("40.00", "Apollo"), so that the conversation's language stands.
 */
import type { CompiledLanguage } from './compile.js';
import { fold } from './text.js';
import type { Language } from './types.js';

const PORTUGUESE_LETTERS = /[ãõçáéíóúâêôà]/i;

export function guessLanguage(languages: Readonly<Record<Language, CompiledLanguage>>, turn: string): Language | null {
  const en = languages.en.words.stopwords;
  const pt = languages['pt-BR'].words.stopwords;
  let score = PORTUGUESE_LETTERS.test(turn) ? 2 : 0;
  for (const word of fold(turn).match(/[a-z]+/g) ?? []) {
    const inEn = en.has(word);
    const inPt = pt.has(word);
    if (inPt && !inEn) score++;
    else if (inEn && !inPt) score--;
  }
  if (score > 0) return 'pt-BR';
  if (score < 0) return 'en';
  return null;
}
