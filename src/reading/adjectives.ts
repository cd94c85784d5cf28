/**
 * Superlatives from adjectives over any schema: a small table of adjectives → (the scale they
 * measure, the direction), and the field of a subject that carries a scale, matched by the words of
 * the field's name (its unit among them: `distance_km`, `weight_kg`, `cost_eur`) and its type.
 * "oldest" on a year or a date of making, purchase or birth is the earliest; on an `age` field the
 * highest. Fields are ranked in tiers (a date of making before a date the row was recorded); where
 * two fields of the best tier carry the scale, the reader asks which, never picks the first.
 */
import type { ReadLookup } from '../router/index.js';
import type { CompiledReads } from './compile-reads.js';
import { identifierPhrase } from './data-vocabulary.js';
import type { Direction, Superlative } from './grammar.js';
import type { Language } from '../router/index.js';
import { MAGNITUDE, MEASURES } from './field-units.js';
import { DATED, NUMERIC, ownFields } from './lookups.js';
import type { ReadTarget } from './meanings.js';

/** What an adjective measures: how old, how long, how heavy, how big, how early or late. */
export type Scale = 'age' | 'length' | 'height' | 'distance' | 'weight' | 'size' | 'strength' | 'brightness' | 'pay' | 'time';

/** Superlative phrase → scale and direction (`top`: more of it — older, longer, heavier, bigger, later). */
const TABLE: Readonly<Record<Language, Readonly<Record<string, readonly [Scale, Direction]>>>> = {
  en: {
    oldest: ['age', 'top'], eldest: ['age', 'top'], youngest: ['age', 'bottom'], newest: ['age', 'bottom'],
    longest: ['length', 'top'], shortest: ['length', 'bottom'],
    heaviest: ['weight', 'top'], lightest: ['weight', 'bottom'],
    biggest: ['size', 'top'], largest: ['size', 'top'], smallest: ['size', 'bottom'],
    latest: ['time', 'top'], earliest: ['time', 'bottom'],
    tallest: ['height', 'top'],
    farthest: ['distance', 'top'], furthest: ['distance', 'top'], 'most distant': ['distance', 'top'], nearest: ['distance', 'bottom'], closest: ['distance', 'bottom'],
    strongest: ['strength', 'top'], weakest: ['strength', 'bottom'],
    brightest: ['brightness', 'top'], faintest: ['brightness', 'bottom'], dimmest: ['brightness', 'bottom'],
    'longest serving': ['age', 'top'], 'longest-serving': ['age', 'top'], 'most senior': ['age', 'top'],
    'best paid': ['pay', 'top'], 'highest paid': ['pay', 'top'], 'lowest paid': ['pay', 'bottom'], 'worst paid': ['pay', 'bottom'], 'least paid': ['pay', 'bottom'],
  },
  'pt-BR': {
    ...forms('mais velh', ['age', 'top']), ...forms('mais antig', ['age', 'top']), ...forms('mais nov', ['age', 'bottom']),
    'mais jovem': ['age', 'bottom'], 'mais jovens': ['age', 'bottom'],
    ...forms('mais long', ['length', 'top']), ...forms('mais curt', ['length', 'bottom']),
    ...forms('mais pesad', ['weight', 'top']), 'mais leve': ['weight', 'bottom'], 'mais leves': ['weight', 'bottom'],
    maior: ['size', 'top'], maiores: ['size', 'top'], menor: ['size', 'bottom'], menores: ['size', 'bottom'],
    'mais tarde': ['time', 'top'], 'mais cedo': ['time', 'bottom'],
    // "mais alto" with a field word ranks by that field ("o preço mais alto"); alone, by a height.
    ...forms('mais alt', ['height', 'top']), ...forms('mais baix', ['height', 'bottom']),
    'mais distante': ['distance', 'top'], 'mais distantes': ['distance', 'top'], ...forms('mais proxim', ['distance', 'bottom']),
    'mais forte': ['strength', 'top'], 'mais fortes': ['strength', 'top'],
    'mais brilhante': ['brightness', 'top'], 'mais brilhantes': ['brightness', 'top'],
    ...forms('mais bem pag', ['pay', 'top']), ...forms('mais mal pag', ['pay', 'bottom']),
  },
};

/** The four endings of a Portuguese adjective: velho, velha, velhos, velhas. */
function forms(stem: string, sense: readonly [Scale, Direction]): Record<string, readonly [Scale, Direction]> {
  return Object.fromEntries(['o', 'a', 'os', 'as'].map((end) => [`${stem}${end}`, sense]));
}

/** The table as superlative phrases of the grammar. */
export function adjectiveSuperlatives(language: Language): Record<string, Superlative> {
  return Object.fromEntries(Object.entries(TABLE[language]).map(([phrase, [scale, direction]]) => [phrase, { direction, by: 'scale', scale }]));
}

