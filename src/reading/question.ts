/**
 * A clause's spans bound into a question, before any manager is known: which words pair with which
 * (a field with its comparator and number, a date with its bound and field, a superlative with the
 * field it ranks by, a total with its field), what the question asks (a list, a count, yes or no, a
 * total, a ranking, one attribute) and what ties it to the previous turn. Pure; null when a word is
 * left that nothing binds.
 */
import type { Scale } from './adjectives.js';
import type { When } from './next-last.js';
import type { Aggregate, Comparator, Direction, Superlative } from './grammar.js';
import type { Meaning, MeaningOf } from './meanings.js';
import { meaningOf, meaningsOf } from './meanings.js';
import type { Span } from './spans.js';
import { fold, foldPhrase } from '../router/index.js';
import { fitsPlaceWord } from './place-words.js';

export type FieldWord = readonly MeaningOf<'field'>[];

export interface Bound {
  /** Null where no field is named: the subject's one money field. */
  readonly field: FieldWord | null;
  /** `eq`: a number said right next to a field word ("2 free beds", "grade 5"): that field's value. */
  readonly op: Comparator | 'eq';
  readonly number: number;
}

export interface DateBound {
  readonly field: FieldWord | null;
  readonly bound: 'in' | 'after' | 'since' | 'before' | 'until';
  /** Said with a verb of making ("made", "created") and no field word: the date the row was made. */
  readonly made: boolean;
  readonly date: NonNullable<Span['date']>;
}

export interface ValueWord {
  readonly meanings: readonly MeaningOf<'value'>[];
  readonly negated: boolean;
  readonly text: string;
  /** The word is also glue ("feita": done, and made): where no value of it fits the subject, it is that glue. */
  readonly glue: boolean;
  /** The word is also a state word ("open"): where no value of it fits the subject, it is that state. */
  readonly state: boolean | null;
}

export interface Rank {
  readonly direction: Direction;
  readonly by: Superlative['by'];
  readonly scale: Scale | null;
  readonly when: When | null;
  /** The field word it ranks by, or an adjective matched to a field ("densest", "mais denso"). */
  readonly field: FieldWord | null;
  readonly adjective: string | null;
  readonly rows: number;
  readonly text: string;
  /** The manager whose related rows are counted ("the most performances", "mais apresentações"). */
  readonly related: MeaningOf<'manager'> | null;
}

export interface Question {
  readonly managers: readonly { readonly meaning: MeaningOf<'manager'>; readonly first: boolean }[];
  readonly values: readonly ValueWord[];
  readonly bounds: readonly Bound[];
  readonly dates: readonly DateBound[];
  /** Field words not bound to a comparator: what to show, or the attribute asked for. */
  readonly fields: readonly FieldWord[];
  /** Each field word as typed, in the order of `fields` ("returned": a state, "returned on": a date). */
  readonly fieldTexts: readonly string[];
  /** Field words after a negation: rows where the field is empty ("loans not returned", "sem data"), or zero ("no free beds"). */
  readonly absent: readonly FieldWord[];
  /** Relations after a negation, by their name or their manager's ("without a tutor", "sem professor"). */
  readonly absentTo: readonly (readonly Meaning[])[];
  /** State words: `true` open ("still open"), `false` ended ("closed"). */
  readonly states: readonly boolean[];
  /** Rows named by their number after the manager's noun ("loan 2", "tickets 1001 and 1002"). */
  readonly ids: { readonly manager: MeaningOf<'manager'>; readonly text: string; readonly numbers: readonly number[] } | null;
  /** The count word is right before a field word ("how many copies"): a quantity, not a number of rows. */
  readonly countsField: boolean;
  /** Fields the English "their"/"its" (pt "seus"/"suas") put in view. */
  readonly possessive: boolean;
  readonly count: string | null;
  readonly exists: string | null;
  /** The field is null where none is named: the subject's one money field. */
  readonly aggregate: { readonly op: Aggregate; readonly field: FieldWord | null; readonly text: string } | null;
  readonly rank: Rank | null;
  /** "how dense", "how much", "when … due": an attribute question, with the adjective if any. */
  readonly how: { readonly adjective: string | null; readonly text: string } | null;
  /** "made of" with nothing after it: what the subject is made of. */
  readonly madeOf: boolean;
  /** Relation verbs said ("teaches", "rented"), each with its readings: a read must walk one (relation-verbs.ts). */
  readonly verbs: readonly (readonly MeaningOf<'verb'>[])[];
  /** A verb said in the passive ("has been observed", "foi feita"): its agent is not what is asked. */
  readonly passiveVerb: boolean;
  readonly referent: boolean;
  /** A manager named after "their"/"its"/"seus" ("and their courses?"): the previous rows' related rows. */
  readonly possessiveManager: boolean;
  /** Host-named conditions the words say ("overdue"); negated: the rows that do not meet it. */
  readonly conditions: readonly { readonly meanings: readonly MeaningOf<'condition'>[]; readonly negated: boolean; readonly text: string }[];
  /** The asking person ("my bookings", "have I paid"): their rows only. */
  readonly firstPerson: boolean;
  /** Words saying the row's period holds now ("running", "em cartaz"; `glue`: also a word that says nothing, "now"). */
  readonly current: readonly { readonly text: string; readonly glue: boolean }[];
  readonly replacing: boolean;
  readonly narrowing: boolean;
  readonly or: boolean;
}

