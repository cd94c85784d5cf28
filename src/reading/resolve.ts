/**
 * A bound question resolved against the subject it is about: each value a filter on the subject's one
 * shortest lookup reaching it (negated: an exclusion), each bound a filter with its operator, each
 * date a period on a date field, and the form it asks in — a list, a count, yes or no, a total, a
 * ranking, one attribute. Strict: an ambiguity (two filters a word could be, two fields a superlative
 * could rank by) yields nothing rather than a guess.
 */
import type { JsonValue } from '../core/index.js';
import { displayFieldOf } from '../core/index.js';
import type { ActorRowFilter, ReadLookup } from '../router/index.js';
import { checkArguments, fold } from '../router/index.js';
import type { ScaleField } from './adjectives.js';
import { directionOn, isOwnEvent, scaleField } from './adjectives.js';
import { absentFilter, absentRelation, madeOnField, stateFilter } from './states.js';
import type { CompiledReads } from './compile-reads.js';
import type { Aggregate, Direction } from './grammar.js';
import { DATED, NUMERIC, isIdentity, lookupFor, nearestOf, ownFields, pathManagers, typedValue } from './lookups.js';
import type { MeaningOf, ReadTarget } from './meanings.js';
import { actorFilter, conditionFilter } from './named-words.js';
import type { DateBound, FieldWord, Question, Rank } from './question.js';
import { verbSubject, verbsWalked } from './relation-verbs.js';
import { nowPeriod, periodHolding, periodPair } from './date-ranges.js';

export type Form =
  | { readonly kind: 'list' }
  | { readonly kind: 'count'; readonly text: string }
  | { readonly kind: 'exists'; readonly text: string }
  | { readonly kind: 'aggregate'; readonly op: Aggregate; readonly field: string; readonly text: string }
  /** `counted`: the relations walked to the rows counted (`field` is the first), ranked by how many each row has. */
  | { readonly kind: 'rank'; readonly direction: Direction; readonly field: string; readonly rows: number; readonly text: string; readonly counted?: readonly string[] }
  /** A ranking two fields could carry as well ("the oldest trailer": built year or purchased on): asked, never picked. */
  | { readonly kind: 'choose'; readonly fields: readonly string[]; readonly text: string }
  | { readonly kind: 'attribute'; readonly fields: readonly JsonValue[]; readonly asked: readonly string[] };

/** What the question's own words ask of one subject. */
export interface Resolved {
  readonly target: ReadTarget;
  readonly filters: Readonly<Record<string, JsonValue>>;
  readonly exclude: Readonly<Record<string, JsonValue>>;
  /** Null: the turn asks in no form of its own (a follow-up keeps the previous one). */
  readonly form: Form | null;
}

const CREATION = /created|placed|opened|submitted|registered|posted|issued|joined|signed|start|date$|^date/i;
const NOT_CREATION = /due|deadline|end|expir|until|sent/i;
const BOOLEAN: ReadonlySet<string> = new Set(['boolean']);
const PRICE_WORDS = new Set(['price', 'prices', 'cost', 'costs', 'preco', 'precos', 'custo', 'custos', 'valor', 'valores']);

/** What a clause's words are resolved with beyond the schema: the host's clock and the asking person's rows. */
export interface ReadContext {
  readonly now: string | null;
  readonly actor: ActorRowFilter | null;
}

const NO_CONTEXT: ReadContext = { now: null, actor: null };

