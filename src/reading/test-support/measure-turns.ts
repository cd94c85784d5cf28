/**
 * Held-out turns for the superlative, null/zero/not, totals/date and number-placement families,
 * written before the first run over the fleet, hostel and school hosts of measure-hosts.ts (clock:
 * 2026-12-01T09:00:00Z). `want` is the read's filters and the calculation after it; 'unread' where
 * the schema cannot answer; 'ask' where two fields carry the words equally (an unread is also safe there).
 */
import type { JsonValue } from '../../core/index.js';
import type { Language } from '../../router/index.js';

export type MeasureApp = 'fleet' | 'hostel' | 'school';

export interface Want {
  readonly filters?: Readonly<Record<string, JsonValue>>;
  readonly compute?: { readonly operation: string; readonly field: string | null; readonly rows?: number };
}

export interface MeasureTurn {
  readonly app: MeasureApp;
  readonly language: Language;
  readonly turn: string;
  readonly want: Want | 'unread' | 'ask';
}

const top = (field: string, rows = 1): Want['compute'] => ({ operation: 'top', field, rows });
const bottom = (field: string, rows = 1): Want['compute'] => ({ operation: 'bottom', field, rows });
const MAY = { departedOn__gte: '2026-05-01', departedOn__lt: '2026-06-01' };
const DECEMBER_CLASSES = { startsAt__gte: '2026-12-01T00:00:00+00:00', startsAt__lt: '2027-01-01T00:00:00+00:00' };
const NOW = '2026-12-01T09:00:00+00:00';

const t = (app: MeasureApp, language: Language, turn: string, want: MeasureTurn['want']): MeasureTurn => ({ app, language, turn, want });