type Item = { readonly span: Span; used: boolean };

/** Meaning kinds that say nothing on their own: skipped when words are paired. */
const GLUE = new Set<Meaning['kind']>(['stop', 'link', 'monthLead']);
/** The first word of the clause may open a follow-up or a yes/no question; elsewhere it is glue. */
const OPENERS = new Set<Meaning['kind']>(['replacing', 'exists']);

const NUMBER_OF = /^(?:number of|numero de|quantidade de)$/;

/** Superlatives that, before a manager, count its rows related to each subject row. */
const COUNTED = /^(?:most|fewest|least|mais|menos)$/;

const POSSESSIVE = /(?<![a-z0-9])(?:their|its|seus|suas|seu|sua)\s+$/;

/**
 * `numeric` says whether a field word names a number field: only a number next to one is that
 * field's value ("2 free beds"; "loan 2 returned" is loan 2).
 */
export function bindQuestion(spans: readonly Span[], folded: string, numeric: (field: MeaningOf<'field'>) => boolean = () => false): Question | null {
  const items: Item[] = [];
  // Openers count only as the clause's very first words ("is there …", "and the aluminum ones?").
  const start = folded.search(/[a-z0-9]/);
  for (const span of spans) {
    const kinds = new Set(span.meanings.map((m) => m.kind));
    const first = span.start === start;
    const opener = first && [...kinds].some((k) => OPENERS.has(k));
    const glue = span.number === null && span.date === null && span.adjective === null && span.meanings.length > 0 && span.meanings.every((m) => GLUE.has(m.kind) || OPENERS.has(m.kind));
    if (glue && !opener) {
      // "made of" is glue before its object, the question itself at the end ("what is the Gear made of?").
      if (kinds.has('madeOf')) items.push({ span, used: false });
      continue;
    }
    items.push({ span, used: false });
  }
  const q = {
    managers: [] as { meaning: MeaningOf<'manager'>; first: boolean }[],
    values: [] as ValueWord[],
    bounds: [] as Bound[],
    dates: [] as DateBound[],
    fields: [] as FieldWord[],
    fieldTexts: [] as string[],
    absent: [] as FieldWord[],
    absentTo: [] as (readonly Meaning[])[],
    states: [] as boolean[],
    ids: null as Question['ids'],
    countsField: false,
    possessive: false,
    count: null as string | null,
    exists: null as string | null,
    aggregate: null as Question['aggregate'],
    rank: null as Rank | null,
    how: null as Question['how'],
    madeOf: false,
    verbs: [] as (readonly MeaningOf<'verb'>[])[],
    passiveVerb: false,
    referent: false,
    possessiveManager: false,
    conditions: [] as Question['conditions'][number][],
    firstPerson: false,
    current: [] as { text: string; glue: boolean }[],
    replacing: false,
    narrowing: false,
    or: false,
  };
  const at = (i: number): Item | undefined => items[i];
  const fieldOf = (item: Item | undefined): FieldWord | null => {
    if (item === undefined || item.used) return null;
    const fields = meaningsOf(item.span.meanings, 'field');
    return fields.length > 0 ? fields : null;
  };
  const numericOf = (item: Item | undefined): FieldWord | null => {
    const field = fieldOf(item);
    return field !== null && field.some(numeric) ? field : null;
  };
  const numberOf = (item: Item | undefined): number | null => (item === undefined || item.used ? null : item.span.number);
  const has = (item: Item | undefined, kind: Meaning['kind']): boolean => item !== undefined && !item.used && item.span.meanings.some((m) => m.kind === kind);

  // Openers: the first word of a yes/no question or of a follow-up.
  const head = at(0)?.span.start === start ? at(0) : undefined;
  if (head !== undefined && has(head, 'exists')) {
    q.exists = head.span.text;
    head.used = true;
  } else if (head !== undefined && has(head, 'replacing')) {
    q.replacing = true;
    head.used = true;
  }

  // Dates: [field] [bound] date.
  for (const [i, item] of items.entries()) {
    if (item.span.date === null) continue;
    const boundItem = has(at(i - 1), 'dateBound') || has(at(i - 1), 'comparator') ? at(i - 1) : undefined;
    // "in 2000 or later", "2010 ou antes": a comparator after the date opens its period on that side.
    const afterItem = isAfterComparator(at(i + 1)) ? at(i + 1) : undefined;
    if (afterItem !== undefined && boundItem !== undefined) return null;
    const after = afterItem === undefined ? null : (meaningOf(afterItem.span.meanings, 'comparator') as MeaningOf<'comparator'>).op === 'gte' ? 'since' : 'until';
    const bound = boundItem === undefined ? (after ?? 'in') : dateBoundOf(boundItem.span.meanings);
    if (bound === null) return null;
    if (afterItem !== undefined) afterItem.used = true;
    const fieldItem = at(i - (boundItem === undefined ? 1 : 2));
    const field = fieldOf(fieldItem);
    // "bookings made in January": with no field word, a verb of making names the date the row was made.
    const made = field === null && has(fieldItem, 'made');
    item.used = true;
    if (boundItem !== undefined) boundItem.used = true;
    if ((field !== null || made) && fieldItem !== undefined) fieldItem.used = true;
    q.dates.push({ field, bound, date: item.span.date, made });
  }

  // Rows by number: a manager's noun and the numbers right after it ("loan 2", "tickets 1001 or 1002").
  for (const [i, item] of items.entries()) {
    const manager = meaningOf(item.span.meanings, 'manager');
    if (item.used || manager === undefined || q.ids !== null) continue;
    const numbers: number[] = [];
    let j = i + 1;
    // Right after the noun, and not before a field word ("rooms with 2 free beds": the beds', not room 2).
    if (!adjacent(folded, item, at(j)) || (numericOf(at(j + 1)) !== null && adjacent(folded, at(j) as Item, at(j + 1)))) continue;
    while (isRowNumber(at(j))) {
      numbers.push((at(j) as Item).span.number as number);
      (at(j) as Item).used = true;
      j += has(at(j + 1), 'or') && isRowNumber(at(j + 2)) ? 2 : 1;
    }
    if (numbers.length === 0) continue;
    for (let k = i + 1; k < j; k++) (at(k) as Item).used = true;
    q.ids = { manager, text: item.span.text, numbers };
  }

  // "with sku PJ-01", "status open": a field word right before one of its own values names the value's field.
  const valueOfField = new Map<Item, readonly MeaningOf<'value'>[]>();
  for (const [i, item] of items.entries()) {
    const field = fieldOf(item);
    const next = at(i + 1);
    if (field === null || next === undefined || next.used) continue;
    const own = meaningsOf(next.span.meanings, 'value').filter((v) => field.some((f) => f.manager === v.manager && f.field === v.field));
    if (own.length === 0) continue;
    item.used = true;
    valueOfField.set(next, own);
  }

  // Ranges: field between N and M.
  for (const [i, item] of items.entries()) {
    if (!has(item, 'between')) continue;
    const field = fieldOf(at(i - 1));
    const low = numberOf(at(i + 1));
    const high = numberOf(at(i + 2));
    if (low === null || high === null || low > high) return null;
    for (const j of field === null ? [i, i + 1, i + 2] : [i - 1, i, i + 1, i + 2]) (at(j) as Item).used = true;
    q.bounds.push({ field, op: 'gte', number: low }, { field, op: 'lte', number: high });
  }

  // Comparators after their number: [field] number [unit] comparator [field] ("an audience of 400 or
  // more", "40 pounds or more", "5 or more seats"). The unit is a word of the field itself.
  for (const [i, item] of items.entries()) {
    if (item.used || !isAfterComparator(item)) continue;
    const unit = numberOf(at(i - 1)) === null && numberOf(at(i - 2)) !== null ? fieldOf(at(i - 1)) : null;
    const n = unit === null ? i - 1 : i - 2;
    const number = numberOf(at(n));
    if (number === null) return null;
    const before = fieldOf(at(n - 1));
    const shared = unit !== null && before !== null ? unit.filter((u) => before.some((b) => b.manager === u.manager && b.field === u.field)) : null;
    const afterField = unit === null && before === null ? fieldOf(at(i + 1)) : null;
    const field = shared !== null && shared.length > 0 ? shared : (unit ?? before ?? afterField);
    const op = (meaningOf(item.span.meanings, 'comparator') as MeaningOf<'comparator'>).op;
    for (const j of [n, i, ...(unit !== null ? [i - 1] : []), ...((unit === null || (shared?.length ?? 0) > 0) && before !== null ? [n - 1] : []), ...(afterField !== null ? [i + 1] : [])]) (at(j) as Item).used = true;
    q.bounds.push({ field, op, number });
  }

  // Comparators: field comparator number, or comparator number field ("at least 5000 units in stock").
  for (const [i, item] of items.entries()) {
    if (item.used || !has(item, 'comparator') || isAfterComparator(item)) continue;
    const op = meaningOf(item.span.meanings, 'comparator')?.op as Comparator;
    const number = numberOf(at(i + 1));
    if (number === null) continue;
    const before = fieldOf(at(i - 1));
    const after = before === null ? fieldOf(at(i + 2)) : null;
    const field = before ?? after;
    item.used = true;
    (at(i + 1) as Item).used = true;
    if (field !== null) (at(before !== null ? i - 1 : i + 2) as Item).used = true;
    // "orders over 100", "the ones under 20": with no field named, the bound is on the subject's one money field.
    q.bounds.push({ field, op, number });
  }

  // Rankings: a superlative, with the field after it (or before it in Portuguese) and a count of rows.
  for (const [i, item] of items.entries()) {
    if (item.used) continue;
    const superlative = meaningOf(item.span.meanings, 'superlative');
    const degree = meaningOf(item.span.meanings, 'degree');
    const adjectiveHere = item.span.adjective !== null && degree !== undefined;
    // "which production has the most performances?", "qual produção tem mais apresentações?": rows ranked by a count of related rows.
    const relatedHere = COUNTED.test(fold(item.span.text)) && has(at(i + 1), 'manager') && adjacent(folded, item, at(i + 1));
    if (superlative === undefined && !adjectiveHere && !relatedHere && !(degree !== undefined && at(i + 1)?.span.adjective != null)) continue;
    if (q.rank !== null) return null;
    let adjective: string | null = null;
    let sense: Superlative;
    let end = i;
    if (superlative !== undefined) sense = superlative.sense;
    else if (relatedHere) sense = { direction: (degree as MeaningOf<'degree'>).direction, by: 'named' };
    else if (adjectiveHere) {
      sense = { direction: (degree).direction, by: 'named' };
      adjective = item.span.adjective;
    } else {
      sense = { direction: (degree as MeaningOf<'degree'>).direction, by: 'named' };
      adjective = (at(i + 1) as Item).span.adjective;
      (at(i + 1) as Item).used = true;
      end = i + 1;
    }
    item.used = true;
    let field: FieldWord | null = null;
    let related: MeaningOf<'manager'> | null = null;
    if (relatedHere) {
      related = meaningOf((at(i + 1) as Item).span.meanings, 'manager') as MeaningOf<'manager'>;
      (at(i + 1) as Item).used = true;
    } else if (adjective === null) {
      field = fieldOf(at(end + 1));
      if (field !== null) (at(end + 1) as Item).used = true;
      else if (sense.by === 'named') {
        field = fieldOf(at(i - 1));
        if (field !== null) (at(i - 1) as Item).used = true;
      }
    }
    // The rows: "the 3 most expensive", "os 3 maiores", "top 5", "as três peças mais caras".
    let rows = 1;
    for (const j of [i - 1, i - 2, end + 1]) {
      const candidate = at(j);
      if (candidate === undefined || candidate.used) continue;
      const count = candidate.span.number ?? meaningOf(candidate.span.meanings, 'numberWord')?.value ?? null;
      if (count === null || !Number.isInteger(count) || count < 1 || count > 50) continue;
      if (j === i - 2 && !has(at(i - 1), 'manager')) continue;
      if (j === end + 1 && !(superlative?.sense.by === 'named' && item.span.text.toLowerCase() === 'top')) continue;
      rows = count;
      candidate.used = true;
      break;
    }
    q.rank = { direction: sense.direction, by: sense.by, scale: sense.scale ?? null, when: sense.when ?? null, field, adjective, rows, text: item.span.text, related };
  }

  // Totals and averages: the aggregate word and its field, after it ("average price", "soma dos preços")
  // or before it ("o estoque total de peças").
  for (const [i, item] of items.entries()) {
    if (item.used || !has(item, 'aggregate')) continue;
    // "the average number of copies", "the total number of copies": "number of" between a total and its field is part of it.
    const numberOfField = has(at(i + 1), 'count') && NUMBER_OF.test(fold((at(i + 1) as Item).span.text)) && fieldOf(at(i + 2)) !== null;
    if (numberOfField) (at(i + 1) as Item).used = true;
    // "average batch size": a manager and its own field said together after the total ("batch size" = the size of the batches).
    const compound = !numberOfField && has(at(i + 1), 'manager') && adjacent(folded, at(i + 1) as Item, at(i + 2)) && ownFieldOf(at(i + 1) as Item, at(i + 2));
    const next = numberOfField || compound ? i + 2 : i + 1;
    const after = fieldOf(at(next));
    const before = after === null ? fieldOf(at(i - 1)) : null;
    const field = after ?? before;
    // "total" is also a field of some managers ("orders with a total over 300"): with no field next to
    // it, it is that field where there is one, else a total of the subject's one money field ("add up to").
    if (field === null && has(item, 'field')) continue;
    if (q.aggregate !== null) return null;
    item.used = true;
    if (field !== null) (at(after !== null ? next : i - 1) as Item).used = true;
    q.aggregate = { op: (meaningOf(item.span.meanings, 'aggregate') as MeaningOf<'aggregate'>).op, field, text: item.span.text };
  }

  // "2 free beds", "grade 5", "série 5": a number right next to a field word is that field's value.
  for (const [i, item] of items.entries()) {
    if (item.used || item.span.number === null) continue;
    const after = numericOf(at(i + 1)) !== null && adjacent(folded, item, at(i + 1)) ? i + 1 : null;
    const side = after ?? (numericOf(at(i - 1)) !== null && adjacent(folded, at(i - 1) as Item, item) ? i - 1 : null);
    if (side === null) continue;
    const field = numericOf(at(side));
    item.used = true;
    (at(side) as Item).used = true;
    q.bounds.push({ field, op: 'eq', number: item.span.number });
  }

  // "how dense is titanium?", "how much stock", "when is it due?", "quanto tem em estoque".
  for (const [i, item] of items.entries()) {
    if (item.used || !has(item, 'how')) continue;
    const next = at(i + 1);
    const adjective = next !== undefined && !next.used && next.span.adjective !== null ? next.span.adjective : null;
    if (adjective !== null) (next as Item).used = true;
    item.used = true;
    q.how = { adjective, text: item.span.text };
  }

  if (!bindPlaces(items, valueOfField)) return null;

  let negated = false;
  for (const [i, item] of items.entries()) {
    if (item.used) continue;
    const span = item.span;
    if (span.number !== null || span.date !== null || span.adjective !== null) return null;
    const kinds = new Set(span.meanings.map((m) => m.kind));
    if (kinds.has('negation')) {
      negated = true;
      continue;
    }
    if (kinds.has('firstPerson')) {
      q.firstPerson = true;
      continue;
    }
    if (kinds.has('current') && !kinds.has('manager') && !kinds.has('field') && !kinds.has('value')) {
      q.current.push({ text: span.text, glue: [...kinds].some((k) => GLUE.has(k) || OPENERS.has(k)) });
      continue;
    }
    if (kinds.has('condition')) {
      // A word that is both a host's condition and a data word reads two ways: neither is taken.
      if (kinds.has('manager') || kinds.has('field') || kinds.has('value')) return null;
      q.conditions.push({ meanings: meaningsOf(span.meanings, 'condition'), negated, text: span.text });
      negated = false;
      continue;
    }
    const manager = meaningOf(span.meanings, 'manager');
    if (negated && (kinds.has('relation') || (manager !== undefined && q.managers.length > 0))) {
      q.absentTo.push(span.meanings);
      negated = false;
      continue;
    }
    const state = meaningOf(span.meanings, 'state');
    if (state !== undefined && !kinds.has('value') && !kinds.has('field') && manager === undefined) {
      q.states.push(state.open);
      continue;
    }
    if (manager !== undefined) {
      q.managers.push({ meaning: manager, first: q.managers.length === 0 });
      if (POSSESSIVE.test(folded.slice(0, span.start))) q.possessiveManager = true;
      continue;
    }
    if (kinds.has('value')) {
      q.values.push({ meanings: valueOfField.get(item) ?? meaningsOf(span.meanings, 'value'), negated, text: span.text, glue: [...kinds].some((k) => GLUE.has(k) || k === 'madeOf'), state: meaningOf(span.meanings, 'state')?.open ?? null });
      negated = false;
      continue;
    }
    // A word both a verb and its manager's date field ("enrolled"), bound to no date, is the verb.
    if (kinds.has('verb')) {
      q.verbs.push(meaningsOf(span.meanings, 'verb'));
      if (PASSIVE.test(folded.slice(0, span.start))) q.passiveVerb = true;
      continue;
    }
    // "an artificial surface", "an equatorial mount": the field right after a value of its own confirms it.
    if (kinds.has('field') && fieldOfValueBefore(item, at(i - 1), folded)) continue;
    if (kinds.has('field') && negated) {
      q.absent.push(meaningsOf(span.meanings, 'field'));
      negated = false;
      continue;
    }
    if (kinds.has('field')) {
      q.fields.push(meaningsOf(span.meanings, 'field'));
      q.fieldTexts.push(span.text);
      if (POSSESSIVE.test(folded.slice(0, span.start))) q.possessive = true;
      continue;
    }
    if (kinds.has('count')) {
      if (q.count !== null) return null;
      q.count = span.text;
      q.countsField = fieldOf(at(i + 1)) !== null && at(i + 1)?.span.start === nextWordAt(folded, span.end);
      continue;
    }
    if (kinds.has('agentField')) {
      // "books written by Kazuo Ishiguro": the verb of a field its value is said of; "who wrote Dom Casmurro?": the field asked.
      const asked = meaningsOf(span.meanings, 'agentField').filter((a) => !items.some((other) => meaningsOf(other.span.meanings, 'value').some((v) => v.manager === a.manager && v.field === a.field)));
      if (asked.length > 0) {
        q.fields.push(asked.map((a) => ({ kind: 'field', manager: a.manager, field: a.field })));
        q.fieldTexts.push(span.text);
      }
      continue;
    }
    if (kinds.has('referent')) {
      q.referent = true;
      continue;
    }
    if (kinds.has('narrowing')) {
      q.narrowing = true;
      continue;
    }
    if (kinds.has('or')) {
      q.or = true;
      continue;
    }
    if (kinds.has('madeOf')) {
      // Glue before its object; at the end (nothing but glue after it) the question is what it is made of.
      const rest = items.slice(i + 1).some((later) => !later.used);
      if (!rest) q.madeOf = true;
      continue;
    }
    if (kinds.has('exists') || kinds.has('replacing')) continue;
    // A word that is also glue ("from", "by", "até", "in"), left unpaired, is that glue.
    if ([...kinds].some((k) => GLUE.has(k))) continue;
    return null; // a comparator with no field or number, a stray superlative or total word
  }
  if (negated) return null;
  return q;
}

