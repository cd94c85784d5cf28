/**
 * The words an answer about an app's data is written with, per language: row types, field labels,
 * enum values and manager names. English from the host's `en` manager words where they name a
 * manager in both numbers, else the schema's names in words; Portuguese from the
 * host's `pt-BR` vocabulary as typed (accents kept), else `PT_WORDS`, else the English words.
 */
import type { Language, VocabularyFile } from '../router/index.js';
import type { SchemaIndex } from '../tools/index.js';
import { identifierPhrase, plural } from './data-vocabulary.js';
import { PT_VALUES, portugueseWords } from './pt-words.js';
import { lexiconNouns } from './pt-lexicon.js';

/** Structurally the answer writer's `AnswerLabels`. */
export interface AppLabels {
  row(tool: string, language: Language, count: number): string | null;
  field(tool: string, field: string, language: Language): string | null;
  value(tool: string, field: string, value: string, language: Language): string | null;
  manager(manager: string, language: Language, count: number): string | null;
}

const TITLES = new Set(['name', 'title', 'label']);
const STATUS_FIELDS = /^(?:status|state|priority)$/i;

export function appLabels(index: SchemaIndex, hostFile: VocabularyFile, managerOf: ReadonlyMap<string, string>): AppLabels {
  const pt = hostFile.languages?.['pt-BR']?.data;
  const en = hostFile.languages?.['en']?.data;
  const enums = new Map<string, ReadonlySet<string>>();
  const relations = new Map<string, string>();
  for (const indexed of index.all) {
    const manager = indexed.entry.manager;
    for (const f of indexed.entry.fields) if (f.type === 'enum') enums.set(`${manager}.${f.name}`, new Set());
    for (const r of indexed.entry.relations) relations.set(`${manager}.${r.name}`, r.target);
  }
  const managerNoun = (manager: string, language: Language, count: number): string | null => {
    if (language === 'pt-BR') {
      const typed = pt?.managers?.[manager] ?? portugueseWords(identifierPhrase(manager));
      const singular = typed[0];
      if (singular === undefined) return null;
      return count === 1 ? singular : (typed[1] ?? singular);
    }
    // The host's own English word when it names one in both numbers ("material", "materials"), never the identifier's ("material managers").
    const named = en?.managers?.[manager]?.find((word, _, words) => words.includes(plural(word)));
    const phrase = named ?? identifierPhrase(manager);
    return count === 1 ? phrase : plural(phrase);
  };
  /** One field of one manager (or a relation of it), in Portuguese. */
  const ptField = (manager: string | undefined, field: string): string | null => {
    const typed = manager === undefined ? undefined : pt?.fields?.[`${manager}.${field}`]?.[0];
    if (typed !== undefined) return typed;
    const target = manager === undefined ? undefined : relations.get(`${manager}.${field}`);
    if (target !== undefined) return managerNoun(target, 'pt-BR', /s$/.test(field) ? 2 : 1);
    return portugueseWords(identifierPhrase(field))[0] ?? null;
  };
  return {
    row: (tool, language, count) => {
      const manager = managerOf.get(tool);
      return manager === undefined ? null : managerNoun(manager, language, count);
    },
    manager: managerNoun,
    field: (tool, field, language) => {
      const manager = managerOf.get(tool);
      const parts = field.split(/__|\./);
      if (language === 'en') {
        const own = manager === undefined || parts.length > 1 ? undefined : en?.fields?.[`${manager}.${field}`];
        // The host's own English word where it gave one for an own field; a related row's title is the
        // relation itself ("material", "material of parts"); else the name in words ("material density").
        if (own?.[0] !== undefined) return own[0];
        const last = parts[parts.length - 1] as string;
        if (parts.length > 1 && TITLES.has(last)) return parts.slice(0, -1).reverse().map(identifierPhrase).join(' of ');
        return identifierPhrase(parts.join(' '));
      }
      if (parts.length === 1) return ptField(manager, field) ?? identifierPhrase(field);
      // A path: the related row's title is the relation itself ("material"); another field is "estoque de peças".
      let owner = manager;
      const names: string[] = [];
      for (const part of parts.slice(0, -1)) {
        names.push(ptField(owner, part) ?? identifierPhrase(part));
        owner = owner === undefined ? undefined : relations.get(`${owner}.${part}`);
      }
      const last = parts[parts.length - 1] as string;
      const relation = names.reverse().join(' de ');
      return TITLES.has(last) ? relation : `${ptField(owner, last) ?? identifierPhrase(last)} de ${relation}`;
    },
    value: (tool, field, value, language) => {
      const manager = managerOf.get(tool);
      // A host tool's result has no schema: its status-like fields are taken as the enums they are.
      if (manager === undefined) return language === 'pt-BR' && STATUS_FIELDS.test(field) ? (PT_VALUES[value] ?? null) : null;
      if (!enums.has(`${manager}.${field}`)) return null;
      if (language === 'pt-BR') return pt?.values?.[`${manager}.${field}`]?.[value]?.[0] ?? PT_VALUES[value] ?? lexiconNouns(identifierPhrase(value))[0]?.singular ?? null;
      return identifierPhrase(value);
    },
  };
}