export const MEASURE_TURNS: readonly MeasureTurn[] = [
  // fleet, English
  t('fleet', 'en', 'the oldest truck', { compute: bottom('builtYear') }),
  t('fleet', 'en', 'which truck is the newest?', { compute: top('builtYear') }),
  t('fleet', 'en', 'the youngest driver', { compute: bottom('age') }),
  t('fleet', 'en', 'who is the oldest driver?', { compute: top('age') }),
  t('fleet', 'en', 'the shortest trip', 'ask'),
  t('fleet', 'en', 'the 3 longest night trips', 'ask'),
  t('fleet', 'en', 'the 3 longest night trips by distance', { filters: { shift: 'night' }, compute: top('distanceKm', 3) }),
  t('fleet', 'en', 'the heaviest load', { compute: top('weightKg') }),
  t('fleet', 'en', 'the lightest load', { compute: bottom('weightKg') }),
  t('fleet', 'en', 'the most expensive repair', { compute: top('costEur') }),
  t('fleet', 'en', 'the cheapest repair', { compute: bottom('costEur') }),
  t('fleet', 'en', 'which driver has the most trips?', { compute: top('trips') }),
  t('fleet', 'en', 'the biggest truck', { compute: top('capacityKg') }),
  t('fleet', 'en', 'the oldest trailer', 'ask'),
  t('fleet', 'en', 'the longest trailer', { compute: top('lengthM') }),
  t('fleet', 'en', 'the truck with the highest mileage', { compute: top('mileageKm') }),
  t('fleet', 'en', 'the 2 most recent repairs', { compute: top('repairedOn', 2) }),
  t('fleet', 'en', 'the last repair', { filters: { repairedOn__lte: '2026-12-01' }, compute: top('repairedOn') }),
  t('fleet', 'en', 'which repairs were never paid?', { filters: { paidOn__isnull: true } }),
  t('fleet', 'en', 'repairs not paid', { filters: { paidOn__isnull: true } }),
  t('fleet', 'en', 'unpaid repairs', { filters: { paidOn__isnull: true } }),
  t('fleet', 'en', 'trips in May', { filters: MAY }),
  t('fleet', 'en', 'how many trips in November 2026?', { filters: { departedOn__gte: '2026-11-01', departedOn__lt: '2026-12-01' }, compute: { operation: 'count', field: null } }),
  t('fleet', 'en', 'average age of the drivers from Porto', { filters: { city: 'Porto' }, compute: { operation: 'average', field: 'age' } }),
  t('fleet', 'en', 'total distance of the night trips', { filters: { shift: 'night' }, compute: { operation: 'sum', field: 'distanceKm' } }),
  t('fleet', 'en', 'the average cost of repairs', { compute: { operation: 'average', field: 'costEur' } }),
  t('fleet', 'en', 'trucks built before 2015', { filters: { builtYear__lt: 2015 } }),
  t('fleet', 'en', 'trips longer than 500 km', { filters: { distanceKm__gt: 500 } }),
  t('fleet', 'en', 'how many trucks have a capacity over 5000?', { filters: { capacityKg__gt: 5000 }, compute: { operation: 'count', field: null } }),
  t('fleet', 'en', 'the 2 heaviest loads of food', { filters: { cargo: 'food' }, compute: top('weightKg', 2) }),
  // fleet, Portuguese
  t('fleet', 'pt-BR', 'qual é o caminhão mais novo?', { compute: top('builtYear') }),
  t('fleet', 'pt-BR', 'os 2 motoristas mais velhos', { compute: top('age', 2) }),
  t('fleet', 'pt-BR', 'o motorista mais novo', { compute: bottom('age') }),
  t('fleet', 'pt-BR', 'a carga mais pesada', { compute: top('weightKg') }),
  t('fleet', 'pt-BR', 'o reparo mais caro', { compute: top('costEur') }),
  t('fleet', 'pt-BR', 'o reparo mais barato', { compute: bottom('costEur') }),
  t('fleet', 'pt-BR', 'viagens em maio', { filters: MAY }),
  t('fleet', 'pt-BR', 'média de idade dos motoristas', { compute: { operation: 'average', field: 'age' } }),
  t('fleet', 'pt-BR', 'reparos nunca pagos', { filters: { paidOn__isnull: true } }),
  t('fleet', 'pt-BR', 'o último reparo', { filters: { repairedOn__lte: '2026-12-01' }, compute: top('repairedOn') }),
  t('fleet', 'pt-BR', 'o reboque mais antigo', 'ask'),
  t('fleet', 'pt-BR', 'a viagem mais longa', 'ask'),
  // hostel, English
  t('hostel', 'en', 'which rentals are still open?', { filters: { endedOn__isnull: true } }),
  t('hostel', 'en', 'how many rentals are open?', { filters: { endedOn__isnull: true }, compute: { operation: 'count', field: null } }),
  t('hostel', 'en', 'rooms with no beds free', { filters: { freeBeds: 0 } }),
  t('hostel', 'en', 'rooms with no free beds', { filters: { freeBeds: 0 } }),
  t('hostel', 'en', 'which rooms have 2 free beds?', { filters: { freeBeds: 2 } }),
  t('hostel', 'en', 'rooms with 8 beds', { filters: { beds: 8 } }),
  t('hostel', 'en', 'total free beds', { compute: { operation: 'sum', field: 'freeBeds' } }),
  t('hostel', 'en', 'total beds free', { compute: { operation: 'sum', field: 'freeBeds' } }),
  t('hostel', 'en', 'the most expensive room', { compute: top('priceEur') }),
  t('hostel', 'en', 'the cheapest dorm', { filters: { kind: 'dorm' }, compute: bottom('priceEur') }),
  t('hostel', 'en', 'the youngest guest', { compute: top('birthDate') }),
  t('hostel', 'en', 'the oldest guest', { compute: bottom('birthDate') }),
  t('hostel', 'en', 'rentals booked in January 2026', { filters: { bookedOn__gte: '2026-01-01', bookedOn__lt: '2026-02-01' } }),
  t('hostel', 'en', 'rentals made in January 2026', { filters: { bookedOn__gte: '2026-01-01', bookedOn__lt: '2026-02-01' } }),
  t('hostel', 'en', 'rentals that ended in February', { filters: { endedOn__gte: '2026-02-01', endedOn__lt: '2026-03-01' } }),
  t('hostel', 'en', 'the last rental', 'ask'),
  t('hostel', 'en', 'which room is the biggest?', 'unread'),
  t('hostel', 'en', 'average price of private rooms', { filters: { kind: 'private' }, compute: { operation: 'average', field: 'priceEur' } }),
  // hostel, Portuguese
  t('hostel', 'pt-BR', 'quais estadias ainda estão abertas?', { filters: { endedOn__isnull: true } }),
  t('hostel', 'pt-BR', 'quartos sem camas livres', { filters: { freeBeds: 0 } }),
  t('hostel', 'pt-BR', 'quais quartos têm 2 camas livres?', { filters: { freeBeds: 2 } }),
  t('hostel', 'pt-BR', 'o quarto mais caro', { compute: top('priceEur') }),
  t('hostel', 'pt-BR', 'o hóspede mais novo', { compute: top('birthDate') }),
  t('hostel', 'pt-BR', 'total de camas livres', { compute: { operation: 'sum', field: 'freeBeds' } }),
  // school, English
  t('school', 'en', 'students without a tutor', { filters: { tutor__isnull: true } }),
  t('school', 'en', 'students with no tutor', { filters: { tutor__isnull: true } }),
  t('school', 'en', 'which classes have 20 seats?', { filters: { seats: 20 } }),
  t('school', 'en', 'classes for grade 5', { filters: { grade: 5 } }),
  t('school', 'en', 'next class for grade 5', { filters: { grade: 5, startsAt__gte: NOW }, compute: bottom('startsAt') }),
  t('school', 'en', 'the next class', { filters: { startsAt__gte: NOW }, compute: bottom('startsAt') }),
  t('school', 'en', 'classes with no seats free', { filters: { seatsFree: 0 } }),
  t('school', 'en', 'total seats free', { compute: { operation: 'sum', field: 'seatsFree' } }),
  t('school', 'en', 'total seats free in grade 5 classes', { filters: { grade: 5 }, compute: { operation: 'sum', field: 'seatsFree' } }),
  t('school', 'en', 'the youngest teacher', { compute: top('birthYear') }),
  t('school', 'en', 'the oldest student', { compute: bottom('birthDate') }),
  t('school', 'en', 'average seats of the classes', { compute: { operation: 'average', field: 'seats' } }),
  t('school', 'en', 'how many students are in grade 6?', { filters: { grade: 6 }, compute: { operation: 'count', field: null } }),
  t('school', 'en', 'classes in December', { filters: DECEMBER_CLASSES }),
  t('school', 'en', 'the most recent class', { compute: top('startsAt') }),
  t('school', 'en', 'the earliest class', { compute: bottom('startsAt') }),
  t('school', 'en', 'which teacher has the most classes?', { compute: top('classes') }),
  // school, Portuguese
  t('school', 'pt-BR', 'alunos sem tutor', { filters: { tutor__isnull: true } }),
  t('school', 'pt-BR', 'a próxima aula', { filters: { startsAt__gte: NOW }, compute: bottom('startsAt') }),
  t('school', 'pt-BR', 'a próxima aula da série 5', { filters: { grade: 5, startsAt__gte: NOW }, compute: bottom('startsAt') }),
  t('school', 'pt-BR', 'quais aulas têm 20 lugares?', { filters: { seats: 20 } }),
  t('school', 'pt-BR', 'o professor mais novo', { compute: top('birthYear') }),
  t('school', 'pt-BR', 'aulas em dezembro', { filters: DECEMBER_CLASSES }),
  t('school', 'pt-BR', 'total de vagas livres', { compute: { operation: 'sum', field: 'seatsFree' } }),
  // what these schemas cannot answer
  t('fleet', 'en', 'the fastest truck', 'unread'),
  t('fleet', 'en', 'the happiest driver', 'unread'),
  t('hostel', 'en', 'the oldest room', 'unread'),
  t('hostel', 'en', 'rooms with no windows', 'unread'),
  t('fleet', 'pt-BR', 'a viagem mais rápida', 'unread'),
  t('school', 'en', 'which classes have 20 students?', 'unread'),
  t('hostel', 'en', 'the heaviest guest', 'unread'),
];