/**
 * Place words ("live in", "moram em"): the value right after one is read on a place field only; with
 * nothing after it, a place field must be asked ("what city does X live in?"). False: a place word
 * with neither.
 */
function bindPlaces(items: Item[], valueOfField: Map<Item, readonly MeaningOf<'value'>[]>): boolean {
  for (const [i, item] of items.entries()) {
    if (item.used || !item.span.meanings.some((m) => m.kind === 'place')) continue;
    const fits = (field: string): boolean => fitsPlaceWord(foldPhrase(item.span.text), field);
    const next = items.slice(i + 1).find((later) => !later.used);
    if (next === undefined) {
      if (!items.some((other) => meaningsOf(other.span.meanings, 'field').some((f) => fits(f.field)))) return false;
    } else {
      const places = (valueOfField.get(next) ?? meaningsOf(next.span.meanings, 'value')).filter((v) => fits(v.field));
      if (places.length === 0) return false;
      valueOfField.set(next, places);
    }
    item.used = true;
  }
  return true;
}

/** A comparator said after its value ("or more", "or later", "ou mais"). */
function isAfterComparator(item: Item | undefined): boolean {
  return item !== undefined && !item.used && item.span.meanings.some((m) => m.kind === 'comparator' && m.after === true);
}

/** A row's number: a whole number as typed, not a date, a scale or a decimal. */
function isRowNumber(item: Item | undefined): boolean {
  const n = item?.span.number ?? null;
  return item !== undefined && !item.used && n !== null && Number.isInteger(n) && n >= 0 && /^#?\d+$/.test(item.span.text.trim());
}

