/**
 * Relation verbs, derived from the schema's own names: a relation or text field named by an agent
 * noun says its verb ("Course.teacher" → teach, taught, ensina; "Book.author" → wrote, written), and
 * a manager joining two others, named by an act, says the act ("Rental(guest, room)" → rent, rented,
 * alugou; "Enrollment(student, course)" → enrolled, take). A verb read joins the subject to the rows
 * its value names only along that relation: it is consumed when a filter of the read walks it.
 */
import type { Language } from '../router/index.js';
import { identifierPhrase } from './data-vocabulary.js';
import { baseKey, pathManagers } from './lookups.js';
import type { Meaning, MeaningOf, ReadTarget } from './meanings.js';

interface VerbForms {
  readonly en: readonly string[];
  readonly 'pt-BR': readonly string[];
}

/** Agent nouns → the verb they do (a relation or field so named: its holder's rows are what the agent did). */
export const AGENT_VERBS: Readonly<Record<string, VerbForms>> = {
  teacher: { en: ['teach', 'teaches', 'taught', 'teaching'], 'pt-BR': ['ensina', 'ensinam', 'ensinou', 'ensinaram', 'ensinado', 'ensinada', 'ensinados', 'ensinadas', 'leciona', 'lecionam', 'lecionou', 'lecionado', 'lecionada'] },
  instructor: { en: ['teach', 'teaches', 'taught', 'teaching'], 'pt-BR': ['ensina', 'ensinam', 'ensinou', 'ensinado', 'ensinada', 'ensinados', 'ensinadas'] },
  author: { en: ['write', 'writes', 'wrote', 'written', 'writing'], 'pt-BR': ['escreve', 'escrevem', 'escreveu', 'escreveram', 'escrito', 'escrita', 'escritos', 'escritas'] },
  writer: { en: ['write', 'writes', 'wrote', 'written'], 'pt-BR': ['escreve', 'escreveu', 'escrito', 'escrita', 'escritos', 'escritas'] },
  owner: { en: ['own', 'owns', 'owned', 'belong to', 'belongs to'], 'pt-BR': ['possui', 'possuem', 'pertence a', 'pertencem a', 'pertencente a', 'pertencentes a'] },
  driver: { en: ['drive', 'drives', 'drove', 'driven', 'driving'], 'pt-BR': ['dirige', 'dirigem', 'dirigiu', 'dirigiram', 'dirigido', 'dirigida', 'dirigidos', 'dirigidas'] },
  manager: { en: ['manage', 'manages', 'managed', 'managing'], 'pt-BR': ['gerencia', 'gerenciam', 'gerenciou', 'gerenciado', 'gerenciada', 'gerenciados', 'gerenciadas'] },
  assignee: { en: ['assigned to'], 'pt-BR': ['atribuído a', 'atribuída a', 'atribuídos a', 'atribuídas a'] },
  reviewer: { en: ['review', 'reviews', 'reviewed'], 'pt-BR': ['revisou', 'revisado', 'revisada', 'revisados', 'revisadas'] },
  tutor: { en: ['tutor', 'tutors', 'tutored'], 'pt-BR': ['orienta', 'orientam', 'orientou', 'orientado', 'orientada', 'orientados', 'orientadas'] },
  coach: { en: ['coach', 'coaches', 'coached'], 'pt-BR': ['treina', 'treinam', 'treinou', 'treinado', 'treinada', 'treinados', 'treinadas'] },
  doctor: { en: ['treat', 'treats', 'treated'], 'pt-BR': ['atende', 'atendem', 'atendeu', 'atendido', 'atendida', 'atendidos', 'atendidas'] },
  seller: { en: ['sell', 'sells', 'sold'], 'pt-BR': ['vende', 'vendem', 'vendeu', 'vendido', 'vendida', 'vendidos', 'vendidas'] },
};