/** The manager a question is about, from its words alone: the first manager named, else the one owner of its field words, else of its values. */
export function subjectOf(q: Question, reads: CompiledReads): ReadTarget | null {
  const named = q.managers.find((m) => m.first)?.meaning.manager;
  // "who rented room 12?": a manager named only with its number, beside a verb, is the verb's object.
  const object = q.verbs.length > 0 && q.managers.length === 1 && q.ids?.manager.manager === named;
  if (named !== undefined && !object) return reads.targets.get(named) ?? null;
  const fieldWords: FieldWord[] = [...q.fields, ...q.bounds.flatMap((b) => (b.field === null ? [] : [b.field])), ...q.dates.flatMap((d) => (d.field === null ? [] : [d.field]))];
  if (q.aggregate?.field != null) fieldWords.push(q.aggregate.field);
  if (q.rank?.field != null) fieldWords.push(q.rank.field);
  const owners = new Set<string>();
  // A host's condition names its manager as a field word does ("how many are overdue?").
  for (const word of [...fieldWords, ...q.conditions.map((c) => c.meanings)]) {
    const mine = new Set(word.map((m) => m.manager));
    if (owners.size === 0) for (const m of mine) owners.add(m);
    else for (const m of owners) if (!mine.has(m)) owners.delete(m);
    if (owners.size === 0) return null;
  }
  if (owners.size === 1) return reads.targets.get([...owners][0] as string) ?? null;
  if (owners.size > 1) {
    // "qual é o preço da Shaft?": of the managers the field words could be about, the one the values name.
    const named = [...owners].filter((m) => q.values.some((v) => v.meanings.some((meaning) => meaning.manager === m)));
    return named.length === 1 ? (reads.targets.get(named[0] as string) ?? null) : null;
  }
  // "how dense is titanium?", "what is the Gear made of?", "is Voyager done?": the one manager every value can be of.
  if (q.how !== null || q.madeOf || q.rank !== null || q.exists !== null || q.aggregate !== null) {
    const sets = q.values.map((word) => new Set(word.meanings.map((m) => m.manager)));
    const common = (sets[0] === undefined ? [] : [...sets[0]]).filter((m) => sets.every((set) => set.has(m)));
    if (common.length === 1) return reads.targets.get(common[0] as string) ?? null;
  }
  // "who teaches Algebra II?", "who rented room 12?": the verb's side the values and numbers do not name.
  // In the passive with no manager named ("what has been observed with Halley?") the agent is not
  // asked, and the other side is not said: not read.
  if (q.verbs.length > 0 && !q.passiveVerb) {
    const named = new Set([...q.values.flatMap((v) => v.meanings.map((m) => m.manager)), ...(q.ids === null ? [] : [q.ids.manager.manager])]);
    const subject = verbSubject(q.verbs, named);
    return subject === null ? null : (reads.targets.get(subject) ?? null);
  }
  return null;
}