/** A scale no field carries is tried as its neighbour: "the shortest player" by a height where there is no length. */
const NEIGHBOUR: Partial<Record<Scale, Scale>> = { length: 'height' };
/** A field that measures age itself ("age", "age_years"): higher is older. */
const AGE = /^(?:age|idade)$/;
/** A date or year of making, purchase or birth: earlier is older. */
const MAKING = /^(?:built|build|made|manufactured|model|construction|constructed|commissioned|installed|launched|inaugurated|birth|born|birthday|purchased|purchase|bought|acquired|founded|established|published|released|release|fabricacao|nascimento|compra)$/;
/** A date the row itself was recorded or began: earlier is older where nothing better says so. */
const RECORDED = /^(?:created|placed|opened|submitted|registered|posted|issued|joined|signed|hired|start|starts|started|begins|departed|departure|scheduled|booked)$/;
const YEAR = /^(?:year|ano)$/;
/** Money that is the row's own amount (an order's total, a project's budget): what "biggest" ranks by where no size is named. */
const AMOUNT = /^(?:total|amount|budget|value|sum|balance|revenue|valor|orcamento)$/;

export type ScaleField = { readonly field: string; readonly direction: Direction } | { readonly candidates: readonly string[] } | null;

/** The field a scale ranks `target` by, and the direction on that field; candidates where two carry it equally. */
export function scaleField(scale: Scale, direction: Direction, reads: CompiledReads, target: ReadTarget): ScaleField {
  const tiers: { lookup: ReadLookup; reversed: boolean; tier: number }[] = [];
  for (const lookup of ownFields(target, new Set([...NUMERIC, ...DATED]))) {
    const words = nameWords(lookup.field, reads, target);
    const dated = DATED.has(lookup.type) || (lookup.type === 'integer' && words.some((w) => YEAR.test(w)));
    const fit = fitOf(scale, words, dated, NUMERIC.has(lookup.type) && !dated, isOwnEvent(lookup.field, target));
    if (fit !== null) tiers.push({ lookup, ...fit });
  }
  if (tiers.length === 0) {
    const neighbour = NEIGHBOUR[scale];
    if (neighbour !== undefined) return scaleField(neighbour, direction, reads, target);
    return scale === 'size' ? amountField(direction, reads, target) : null;
  }
  const best = Math.min(...tiers.map((t) => t.tier));
  const chosen = tiers.filter((t) => t.tier === best);
  if (chosen.length > 1) return { candidates: chosen.map((t) => t.lookup.field) };
  const one = chosen[0] as (typeof chosen)[number];
  return { field: one.lookup.field, direction: one.reversed ? (direction === 'top' ? 'bottom' : 'top') : direction };
}

/** The direction of a scale on a field named for it ("the oldest truck by built year": the earliest year). */
export function directionOn(scale: Scale, direction: Direction, reads: CompiledReads, target: ReadTarget, lookup: ReadLookup): Direction {
  const words = nameWords(lookup.field, reads, target);
  const dated = DATED.has(lookup.type) || (lookup.type === 'integer' && words.some((w) => YEAR.test(w)));
  return scale === 'age' && dated ? (direction === 'top' ? 'bottom' : 'top') : direction;
}

/** How well a field carries a scale: its tier (lower is better) and whether the scale runs against it. */
function fitOf(scale: Scale, words: readonly string[], dated: boolean, measure: boolean, ownEvent: boolean): { tier: number; reversed: boolean } | null {
  const has = (pattern: RegExp): boolean => words.some((w) => pattern.test(w));
  switch (scale) {
    case 'age':
      if (measure && has(AGE)) return { tier: 0, reversed: false };
      if (dated && has(MAKING)) return { tier: 0, reversed: true };
      if (dated && (has(RECORDED) || words.every((w) => YEAR.test(w) || w === 'date'))) return { tier: 1, reversed: true };
      return null;
    case 'time':
      if (!dated) return null;
      return { tier: has(RECORDED) || has(MAKING) || ownEvent ? 0 : 1, reversed: false };
    case 'brightness':
      if (measure && has(MAGNITUDE)) return { tier: 0, reversed: true };
      return measure && has(MEASURES.brightness) ? { tier: 0, reversed: false } : null;
    default:
      return measure && has(MEASURES[scale]) ? { tier: 0, reversed: false } : null;
  }
}

/** A date named for the row's own event: `repairedOn` of a Repair, `bookedAt` of a Booking. */
export function isOwnEvent(field: string, target: ReadTarget): boolean {
  const stem = identifierPhrase(target.spec.manager).split(' ').at(-1)?.slice(0, 5) ?? '';
  return stem.length >= 4 && identifierPhrase(field).split(' ').some((w) => w.startsWith(stem));
}

/** "the biggest order": the subject's one decimal that is its own amount of money, where no size field is named. */
function amountField(direction: Direction, reads: CompiledReads, target: ReadTarget): ScaleField {
  const amounts = ownFields(target, new Set(['decimal'])).filter((l) => nameWords(l.field, reads, target).some((w) => AMOUNT.test(w)));
  return amounts.length === 1 ? { field: (amounts[0] as ReadLookup).field, direction } : null;
}

/** A field's name in words (`distanceKm` → distance, km), with the words the vocabulary gives it. */
export function nameWords(field: string, reads: CompiledReads, target: ReadTarget): string[] {
  const own = identifierPhrase(field).split(' ');
  const given = (reads.fieldWords.get(`${target.spec.manager}.${field}`) ?? []).flatMap((w) => w.split(' '));
  return [...new Set([...own, ...given])];
}