/** Act nouns a joining manager may be named by → the act ("Rental" → rent). Other `-ment`/`-ing` names derive regularly. */
export const ACT_VERBS: Readonly<Record<string, VerbForms>> = {
  rental: { en: ['rent', 'rents', 'rented', 'renting'], 'pt-BR': ['aluga', 'alugam', 'alugou', 'alugaram', 'alugado', 'alugada', 'alugados', 'alugadas'] },
  enrollment: { en: ['enrol', 'enroll', 'enrols', 'enrolls', 'enrolled', 'enrolling', 'take', 'takes', 'took', 'taking'], 'pt-BR': ['matriculado', 'matriculada', 'matriculados', 'matriculadas', 'matriculou', 'matricularam', 'cursa', 'cursam', 'cursou'] },
  enrolment: { en: ['enrol', 'enrols', 'enrolled', 'enrolling', 'take', 'takes', 'took', 'taking'], 'pt-BR': ['matriculado', 'matriculada', 'matriculados', 'matriculadas', 'matriculou', 'cursa', 'cursam'] },
  booking: { en: ['book', 'books', 'booked', 'booking'], 'pt-BR': ['reservou', 'reservaram', 'reservado', 'reservada', 'reservados', 'reservadas'] },
  reservation: { en: ['reserve', 'reserves', 'reserved'], 'pt-BR': ['reservou', 'reservaram', 'reservado', 'reservada', 'reservados', 'reservadas'] },
  loan: { en: ['borrow', 'borrows', 'borrowed', 'lend', 'lent'], 'pt-BR': ['emprestou', 'emprestado', 'emprestada', 'emprestados', 'emprestadas'] },
  purchase: { en: ['buy', 'buys', 'bought', 'purchased'], 'pt-BR': ['comprou', 'compraram', 'comprado', 'comprada', 'comprados', 'compradas'] },
  subscription: { en: ['subscribe to', 'subscribes to', 'subscribed to'], 'pt-BR': ['assina', 'assinam', 'assinou', 'assinado', 'assinada'] },
  registration: { en: ['register for', 'registered for', 'registered in'], 'pt-BR': ['inscrito em', 'inscrita em', 'inscritos em', 'inscritas em'] },
  attendance: { en: ['attend', 'attends', 'attended'], 'pt-BR': ['frequenta', 'frequentam', 'frequentou'] },
  visit: { en: ['visit', 'visits', 'visited'], 'pt-BR': ['visitou', 'visitaram', 'visitado', 'visitada'] },
};

/** A word this module derived, and the schema name it came from (for `plumb route --explain`). */
export interface DerivedWord {
  readonly phrase: string;
  readonly meaning: Meaning;
  /** Where it came from: "relation Course.teacher (agent noun teacher)". */
  readonly from: string;
}

/**
 * The verbs of a schema's relations and fields, in one language: an agent-noun relation (`teacher`
 * on Course) or field (`author` on Book), and a manager with two relations named by an act
 * (`Rental`: a table row → its two sides).
 */
export function relationVerbs(targets: ReadonlyMap<string, ReadTarget>, language: Language): DerivedWord[] {
  const out: DerivedWord[] = [];
  for (const [manager, target] of targets) {
    const relations = new Map<string, string>();
    for (const l of target.spec.lookups) if (l.through.length === 1) relations.set(l.through[0] as string, l.manager);
    for (const [name, other] of relations) {
      const noun = agentNoun(identifierPhrase(name)) ?? agentNoun(identifierPhrase(other));
      if (noun === null) continue;
      const meaning: Meaning = { kind: 'verb', via: manager, sides: [manager, other], agent: other };
      for (const phrase of agentForms(noun, language)) out.push({ phrase, meaning, from: `relation ${manager}.${name} (${origin(noun)} ${noun})` });
    }
    for (const l of target.spec.lookups) {
      if (l.through.length > 0 || (l.type !== 'string' && l.type !== 'text')) continue;
      const noun = agentNoun(identifierPhrase(l.field));
      if (noun === null) continue;
      const meaning: Meaning = { kind: 'agentField', manager, field: l.field };
      for (const phrase of agentForms(noun, language)) out.push({ phrase, meaning, from: `field ${manager}.${l.field} (${origin(noun)} ${noun})` });
    }
    const sides = [...new Set(relations.values())];
    if (sides.length !== 2) continue;
    const act = identifierPhrase(manager);
    const forms = ACT_VERBS[act]?.[language] ?? (language === 'en' ? regularAct(act) : []);
    const meaning: Meaning = { kind: 'verb', via: manager, sides, agent: null };
    for (const phrase of forms) out.push({ phrase, meaning, from: `manager ${manager} joining ${sides.join(' and ')} (${ACT_VERBS[act] === undefined ? 'regular' : 'act noun'} ${act})` });
  }
  return out;
}

/**
 * The agent noun a phrase ends with ("course teacher" → teacher), or that a name field is of ("coach
 * name" → coach): one the table knows, else an English `-er`/`-or` noun whose verb derives regularly.
 */
function agentNoun(phrase: string): string | null {
  const words = phrase.split(' ');
  const noun = words.length === 2 && words[1] === 'name' ? (words[0] as string) : (words.at(-1) ?? '');
  return AGENT_VERBS[noun] !== undefined || regularAgent(noun).length > 0 ? noun : null;
}

function agentForms(noun: string, language: Language): readonly string[] {
  return AGENT_VERBS[noun]?.[language] ?? (language === 'en' ? regularAgent(noun) : []);
}

