/**
 * Held-out turns for three reading families — relation verbs and demonyms, values as nouns, attribute
 * and yes/no questions — over the school, hostel and fleet of fresh-hosts.ts and the library. Written
 * before they were first run; each names the read it should make, or `unread` where the app cannot
 * answer it. The clock is 2026-12-01T09:00:00Z, a Tuesday.
 */
import type { Language } from '../../router/index.js';

export type FamilyApp = 'school' | 'hostel' | 'fleet' | 'library';

export interface ExpectedRead {
  readonly tool: string;
  readonly filters?: Readonly<Record<string, unknown>>;
  /** The fields of an attribute read; where absent, the manager's own fields. */
  readonly fields?: readonly string[];
  readonly compute?: 'count' | 'exists';
}

export interface FamilyTurn {
  readonly app: FamilyApp;
  readonly family: 'verbs' | 'nouns' | 'attributes';
  readonly turn: string;
  readonly language: Language;
  readonly expect: ExpectedRead | 'unread';
}

const en = (app: FamilyApp, family: FamilyTurn['family'], turn: string, expect: FamilyTurn['expect']): FamilyTurn => ({ app, family, turn, language: 'en', expect });
const pt = (app: FamilyApp, family: FamilyTurn['family'], turn: string, expect: FamilyTurn['expect']): FamilyTurn => ({ app, family, turn, language: 'pt-BR', expect });

const SATURDAY = { startsAt__gte: '2026-12-05T00:00:00+00:00', startsAt__lt: '2026-12-06T00:00:00+00:00' };