/** Resolves a question's words on `target`; null when a word means nothing there or two things as much. */
export function resolveOn(q: Question, reads: CompiledReads, target: ReadTarget, context: ReadContext = NO_CONTEXT): Resolved | null {
  const spec = target.spec;
  const named = new Set(q.managers.map((m) => m.meaning.manager));
  const filters: Record<string, JsonValue> = {};
  const exclude: Record<string, JsonValue> = {};
  const values: { lookup: ReadLookup; value: string; negated: boolean }[] = [];
  const states = [...q.states];
  for (const word of q.values) {
    // A status-like value (enum, boolean: "open", "active") describes the noun it goes with: through a
    // relation it is read only when its own manager is named ("parts of active projects").
    // A demonym describes its own noun: through a relation only when that manager is named too.
    const resolved = word.meanings
      .flatMap((m) => lookupFor(target, m.manager, m.field).map((lookup) => ({ lookup, value: m.value, demonym: m.demonym === true })))
      .filter((r) => r.lookup.through.length === 0 || named.has(r.lookup.manager) || (!r.demonym && (r.lookup.type === 'string' || r.lookup.type === 'text')))
      .map(({ lookup, value }) => ({ lookup, value }));
    if (resolved.length === 0 && word.glue) continue;
    if (resolved.length === 0 && word.state !== null && !word.negated) {
      states.push(word.state);
      continue;
    }
    const nearest = Math.min(...resolved.map((r) => r.lookup.through.length));
    const best = resolved.filter((r) => r.lookup.through.length === nearest);
    if (best.length !== 1) return null;
    values.push({ ...(best[0] as { lookup: ReadLookup; value: string }), negated: word.negated });
  }
  const bounds: { key: string; number: number }[] = [];
  for (const bound of q.bounds) {
    const lookup = bound.field === null ? moneyLookup(target) : fieldLookup(target, bound.field, NUMERIC);
    if (lookup === null || (lookup.type === 'integer' && !Number.isInteger(bound.number))) return null;
    bounds.push({ key: bound.op === 'eq' ? lookup.key : `${lookup.key}__${bound.op}`, number: bound.number });
  }
  const dated = dateFilters(reads, target, q, context);
  if (dated === null) return null;
  const stated = stateFilters(q, reads, target, states);
  if (stated === null) return null;
  const ids = idFilter(q, target);
  if (ids === null) return null;
  // Every manager named after the subject must lie on the path of a filter it reads.
  const onPath = new Set<string>();
  for (const { lookup } of values) for (const m of pathManagers(spec, lookup)) onPath.add(m);
  for (const bound of q.bounds) {
    const lookup = bound.field === null ? null : fieldLookup(target, bound.field, NUMERIC);
    if (lookup !== null) for (const m of pathManagers(spec, lookup)) onPath.add(m);
  }
  for (const lookup of q.ids === null ? [] : lookupFor(target, q.ids.manager.manager, 'id')) for (const m of pathManagers(spec, lookup)) onPath.add(m);
  const later = q.managers.filter((m) => !m.first).map((m) => m.meaning.manager);
  if (later.some((m) => m !== spec.manager && !onPath.has(m))) return null;

  const byKey = new Map<string, { lookup: ReadLookup; values: string[]; negated: boolean }>();
  for (const { lookup, value, negated } of values) {
    const key = `${negated ? '!' : ''}${lookup.key}`;
    const entry = byKey.get(key) ?? { lookup, values: [], negated };
    if (!entry.values.includes(value)) entry.values.push(value);
    byKey.set(key, entry);
  }
  for (const { lookup, values: list, negated } of byKey.values()) {
    const into = negated ? exclude : filters;
    const typed = list.map((v) => typedValue(lookup, v));
    if (typed.some((v) => v === null)) return null;
    if (list.length === 1) into[lookup.key] = typed[0] as JsonValue;
    // Two values of the subject's own field can only mean either ("Apollo and Gemini"); through a
    // relation, "and" could mean both, so only "or" joins them.
    else if ((q.or || lookup.through.length === 0) && lookup.type !== 'boolean') into[`${lookup.key}__in`] = typed;
    else return null;
  }
  if (q.or && ![...byKey.values()].some((e) => e.values.length > 1)) return null;
  const hostNamed = namedFilters(q, target, context);
  if (hostNamed === null) return null;
  for (const { key, number } of [...bounds, ...dated.filters, ...stated.filters, ...ids, ...hostNamed.filters]) {
    if (key in filters) return null;
    filters[key] = number;
  }
  // An exclusion drops the rows matching all of its keys: two reasons to exclude cannot share one.
  for (const more of [dated.exclude, hostNamed.exclude]) {
    if (more === null || Object.keys(more).length === 0) continue;
    if (Object.keys(exclude).length > 0) return null;
    Object.assign(exclude, more);
  }

  if (q.verbs.length > 0 && !verbsWalked(q.verbs, target, Object.keys(filters))) return null;

  const identified = ids.length > 0 || values.some((v) => !v.negated && v.lookup.through.length === 0 && (v.lookup.type === 'string' || v.lookup.type === 'text'));
  const form = formOf({ ...q, fields: stated.fields }, reads, target, identified);
  if (form === undefined) return null;
  return { target, filters, exclude, form };
}

/**
 * The form the question asks in; undefined when its words do not make one (a field named with no
 * reason to show it, a superlative with no field to rank by, two forms at once).
 */
