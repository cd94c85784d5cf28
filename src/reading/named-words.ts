/**
 * Words that only the host or the asking person give a meaning: a manager's named conditions
 * ("overdue", "atrasadas"), read as adjectives and nouns, and the first person ("my", "I", "minhas",
 * "eu"), read as the asking person's own rows. Both end as filters of the read; neither is guessed:
 * a condition whose time words have no clock, or a first person with no row for the actor, leaves the
 * turn unread.
 */
import type { JsonObject, JsonValue } from '../core/index.js';
import { isTimeWord, timeValue } from '../data/index.js';
import type { ActorRowFilter, Language } from '../router/index.js';
import { foldPhrase } from '../router/index.js';
import { identifierPhrase } from './data-vocabulary.js';
import { inflections } from './inflect.js';
import { baseKey, relationTo } from './lookups.js';
import type { Meaning, ReadTarget } from './meanings.js';

/** A named condition as the reader takes it: the manager it belongs to, its name, filter and words. */
export interface ReaderCondition {
  readonly manager: string;
  readonly name: string;
  readonly filter: JsonObject;
  readonly words: { readonly en?: readonly string[] | undefined; readonly 'pt-BR'?: readonly string[] | undefined } | undefined;
}

/**
 * The first person, per language (folded). "can I", "do I have to" and the like ask the assistant,
 * not about the person's rows: they are the grammar's stopwords, matched first as the longer phrase.
 */
const FIRST_PERSON: Readonly<Record<Language, readonly string[]>> = {
  en: ['my', 'mine', 'i', "i've", 'ive', 'me myself', 'myself'],
  'pt-BR': ['meu', 'minha', 'meus', 'minhas', 'eu', 'comigo'],
};
const ASKING_THE_ASSISTANT: Readonly<Record<Language, readonly string[]>> = {
  en: ['can i', 'could i', 'may i', 'i want', 'i would like', "i'd like", 'i need', 'i mean', 'i wonder', 'i think'],
  'pt-BR': ['eu quero', 'eu gostaria', 'eu preciso', 'eu acho'],
};

/** The phrases these words add to the reader's matcher, with what each means. */
export function namedPhrases(language: Language, conditions: readonly ReaderCondition[]): { phrase: string; meaning: Meaning }[] {
  const out: { phrase: string; meaning: Meaning }[] = [];
  for (const c of conditions) {
    const meaning: Meaning = { kind: 'condition', manager: c.manager, name: c.name, filter: c.filter };
    const own = language === 'en' ? [identifierPhrase(c.name)] : [];
    for (const word of [...own, ...(c.words?.[language] ?? [])]) {
      const folded = foldPhrase(word);
      out.push({ phrase: folded, meaning });
      for (const form of inflections(folded, language)) out.push({ phrase: form, meaning });
    }
  }
  for (const word of FIRST_PERSON[language]) out.push({ phrase: word, meaning: { kind: 'firstPerson' } });
  for (const word of ASKING_THE_ASSISTANT[language]) out.push({ phrase: word, meaning: { kind: 'stop' } });
  return out;
}

/** A condition's filter on the read's subject at the clause's time; null when it is another manager's or needs a clock it has not. */
export function conditionFilter(target: ReadTarget, condition: Pick<ReaderCondition, 'manager' | 'filter'>, now: string | null): Record<string, JsonValue> | null {
  if (condition.manager !== target.spec.manager) return null;
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(condition.filter)) {
    if (!isTimeWord(value)) {
      out[key] = value;
      continue;
    }
    const lookup = target.spec.lookups.find((l) => l.key === baseKey(key));
    if (now === null || lookup === undefined || (lookup.type !== 'date' && lookup.type !== 'datetime')) return null;
    out[key] = timeValue(value, lookup.type, now);
  }
  return out;
}

/** The asking person's rows as a filter on the subject: their own manager's filter, or it walked through the subject's one relation to it. */
export function actorFilter(target: ReadTarget, actor: ActorRowFilter | null): Record<string, JsonValue> | null {
  if (actor === null) return null;
  if (actor.manager === target.spec.manager) return { ...actor.filter };
  const relation = relationTo(target, actor.manager);
  if (relation === null) return null;
  const keys = new Set(target.spec.lookups.map((l) => l.key));
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(actor.filter)) {
    const rooted = `${relation}__${key}`;
    if (!keys.has(baseKey(rooted))) return null;
    out[rooted] = value;
  }
  return out;
}
