/**
 * General verbs no noun of the schema says, matched against its relations by kind: where a person
 * works ("which ward does X work on?", "trabalha na ala"), what goes into a thing ("what goes into
 * Night Heron?", a relation to ingredients, components, parts or materials), and who asked for a
 * request ("who asked for leave?", a request manager's relation to a person). People are the
 * managers the lexicon names as people (`pt-lexicon-people.ts`). Each word keeps the relation it
 * came from, so `plumb route --explain` lists it; a verb read joins only along that relation
 * (`verbsWalked`), and a relation of two kinds' verbs stays each kind's.
 */
import type { Language } from '../router/index.js';
import { identifierPhrase } from './data-vocabulary.js';
import type { Meaning, ReadTarget } from './meanings.js';
import { isPersonNoun } from './pt-lexicon.js';
import type { DerivedWord } from './relation-verbs.js';

type Forms = Readonly<Record<Language, readonly string[]>>;

/** The general verbs, by the relation kind they stand for. */
export const GENERAL_VERBS: Readonly<Record<'workplace' | 'constituent' | 'requester', Forms>> = {
  workplace: {
    en: ['work on', 'works on', 'worked on', 'work in', 'works in', 'worked in', 'work at', 'works at', 'worked at', 'work for', 'works for', 'worked for', 'working on', 'working in', 'working at', 'working for'],
    'pt-BR': ['trabalha em', 'trabalha no', 'trabalha na', 'trabalham em', 'trabalham no', 'trabalham na', 'trabalhou em', 'trabalhou no', 'trabalhou na', 'trabalha para', 'trabalham para'],
  },
  constituent: {
    en: ['go into', 'goes into', 'went into', 'used in', 'is used in', 'are used in'],
    'pt-BR': ['vai em', 'vai no', 'vai na', 'vão em', 'vão no', 'vão na', 'entra em', 'entra no', 'entra na', 'entram em', 'entram no', 'entram na', 'leva', 'levam', 'usado em', 'usada em', 'usados em', 'usadas em'],
  },
  requester: {
    en: ['ask for', 'asks for', 'asked for', 'request', 'requests', 'requested', 'apply for', 'applies for', 'applied for'],
    'pt-BR': ['pediu', 'pediram', 'pede', 'pedem', 'solicitou', 'solicitaram', 'solicita', 'solicitam'],
  },
};

/** The last word of a constituent relation or its target: what a thing is made up of. */
const CONSTITUENTS = new Set(['ingredient', 'ingredients', 'component', 'components', 'part', 'parts', 'material', 'materials']);
/** The last word of a manager that is a request someone makes. */
const REQUESTS = new Set(['request', 'application', 'claim']);

export function generalVerbs(targets: ReadonlyMap<string, ReadTarget>, language: Language): DerivedWord[] {
  const out: DerivedWord[] = [];
  const isPerson = (manager: string): boolean => isPersonNoun(identifierPhrase(manager));
  for (const [manager, target] of targets) {
    const phrase = identifierPhrase(manager);
    const words = phrase.split(' ');
    const request = REQUESTS.has(words.at(-1) ?? '');
    for (const l of target.spec.lookups) {
      if (l.through.length !== 1) continue;
      const relation = identifierPhrase(l.through[0] as string);
      const add = (kind: keyof typeof GENERAL_VERBS, meaning: Meaning, forms: readonly string[]): void => {
        for (const form of forms) out.push({ phrase: form, meaning, from: `relation ${manager}.${l.through[0] as string} (general verb: ${kind})` });
      };
      // A person's own single relation to something no person is: where the person works.
      if (isPerson(manager) && !isPerson(l.manager) && !/s$/.test(relation)) add('workplace', { kind: 'verb', via: manager, sides: [manager, l.manager], agent: manager }, GENERAL_VERBS.workplace[language]);
      const last = (text: string): string => text.split(' ').at(-1) ?? '';
      if (CONSTITUENTS.has(last(relation)) || CONSTITUENTS.has(last(identifierPhrase(l.manager)))) add('constituent', { kind: 'verb', via: manager, sides: [manager, l.manager], agent: null }, GENERAL_VERBS.constituent[language]);
      // A request's relation to a person: its requester. "asked for leave" says the request's own kind too.
      if (request && isPerson(l.manager)) {
        const forms = GENERAL_VERBS.requester[language];
        const object = words.slice(0, -1).join(' ');
        add('requester', { kind: 'verb', via: manager, sides: [manager, l.manager], agent: l.manager }, language === 'en' && object.length > 0 ? [...forms, ...forms.map((f) => `${f} ${object}`)] : forms);
      }
    }
  }
  return out;
}