function formOf(q: Question, reads: CompiledReads, target: ReadTarget, identified: boolean): Form | null | undefined {
  const asked = [q.count !== null, q.aggregate !== null, q.rank !== null].filter(Boolean).length;
  if (asked > 1) return undefined;
  const attribute = (q.how !== null && q.aggregate === null) || q.madeOf || (q.fields.length > 0 && identified && !q.possessive);
  if (q.exists !== null) return asked > 0 || q.fields.length > 0 || q.how !== null ? undefined : { kind: 'exists', text: q.exists };
  if (attribute && q.rank === null && q.aggregate === null) {
    // "how many Washers are in stock?": a count of one named row's quantity is that quantity.
    if (q.count !== null && !(identified && q.fields.length > 0)) return undefined;
    const fields = attributeFields(q, reads, target);
    return fields === null ? undefined : { kind: 'attribute', fields, asked: askedOf(fields) };
  }
  // A field named without a bound only says what to show: after "their" (every field is shown), or in a
  // total or a ranking that names it.
  // "how many copies are there?": a count word right before a quantity field of no one row is its total.
  if (q.count !== null && q.countsField && q.fields.length === 1 && q.aggregate === null && q.rank === null) {
    const lookup = fieldLookup(target, q.fields[0] as FieldWord, NUMERIC);
    return lookup === null || lookup.through.length > 0 ? undefined : { kind: 'aggregate', op: 'sum', field: lookup.field, text: q.count };
  }
  if (q.fields.length > 0 && !q.possessive && !(q.rank !== null && q.rank.field === null && q.fields.length === 1)) return undefined;
  if (q.count !== null) return { kind: 'count', text: q.count };
  if (q.aggregate !== null) {
    const lookup = q.aggregate.field === null ? moneyLookup(target) : fieldLookup(target, q.aggregate.field, NUMERIC);
    if (lookup === null || lookup.through.length > 0) return undefined;
    return { kind: 'aggregate', op: q.aggregate.op, field: lookup.field, text: q.aggregate.text };
  }
  if (q.rank?.related != null) {
    if (q.fields.length > 0) return undefined;
    const relations = countedRelations(reads, target, q.rank.related.manager);
    const path = relations[0]?.split('__');
    return relations.length !== 1 || path === undefined ? undefined : { kind: 'rank', direction: q.rank.direction, field: path[0] as string, rows: q.rank.rows, text: q.rank.text, counted: path };
  }
  if (q.rank !== null) {
    const by = rankField(q.rank, q.rank.field ?? (q.fields.length === 1 ? (q.fields[0] as FieldWord) : null), reads, target);
    if (by === null) return undefined;
    return 'candidates' in by ? { kind: 'choose', fields: by.candidates, text: q.rank.text } : { kind: 'rank', direction: by.direction, field: by.field, rows: q.rank.rows, text: q.rank.text };
  }
  return null;
}

/** The fields an attribute read asks for: its selection less the id and the title the row is named by. */
export function askedOf(fields: readonly JsonValue[]): string[] {
  const names = fields.flatMap((f) => (typeof f === 'string' ? [f] : typeof f === 'object' && f !== null && !Array.isArray(f) ? Object.keys(f) : [])).filter((f) => f !== 'id');
  const title = displayFieldOf((f) => names.includes(f));
  return names.length > 1 && title !== null ? names.filter((f) => f !== title) : names;
}

/** The fields an attribute question reads: the row's id and title, and what is asked (through a relation: its title). */
function attributeFields(q: Question, reads: CompiledReads, target: ReadTarget): JsonValue[] | null {
  const own = new Set(target.spec.fields);
  const title = displayFieldOf((f) => own.has(f)) ?? undefined;
  const asked: JsonValue[] = [];
  for (const word of q.fields) {
    const lookup = fieldLookup(target, word, null);
    if (lookup === null || lookup.through.length > 0) return null;
    if (!asked.includes(lookup.field) && lookup.field !== title) asked.push(lookup.field);
  }
  if (q.how?.adjective != null) {
    const field = adjectiveField(q.how.adjective, reads, target, null);
    if (field === null) return null;
    if (!asked.includes(field)) asked.push(field);
  }
  if (q.madeOf) {
    const relation = madeOfRelation(reads, target);
    if (relation === null) return null;
    asked.push({ [relation.name]: ['id', relation.title] });
  }
  if (asked.length === 0) return null;
  return ['id', ...(title === undefined ? [] : [title]), ...asked];
}

/** "what is X made of?": the subject's one relation named as a material, and the field its rows are titled by. */
function madeOfRelation(reads: CompiledReads, target: ReadTarget): { name: string; title: string } | null {
  const names = new Set(reads.grammar.madeOfRelations);
  const relations = [...new Set(target.spec.lookups.filter((l) => l.through.length === 1 && names.has((l.through[0] as string).toLowerCase())).map((l) => l.through[0] as string))];
  if (relations.length !== 1) return null;
  const name = relations[0] as string;
  const fields = new Set(target.spec.lookups.filter((l) => l.through.length === 1 && l.through[0] === name).map((l) => l.field));
  const title = displayFieldOf((f) => fields.has(f)) ?? undefined;
  return title === undefined ? null : { name, title };
}