/** Whether `b` is the word right after `a` in the clause. */
function ownFieldOf(manager: Item, field: Item | undefined): boolean {
  const managers = new Set(meaningsOf(manager.span.meanings, 'manager').map((m) => m.manager));
  return field !== undefined && meaningsOf(field.span.meanings, 'field').some((f) => managers.has(f.manager));
}

function fieldOfValueBefore(item: Item, before: Item | undefined, folded: string): boolean {
  if (before === undefined || !adjacent(folded, before, item)) return false;
  const values = meaningsOf(before.span.meanings, 'value');
  return values.length > 0 && meaningsOf(item.span.meanings, 'field').some((f) => values.some((v) => v.manager === f.manager && v.field === f.field));
}

/** A form of "be" right before a verb: the verb is a passive participle. */
const PASSIVE = /\b(?:been|was|were|is|are|be|being|foi|foram|sido|sao)\s+$/;

function adjacent(folded: string, a: Item, b: Item | undefined): boolean {
  return b !== undefined && b.span.start === nextWordAt(folded, a.span.end);
}

/** Where the next word starts after `at`. */
function nextWordAt(folded: string, at: number): number {
  const rest = folded.slice(at).search(/[a-z0-9]/);
  return rest < 0 ? -1 : at + rest;
}

/** A date's bound word; a comparator that is no date bound ("tasks due above Friday") is none. */
function dateBoundOf(meanings: readonly Meaning[]): DateBound['bound'] | null {
  return meaningOf(meanings, 'dateBound')?.bound ?? null;
}
