/** A write refused before anything about it was asked: the actor may not make it (an anonymous visitor, a role it lacks). */
import type { Language } from '../router/index.js';
import { ANSWER_WORDS, fill } from './words.js';

export function refusalAnswer(language: Language, tool: string, code: string, message: string): string {
  const words = ANSWER_WORDS[language] ?? ANSWER_WORDS.en;
  // Said in the person's language where the reason is the one every host has: writing needs a signed-in user.
  const reason = code === 'authentication_required' ? fill(words.signIn, { tool }) : message;
  return fill(words.refused, { message: reason, code });
}