/** The field a ranking is by, and its direction on it: the field word, an adjective's field, a price, a scale or a date of creation. */
function rankField(rank: Rank, word: FieldWord | null, reads: CompiledReads, target: ReadTarget): ScaleField {
  const on = (field: string | null): ScaleField => (field === null ? null : { field, direction: rank.direction });
  if (word !== null) {
    const lookup = fieldLookup(target, word, new Set([...NUMERIC, ...DATED]));
    if (lookup === null || lookup.through.length > 0) return null;
    return { field: lookup.field, direction: rank.scale === null ? rank.direction : directionOn(rank.scale, rank.direction, reads, target, lookup) };
  }
  if (rank.adjective !== null) return on(adjectiveField(rank.adjective, reads, target, new Set([...NUMERIC, ...DATED])));
  const numeric = ownFields(target, NUMERIC);
  switch (rank.by) {
    case 'price': {
      const priced = numeric.filter((l) => (reads.fieldWords.get(`${target.spec.manager}.${l.field}`) ?? []).some((w) => w.split(' ').some((part) => PRICE_WORDS.has(part))));
      if (priced.length === 1) return on((priced[0] as ReadLookup).field);
      return priced.length === 0 ? on(moneyLookup(target)?.field ?? null) : null;
    }
    case 'scale':
      return rank.scale === null ? null : scaleField(rank.scale, rank.direction, reads, target);
    case 'recent': {
      // Its one date of creation; with none, its one date that is no deadline or end ("the most recent repairs").
      const dates = ownFields(target, DATED).filter((l) => !NOT_CREATION.test(l.field));
      const created = dates.filter((l) => CREATION.test(l.field));
      const own = dates.filter((l) => isOwnEvent(l.field, target));
      const dated = created.length > 0 ? created : own.length > 0 ? own : dates;
      return dated.length === 1 ? on((dated[0] as ReadLookup).field) : null;
    }
    case 'named':
      return null;
  }
}

/**
 * The relations of the subject to many rows of `manager`: directly (`performances`), else through a
 * join manager's relation to one row (`roles__actor`). A ranking reads only one: two ("actorRoles",
 * "understudyRoles" to Role; `repairs__mechanic`, `repairs__inspector`) are two readings, never the first.
 */
export function countedRelations(reads: CompiledReads, target: ReadTarget, manager: string): string[] {
  const many = new Set(target.spec.many ?? []);
  const lookups = target.spec.lookups.filter((l) => l.manager === manager && many.has(l.through[0] ?? ''));
  const direct = new Set(lookups.filter((l) => l.through.length === 1).map((l) => l.through[0] as string));
  if (direct.size > 0) return [...direct];
  const joined = new Set(
    lookups
      .filter((l) => l.through.length === 2 && l.field === 'id')
      .filter((l) => {
        const join = target.spec.lookups.find((j) => j.through.length === 1 && j.through[0] === l.through[0])?.manager;
        const hop = join === undefined ? undefined : reads.targets.get(join);
        return hop !== undefined && !(hop.spec.many ?? []).includes(l.through[1] as string);
      })
      .map((l) => l.through.join('__')),
  );
  return [...joined];
}

/** The subject's one own decimal field, or null (none, or several: which would be a guess). */
function moneyLookup(target: ReadTarget): ReadLookup | null {
  const decimals = ownFields(target, new Set(['decimal']));
  return decimals.length === 1 ? (decimals[0] as ReadLookup) : null;
}

/** The one own field whose word shares a stem of four letters or more with an adjective ("densest", "denso" → density). */
function adjectiveField(adjective: string, reads: CompiledReads, target: ReadTarget, types: ReadonlySet<string> | null): string | null {
  const stem = adjective.replace(/(?:iest|est|er|os|as|o|a|e)$/, '');
  if (stem.length < 4) return null;
  const matches = target.spec.lookups.filter(
    (l) =>
      l.through.length === 0 &&
      (types === null || types.has(l.type)) &&
      (reads.fieldWords.get(`${target.spec.manager}.${l.field}`) ?? []).some((w) => w.split(' ').some((part) => part.startsWith(stem.slice(0, Math.max(4, stem.length - 1))))),
  );
  const fields = [...new Set(matches.map((l) => l.field))];
  return fields.length === 1 ? (fields[0] as string) : null;
}