export const FAMILY_TURNS: readonly FamilyTurn[] = [
  // relation verbs, place words and demonyms
  en('school', 'verbs', 'who teaches Algebra II?', { tool: 'query_teacher', filters: { courses__title: 'Algebra II' } }),
  en('school', 'verbs', 'which courses does Amara Okafor teach?', { tool: 'query_course', filters: { teacher__fullName: 'Amara Okafor' } }),
  en('school', 'verbs', 'courses taught by Daniel Lee', { tool: 'query_course', filters: { teacher__fullName: 'Daniel Lee' } }),
  en('school', 'verbs', 'which students enrolled in Algebra II?', { tool: 'query_student', filters: { enrollments__course__title: 'Algebra II' } }),
  en('school', 'verbs', 'courses by Kenyan teachers', { tool: 'query_course', filters: { teacher__country: 'Kenya' } }),
  en('school', 'verbs', 'which students are from France?', { tool: 'query_student', filters: { country: 'France' } }),
  en('school', 'verbs', 'students who live in Lyon', { tool: 'query_student', filters: { city: 'Lyon' } }),
  en('school', 'verbs', 'Portuguese students', { tool: 'query_student', filters: { country: 'Portugal' } }),
  en('school', 'verbs', 'who teaches Latin?', 'unread'),
  en('school', 'verbs', 'which teachers are French?', 'unread'),
  pt('school', 'verbs', 'quem ensina Álgebra II?', { tool: 'query_teacher', filters: { courses__title: 'Algebra II' } }),
  pt('school', 'verbs', 'quais cursos a Amara Okafor ensina?', { tool: 'query_course', filters: { teacher__fullName: 'Amara Okafor' } }),
  pt('school', 'verbs', 'alunos que moram em Lyon', { tool: 'query_student', filters: { city: 'Lyon' } }),
  pt('school', 'verbs', 'cursos de professores quenianos', { tool: 'query_course', filters: { teacher__country: 'Kenya' } }),
  en('library', 'verbs', 'who wrote Dom Casmurro?', { tool: 'query_book', fields: ['id', 'title', 'author'], filters: { title: 'Dom Casmurro' } }),
  en('library', 'verbs', 'books written by Kazuo Ishiguro', { tool: 'query_book', filters: { author: 'Kazuo Ishiguro' } }),
  en('hostel', 'verbs', 'who rented room 12?', { tool: 'query_guest', filters: { rentals__room__id: 12 } }),
  en('hostel', 'verbs', 'which rooms did Marie Dubois rent?', { tool: 'query_room', filters: { rentals__guest__fullName: 'Marie Dubois' } }),
  en('hostel', 'verbs', 'guests who live in Lyon', { tool: 'query_guest', filters: { city: 'Lyon' } }),
  en('hostel', 'verbs', 'German guests', { tool: 'query_guest', filters: { country: 'Germany' } }),
  en('hostel', 'verbs', 'Kenyan rooms', 'unread'),
  en('hostel', 'verbs', 'Italian guests', 'unread'),
  pt('hostel', 'verbs', 'hóspedes que moram em Lyon', { tool: 'query_guest', filters: { city: 'Lyon' } }),
  pt('hostel', 'verbs', 'hóspedes brasileiros', { tool: 'query_guest', filters: { country: 'Brazil' } }),
  pt('hostel', 'verbs', 'quem alugou o quarto 12?', { tool: 'query_guest', filters: { rentals__room__id: 12 } }),
  en('fleet', 'verbs', 'who drove truck 8?', { tool: 'query_driver', filters: { trips__truck__id: 8 } }),
  en('fleet', 'verbs', 'which trucks did Rui Costa drive?', { tool: 'query_truck', filters: { trips__driver__fullName: 'Rui Costa' } }),
  en('fleet', 'verbs', 'drivers from Kenya', { tool: 'query_driver', filters: { country: 'Kenya' } }),
  en('fleet', 'verbs', 'Kenyan drivers', { tool: 'query_driver', filters: { country: 'Kenya' } }),
  pt('fleet', 'verbs', 'motoristas portugueses', { tool: 'query_driver', filters: { country: 'Portugal' } }),

  // values as nouns
  en('school', 'nouns', 'how many electives are there?', { tool: 'query_course', filters: { kind: 'elective' }, compute: 'count' }),
  en('school', 'nouns', 'list the electives', { tool: 'query_course', filters: { kind: 'elective' } }),
  en('hostel', 'nouns', 'the suites', { tool: 'query_room', filters: { kind: 'suite' } }),
  en('hostel', 'nouns', 'list the dorms', { tool: 'query_room', filters: { kind: 'dorm' } }),
  en('hostel', 'nouns', 'how many suites are there?', { tool: 'query_room', filters: { kind: 'suite' }, compute: 'count' }),
  en('fleet', 'nouns', 'list the vans', { tool: 'query_truck', filters: { kind: 'van' } }),
  pt('fleet', 'nouns', 'quantas vans?', { tool: 'query_truck', filters: { kind: 'van' }, compute: 'count' }),
  en('fleet', 'nouns', 'how many pickups are there?', { tool: 'query_truck', filters: { kind: 'pickup' }, compute: 'count' }),
  en('fleet', 'nouns', 'show the lorries', { tool: 'query_truck', filters: { kind: 'lorry' } }),
  pt('fleet', 'nouns', 'mostre as vans', { tool: 'query_truck', filters: { kind: 'van' } }),

  // attribute questions and yes/no
  en('school', 'attributes', 'how many seats does room B have?', { tool: 'query_room', fields: ['id', 'name', 'seats'], filters: { name: 'B' } }),
  en('school', 'attributes', 'is there a class on Saturday?', { tool: 'query_class', filters: SATURDAY, compute: 'exists' }),
  en('school', 'attributes', 'do you have any courses taught by Daniel Lee?', { tool: 'query_course', filters: { teacher__fullName: 'Daniel Lee' }, compute: 'exists' }),
  pt('school', 'attributes', 'tem alguma aula no sábado?', { tool: 'query_class', filters: SATURDAY, compute: 'exists' }),
  en('school', 'attributes', 'what city does Claire Martin live in?', { tool: 'query_student', fields: ['id', 'fullName', 'city'], filters: { fullName: 'Claire Martin' } }),
  en('school', 'attributes', 'which country is Daniel Lee from?', { tool: 'query_teacher', fields: ['id', 'fullName', 'country'], filters: { fullName: 'Daniel Lee' } }),
  en('hostel', 'attributes', 'how many beds does room 14 have?', { tool: 'query_room', fields: ['id', 'name', 'beds'], filters: { id: 14 } }),
  en('hostel', 'attributes', 'what city does Pedro Alves live in?', { tool: 'query_guest', fields: ['id', 'fullName', 'city'], filters: { fullName: 'Pedro Alves' } }),
  en('hostel', 'attributes', 'is there a guest from Kenya?', { tool: 'query_guest', filters: { country: 'Kenya' }, compute: 'exists' }),
  en('fleet', 'attributes', 'when was truck 7 bought?', { tool: 'query_truck', fields: ['id', 'plate', 'boughtOn'], filters: { id: 7 } }),
  pt('fleet', 'attributes', 'quando o caminhão 7 foi comprado?', { tool: 'query_truck', fields: ['id', 'plate', 'boughtOn'], filters: { id: 7 } }),
  en('fleet', 'attributes', 'what is the capacity of truck 9?', { tool: 'query_truck', fields: ['id', 'plate', 'capacityKg'], filters: { id: 9 } }),
  en('fleet', 'attributes', 'is there a lorry bought after 2020?', { tool: 'query_truck', filters: { kind: 'lorry', boughtOn__gte: '2021-01-01' }, compute: 'exists' }),
  en('fleet', 'attributes', 'which city does Amina Otieno live in?', { tool: 'query_driver', fields: ['id', 'fullName', 'city'], filters: { fullName: 'Amina Otieno' } }),
  en('fleet', 'attributes', 'do any drivers live in Porto?', { tool: 'query_driver', filters: { city: 'Porto' }, compute: 'exists' }),
];
