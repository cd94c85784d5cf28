/**
 * Null, zero and "not" over any schema. A state word ("still open", "ongoing", "ainda abertos"; "closed",
 * "encerradas") is the subject's one nullable date field that marks an end being empty or set
 * (`ended_on__isnull`); a field after a negation ("no free beds", "sem camas livres") is zero where
 * it counts and empty where it may be; a relation after one ("students without a tutor", "sem
 * professor") is the relation left empty. Two fields or relations that fit as well, and nothing is read.
 */
import type { JsonValue } from '../core/index.js';
import type { Language, ReadLookup } from '../router/index.js';
import type { CompiledReads } from './compile-reads.js';
import { nameWords } from './adjectives.js';
import { identifierPhrase } from './data-vocabulary.js';
import { DATED, NUMERIC, ownFields, relationTo } from './lookups.js';
import type { Meaning, ReadTarget } from './meanings.js';

/** State words per language: `true` open (the end is empty), `false` ended. */
const STATES: Readonly<Record<Language, Readonly<Record<string, boolean>>>> = {
  en: {
    open: true, ongoing: true, 'in progress': true, unfinished: true, current: true, running: true,
    closed: false, finished: false, ended: false, complete: false, completed: false,
  },
  'pt-BR': {
    aberto: true, aberta: true, abertos: true, abertas: true, 'em aberto': true, 'em andamento': true, 'em curso': true, atual: true, atuais: true,
    fechado: false, fechada: false, fechados: false, fechadas: false, encerrado: false, encerrada: false, encerrados: false, encerradas: false,
    finalizado: false, finalizada: false, finalizados: false, finalizadas: false, terminado: false, terminada: false, terminados: false, terminadas: false,
  },
};

/** Verbs of making, before a date ("bookings made in January"). */
const MADE: Readonly<Record<Language, readonly string[]>> = { en: ['made', 'created'], 'pt-BR': ['criado', 'criada', 'criados', 'criadas'] };
/** Words of a date field's name that say the row was made then. */
const MADE_ON = /^(?:created|placed|booked|made|registered|submitted|ordered|issued|posted|criado|criacao|reserva)$/;

/** Words of a date field's name that say it marks an end. */
const END = /^(?:end|ends|ended|ending|finish|finished|close|closed|completed|complete|returned|checkout|left|resolved|stopped|until|fim|saida|termino|encerramento|devolucao)$/;

/** The state words as meanings. */
export function stateMeanings(language: Language): [string, Meaning][] {
  return [...Object.entries(STATES[language]).map(([phrase, open]): [string, Meaning] => [phrase, { kind: 'state', open }]), ...MADE[language].map((word): [string, Meaning] => [word, { kind: 'made' }])];
}

/** Relation words of each read: a relation said by its name ("tutor"), for "without a tutor". */
export function relationMeanings(targets: ReadonlyMap<string, ReadTarget>): [string, Meaning][] {
  const out: [string, Meaning][] = [];
  for (const target of targets.values()) {
    const names = new Set(target.spec.lookups.filter((l) => l.through.length === 1).map((l) => l.through[0] as string));
    for (const relation of names) {
      const phrase = identifierPhrase(relation);
      for (const word of [phrase, `${phrase}s`]) out.push([word, { kind: 'relation', manager: target.spec.manager, relation }]);
    }
  }
  return out;
}

type Filter = { readonly key: string; readonly number: JsonValue };

/** A state word on the subject: its one nullable end date, empty (open) or set (ended). */
export function stateFilter(open: boolean, reads: CompiledReads, target: ReadTarget): Filter | null {
  const ends = ownFields(target, DATED).filter((l) => l.nullable === true && nameWords(l.field, reads, target).some((w) => END.test(w)));
  return ends.length === 1 ? { key: `${(ends[0] as ReadLookup).key}__isnull`, number: open } : null;
}

/** The subject's one date the row was made on, for a date said with a verb of making. */
export function madeOnField(reads: CompiledReads, target: ReadTarget): ReadLookup | null {
  const made = ownFields(target, DATED).filter((l) => nameWords(l.field, reads, target).some((w) => MADE_ON.test(w)));
  return made.length === 1 ? (made[0] as ReadLookup) : null;
}

/** A field said after a negation: zero for a number field that is never empty, empty for a field that may be. */
export function absentFilter(lookup: ReadLookup): Filter | null {
  // "recipes that are not seasonal": a yes/no field said after a negation is false.
  if (lookup.type === 'boolean' && lookup.through.length === 0) return { key: lookup.key, number: false };
  if (NUMERIC.has(lookup.type)) return lookup.nullable === true ? null : { key: lookup.key, number: 0 };
  return lookup.nullable === true ? { key: `${lookup.key}__isnull`, number: true } : null;
}

/** A relation said after a negation, by its name or its manager's: the one such relation of the subject, empty. */
export function absentRelation(word: readonly Meaning[], target: ReadTarget): Filter | null {
  const relations = new Set<string>();
  for (const m of word) {
    if (m.kind === 'relation' && m.manager === target.spec.manager) relations.add(m.relation);
    if (m.kind === 'manager' && m.manager !== target.spec.manager) {
      const relation = relationTo(target, m.manager);
      if (relation !== null) relations.add(relation);
    }
  }
  return relations.size === 1 ? { key: `${[...relations][0] as string}__isnull`, number: true } : null;
}