/** The one lookup a field word means on the subject, of the given types (null: any); the nearest of several. */
function fieldLookup(target: ReadTarget, word: FieldWord, types: ReadonlySet<string> | null): ReadLookup | null {
  const lookups = word.flatMap((m: MeaningOf<'field'>) => lookupFor(target, m.manager, m.field)).filter((l) => types === null || types.has(l.type));
  const lookup = nearestOf(lookups);
  return lookup !== null && !isIdentity(lookup.field) ? lookup : null;
}

/** A participle in either language: "returned", "paid", "devolvido", "paga". */
const PARTICIPLE = /(?:[a-z]ed|paid|sent|sold|[a-z](?:ad|id)[oa]s?)$/;

/**
 * Fields that say whether a row is in a state: a field that may be empty, after a negation ("loans not
 * returned": `returnedOn__isnull: true`), or a date field said by its verb alone with no question about
 * it ("which loans are returned?": `returnedOn__isnull: false`). The other field words stay what they were.
 */
function stateFilters(q: Question, reads: CompiledReads, target: ReadTarget, states: readonly boolean[]): { filters: { key: string; number: JsonValue }[]; fields: FieldWord[] } | null {
  const filters: { key: string; number: JsonValue }[] = [];
  for (const word of q.absent) {
    const lookup = fieldLookup(target, word, null);
    const filter = lookup === null ? null : absentFilter(lookup);
    if (filter === null) return null;
    filters.push(filter);
  }
  for (const word of q.absentTo) {
    const filter = absentRelation(word, target);
    if (filter === null) return null;
    filters.push(filter);
  }
  for (const open of states) {
    const filter = stateFilter(open, reads, target);
    if (filter === null) return null;
    filters.push(filter);
  }
  const fields: FieldWord[] = [];
  const described = q.how === null && !q.possessive && q.aggregate === null && q.rank === null;
  q.fields.forEach((word, i) => {
    const lookup = q.how === null && !q.possessive && PARTICIPLE.test(fold(q.fieldTexts[i] ?? '')) ? fieldLookup(target, word, DATED) : null;
    // "which recipes are seasonal?", "the seasonal recipes": a yes/no field of the subject said of it is true.
    const yes = described ? fieldLookup(target, word, BOOLEAN) : null;
    if (lookup !== null && lookup.nullable === true) filters.push({ key: `${lookup.key}__isnull`, number: false });
    else if (yes !== null && yes.through.length === 0) filters.push({ key: yes.key, number: true });
    else fields.push(word);
  });
  return { filters, fields };
}

/**
 * Rows named by number ("loan 2") as an id filter: on the subject itself, or through the one shortest
 * relation to the manager the noun names ("comments of ticket 1001": `ticket__id`); none when no number is said.
 */
function idFilter(q: Question, target: ReadTarget): { key: string; number: JsonValue }[] | null {
  if (q.ids === null) return [];
  const found = lookupFor(target, q.ids.manager.manager, 'id');
  if (found.length !== 1) return null;
  const id = found[0] as ReadLookup;
  const typed = q.ids.numbers.map((n) => typedValue(id, String(n)));
  if (typed.some((v) => v === null)) return null;
  return typed.length === 1 ? [{ key: id.key, number: typed[0] as JsonValue }] : [{ key: `${id.key}__in`, number: typed }];
}

/**
 * A date phrase as bounds on a date field: within the period, after, since, before or until it. With
 * no field named on a subject with a start and an end ("running now", "on today", "em cartaz"), the
 * rows whose period holds it (date-ranges.ts).
 */
