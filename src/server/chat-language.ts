import { LANGUAGES } from '../router/index.js';

/** Why a request's `language` is refused, or undefined when it is absent or one the router reads. */
export function languageProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)) return undefined;
  return `'language' must be one of ${LANGUAGES.map((language) => `'${language}'`).join(', ')} (the language the router reads this turn in).`;
}