function origin(noun: string): string {
  return AGENT_VERBS[noun] === undefined ? 'regular agent noun' : 'agent noun';
}

/**
 * The verb of an English agent noun that is no table entry: brewer → brew(s/ed/ing), observer →
 * observe(s/d), sponsor → sponsor(s/ed), visitor → visit, supplier → supply. Both stems of an `-er`
 * noun are given (brew and "brewe"): the one that is no word is never typed. Nouns that end so but do
 * nobody's act (order, number, member, customer…) derive nothing; a stem under four letters neither.
 */
function regularAgent(noun: string): string[] {
  if (NOT_AGENTS.has(noun)) return [];
  const stems = /ier$/.test(noun) ? [`${noun.slice(0, -3)}y`] : /er$/.test(noun) ? [noun.slice(0, -2), noun.slice(0, -1)] : /or$/.test(noun) ? [noun, noun.slice(0, -2)] : [];
  return [...new Set(stems.filter((stem) => stem.length >= 4).flatMap(verbForms))];
}

function verbForms(stem: string): string[] {
  if (stem.endsWith('e')) return [stem, `${stem}s`, `${stem}d`, `${stem.slice(0, -1)}ing`];
  if (/[^aeiou]y$/.test(stem)) return [stem, `${stem.slice(0, -1)}ies`, `${stem.slice(0, -1)}ied`, `${stem}ing`];
  return [stem, `${stem}s`, `${stem}ed`, `${stem}ing`];
}

/** `-er`/`-or` nouns that name things, not the doers of an act. */
const NOT_AGENTS = new Set([
  'order', 'number', 'member', 'customer', 'user', 'paper', 'water', 'letter', 'center', 'centre', 'container', 'folder', 'filter', 'layer', 'tier', 'quarter', 'header', 'footer',
  'error', 'color', 'colour', 'floor', 'door', 'vendor', 'sector', 'factor', 'vector', 'motor', 'mirror', 'monitor', 'meter', 'liter', 'litre', 'parameter', 'character', 'chapter', 'cluster',
  'power', 'tower', 'timer', 'counter', 'marker', 'partner', 'officer', 'computer', 'server', 'printer', 'trailer', 'tanker', 'locker', 'poster', 'sticker', 'voucher', 'barrier', 'carrier', 'courier',
  'major', 'minor', 'senior', 'junior', 'interior', 'exterior', 'honor', 'labor', 'flavor', 'flavour', 'humor', 'rumor', 'tenor', 'donor', 'mentor', 'anchor', 'corridor', 'indicator', 'actor',
]);

/** "assignment" → assign, assigns, assigned, assigning; "booking" → book …; a one-word name only. */
function regularAct(act: string): string[] {
  const stem = /^([a-z]{3,})(?:ment|ing)$/.exec(act)?.[1];
  return stem === undefined ? [] : [stem, `${stem}s`, `${stem}ed`, `${stem}ing`];
}

/**
 * Whether each verb a question says is walked by the read: one filter's path, from the subject,
 * reaches every manager the verb joins ("which trucks did Rui Costa drive?": Truck by
 * `trips__driver__fullName` walks Trip.driver). "who teaches Algebra
 * II?" on Teacher by `courses__title` walks Course.teacher; on Student by `enrollments__course__title`
 * it would not, and the read is no reading of the turn.
 */
export function verbsWalked(verbs: readonly (readonly MeaningOf<'verb'>[])[], target: ReadTarget, filterKeys: readonly string[]): boolean {
  const subject = target.spec.manager;
  const paths = filterKeys.map((key) => {
    const lookup = target.spec.lookups.find((l) => l.key === baseKey(key));
    return new Set([subject, ...(lookup === undefined ? [] : pathManagers(target.spec, lookup))]);
  });
  return verbs.every((word) => {
    const walked = word.filter((verb) => paths.some((path) => [verb.via, ...verb.sides].every((m) => path.has(m))));
    return walked.length === 1 || (walked.length > 1 && new Set(walked.map((v) => v.via)).size === 1);
  });
}

/**
 * The subject of a verb question that names no manager ("who teaches Algebra II?", "who rented room
 * 12?"): the verb's agent, else its one side the values and numbers do not name; null when not one.
 */
export function verbSubject(verbs: readonly (readonly MeaningOf<'verb'>[])[], named: ReadonlySet<string>): string | null {
  const subjects = new Set<string>();
  for (const word of verbs)
    for (const verb of word) {
      if (verb.agent !== null && !named.has(verb.agent)) subjects.add(verb.agent);
      else if (verb.agent === null) for (const side of verb.sides.filter((s) => !named.has(s))) subjects.add(side);
    }
  return subjects.size === 1 ? ([...subjects][0] as string) : null;
}