function dateFilters(reads: CompiledReads, target: ReadTarget, q: Question, context: ReadContext): { filters: { key: string; number: JsonValue }[]; exclude: Record<string, JsonValue> | null } | null {
  const out: { key: string; number: JsonValue }[] = [];
  let exclude: Record<string, JsonValue> | null = null;
  const pair = periodPair(target);
  const holding = (period: Parameters<typeof periodHolding>[1] | null): boolean => {
    const range = pair === null || period === null || exclude !== null ? null : periodHolding(pair, period);
    if (range === null) return false;
    out.push(...range.filters);
    exclude = range.exclude;
    return true;
  };
  const unfielded = q.dates.filter((d) => d.field === null && !d.made && d.bound === 'in');
  if (q.current.length > 0 && unfielded.length === 0) {
    // "now", "currently" say nothing where no period is; "running", "em cartaz" must find one.
    if (!holding(nowPeriod(context.now)) && !q.current.every((c) => c.glue)) return null;
  }
  for (const d of q.dates) {
    if (pair !== null && unfielded.includes(d) && ownFields(target, DATED).length !== 1) {
      if (!holding(d.date)) return null;
      continue;
    }
    let lookup: ReadLookup | null;
    const year = d.field === null ? null : yearFilter(target, d);
    if (year !== undefined && year !== null) {
      out.push(year);
      continue;
    }
    if (d.field !== null) lookup = fieldLookup(target, d.field, DATED);
    else if (d.made) lookup = madeOnField(reads, target);
    else {
      const dated = ownFields(target, DATED);
      lookup = dated.length === 1 ? (dated[0] as ReadLookup) : null;
    }
    if (lookup === null) return null;
    const day = lookup.type === 'date';
    const from = day ? d.date.fromDay : d.date.from;
    const to = day ? d.date.toDay : d.date.to;
    if (from === null || to === null) return null;
    const key = lookup.key;
    switch (d.bound) {
      case 'in': out.push({ key: `${key}__gte`, number: from }, { key: `${key}__lt`, number: to }); break;
      case 'after': out.push({ key: `${key}__gte`, number: to }); break;
      case 'since': out.push({ key: `${key}__gte`, number: from }); break;
      case 'before': out.push({ key: `${key}__lt`, number: from }); break;
      case 'until': out.push({ key: `${key}__lt`, number: to }); break;
    }
  }
  return { filters: out, exclude };
}

/**
 * A whole year on a field that holds years ("published after 2000", "founded in 1998"): the year as a
 * number; undefined when the field is no year field, null when the date is not a whole year.
 */
function yearFilter(target: ReadTarget, d: DateBound): { key: string; number: JsonValue } | null | undefined {
  const lookup = d.field === null ? null : fieldLookup(target, d.field, new Set(['integer']));
  if (lookup === null || !/year|ano/i.test(lookup.field)) return undefined;
  const from = d.date.fromDay;
  const to = d.date.toDay;
  if (from === null || to === null || !from.endsWith('-01-01') || !to.endsWith('-01-01') || Number(to.slice(0, 4)) !== Number(from.slice(0, 4)) + 1) return null;
  const year = Number(from.slice(0, 4));
  switch (d.bound) {
    case 'in': return { key: lookup.key, number: year };
    case 'after': return { key: `${lookup.key}__gt`, number: year };
    case 'since': return { key: `${lookup.key}__gte`, number: year };
    case 'before': return { key: `${lookup.key}__lt`, number: year };
    case 'until': return { key: `${lookup.key}__lte`, number: year };
  }
}

/**
 * The host's conditions and the first person as filters on the subject: each condition of its own
 * (one negated condition: the rows that do not meet it, alone in `exclude`), the asking person's rows.
 * Null when a condition is not the subject's, needs a clock there is not, or the person has no rows here.
 */
function namedFilters(q: Question, target: ReadTarget, context: ReadContext): { filters: { key: string; number: JsonValue }[]; exclude: Record<string, JsonValue> | null } | null {
  const filters: { key: string; number: JsonValue }[] = [];
  let exclude: Record<string, JsonValue> | null = null;
  for (const said of q.conditions) {
    const own = said.meanings.filter((m) => m.manager === target.spec.manager);
    if (own.length !== 1) return null;
    const filter = conditionFilter(target, own[0] as MeaningOf<'condition'>, context.now);
    if (filter === null) return null;
    if (said.negated) {
      if (exclude !== null) return null;
      exclude = filter;
    } else for (const [key, value] of Object.entries(filter)) filters.push({ key, number: value });
  }
  if (q.firstPerson) {
    const mine = actorFilter(target, context.actor);
    if (mine === null) return null;
    for (const [key, value] of Object.entries(mine)) filters.push({ key, number: value });
  }
  return { filters, exclude };
}

/** The read's arguments checked against the read tool's schema. */
export function validArguments(target: ReadTarget, args: Readonly<Record<string, JsonValue>>): boolean {
  return checkArguments(target.schema, args).length === 0;
}
