import type { AppReader } from '../engine/index.js';
import { LANGUAGES } from '../router/index.js';
import type { ConsoleExample } from './console-routes.js';

/**
 * The host's example questions with the language each is written in, so that the console asks a
 * Portuguese example in Portuguese (the router never guesses a person's language; an example is
 * the host's, read here once, at startup). The language is the first the router reads the
 * question in (`en` first); one it reads in none keeps no language.
 */
export function exampleLanguages(reader: AppReader | undefined, examples: readonly string[]): ConsoleExample[] {
  if (reader === undefined) return examples.map((text) => ({ text }));
  const router = reader.router();
  return examples.map((text) => {
    const language = LANGUAGES.find((candidate) => router.plan(text, { language: candidate }).outcome !== 'unread');
    return language === undefined ? { text } : { text, language };
  });
}
