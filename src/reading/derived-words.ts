/**
 * The words the reader derives from the schema and its values rather than reads from the vocabulary:
 * relation verbs, demonyms of the countries columns hold, and place words. Each keeps where it came
 * from, so that a reading can say which schema name a word matched (`CompiledReads.derived`).
 */
import type { Language, LanguageWords } from '../router/index.js';
import { demonymsOf } from './demonyms.js';
import { generalVerbs } from './general-verbs.js';
import type { ReadTarget } from './meanings.js';
import { PLACE_WORDS } from './place-words.js';
import type { DerivedWord } from './relation-verbs.js';
import { relationVerbs } from './relation-verbs.js';

export function derivedWords(targets: ReadonlyMap<string, ReadTarget>, values: LanguageWords['data']['values'], language: Language): DerivedWord[] {
  const out = [...relationVerbs(targets, language), ...generalVerbs(targets, language)];
  for (const [key, map] of Object.entries(values)) {
    const dot = key.indexOf('.');
    const manager = key.slice(0, dot);
    const field = key.slice(dot + 1);
    if (!targets.has(manager)) continue;
    for (const value of Object.keys(map))
      for (const phrase of demonymsOf(value, language)) out.push({ phrase, meaning: { kind: 'value', manager, field, value, demonym: true }, from: `demonym of ${key} = ${value}` });
  }
  for (const phrase of PLACE_WORDS[language]) out.push({ phrase, meaning: { kind: 'place' }, from: 'place word' });
  return out;
}
