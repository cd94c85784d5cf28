/** Filling a tool's arguments from one clause of a turn: context, dates, cues, enums, then types. */
import { Decimal } from 'decimal.js';
import type { JsonValue } from '../core/index.js';
import type { HostClock } from './clock.js';
import { formatDate, formatDateTime } from './clock.js';
import type { CompiledLanguage, CompiledParameter, CompiledTool } from './compile.js';
import type { DateMention } from './dates.js';
import type { Rulebook } from './rulebook.js';
import { contextKey, destinationKinds } from './rulebook.js';
import { fold, stem, tokenize } from './text.js';
import type { ArgumentSource, RouterContext } from './types.js';
import type { TurnValue } from './values.js';
import type { ProperName } from './leftovers.js';
import { properNames } from './leftovers.js';

export interface Filled {
  readonly args: Record<string, JsonValue>;
  readonly sources: Record<string, ArgumentSource>;
  /** A parameter given several values (`orders 4411 and 4412`): the values in the order typed. */
  several: { readonly parameter: string; readonly values: readonly JsonValue[]; readonly texts: readonly string[] } | null;
  readonly claimed: Set<TurnValue>;
  readonly rules: string[];
}

export interface ClauseView {
  readonly turn: string;
  readonly folded: string;
  readonly start: number;
  readonly end: number;
  readonly values: readonly TurnValue[];
  readonly dates: readonly DateMention[];
}

const FILLER = /^(?:\s|[:=#$€£¥]|\br\$|\bno\.?(?=\s)|\bnumber\b|\bnumero\b|\bn[º°o]\b|\bis\b|\bof\b|\bde\b|\bdo\b|\bda\b|\bcalled\b|\bnamed\b|\bchamad[oa]\b|\bfor\b|\bwith\b|\bbe\b|\bto\b|\bsera\b|\be\b(?=\s*[:"“'\d]))*/;
const LIST_JOIN = /^\s*(?:,|\band\b|\be\b|&|\bor\b|\bou\b)\s*(?:,|\band\b|\be\b)?\s*/;
const TRAILING_PREPOSITION = /(?:\s+(?:to|for|in|on|at|into|ao|aos|a|à|para|pra|no|na|em|do|da|de|the|o))+\s*$/iu;
const FREE_TEXT_STOP = /\s*(?:[,.;!?()]|\b(?:and|then|to it|to that|to them|for it|with|in|on|at|from|e|depois|nele|nela|para|pra|com|no|na|em)\b)/;

const NAME = `(?:"[^"]{1,60}"|'[^']{1,60}'|\\p{Lu}[\\p{L}.'’-]*(?:\\s+(?:(?:of|de|do|da|dos|das)\\s+)?\\p{Lu}[\\p{L}.'’-]*)*)`;
const ROUTE = new RegExp(
  `\\bfrom\\s+(${NAME})\\s+to\\s+(${NAME})|\\bbetween\\s+(${NAME})\\s+and\\s+(${NAME})|\\bde\\s+(${NAME})\\s+(?:para|a|até|ate)\\s+(${NAME})|\\bentre\\s+(${NAME})\\s+e\\s+(${NAME})`,
  'u',
);
const PLACE_WORDS = new Set(['location', 'city', 'place', 'town', 'region', 'country', 'area', 'local', 'cidade', 'lugar', 'regiao', 'pai']);
const PLACE = new RegExp(`(?<![\\p{L}])(?:in|at|near|em|no|na|perto de)\\s+(${NAME}(?:,\\s*(?:\\p{Lu}{2}\\b|${NAME}))?)`, 'gu');
const PLACE_LIST = /^\s*(?:,|&|\band\b|\bor\b|\be\b|\bou\b)\s*["'“]?\p{Lu}/u;
const START_WORDS = /(?:^|_)(?:start|origin|from|source|departure|depart|pickup)(?:_|$)|^(?:start|origin|from|source|departure)/i;
const END_WORDS = /(?:^|_)(?:end|destination|to|target|arrival|dest|dropoff)(?:_|$)|^(?:end|destination|to|target|arrival)/i;

/** Words of a yes/no parameter's name that say it is a switch, not what it switches. */
const SWITCH_WORDS = new Set(['include', 'with', 'is', 'has', 'show', 'get', 'want', 'use', 'enable', 'allow', 'should', 'need', 'incluir', 'com', 'mostrar', 'usar']);
const POSITIVE_MARKERS = new Set(['including', 'include', 'includes', 'with', 'incluindo', 'inclua', 'incluir', 'com']);
const NEGATIVE_MARKERS = new Set(['without', 'not', 'no', 'exclude', 'excluding', 'don', 'dont', 'sem', 'nao', 'excluindo', 'exclua']);

/** The same word, allowing a plural or a longer form of five letters or more ("details" / "detailed"). */
function sameWord(word: string, target: string): boolean {
  const a = stem(word);
  if (a === target) return true;
  const [short, long] = a.length <= target.length ? [a, target] : [target, a];
  return short.length >= 5 && long.startsWith(short);
}

const LOWER_WORDS = /(?:^|_)(?:start|from|begin|lower|min|first|inicio|de)(?:_|$)|^(?:start|from|begin|lower|min)/i;
const UPPER_WORDS = /(?:^|_)(?:end|to|stop|upper|max|last|fim|ate)(?:_|$)|^(?:end|to|stop|upper|max)/i;
const RANGE_OPEN = /\b(?:from|between|de|entre)\s+$/;
const RANGE_JOIN = /^\s*(?:to|and|through|-|a|ate|e)\s*$/;

/** The one lower and the one upper numeric parameter of a tool, if it has exactly such a pair. */
function numericPair(params: readonly CompiledParameter[]): [CompiledParameter, CompiledParameter] | null {
  const lows = params.filter((p) => LOWER_WORDS.test(p.info.name));
  const highs = params.filter((p) => UPPER_WORDS.test(p.info.name) && !lows.includes(p));
  return lows.length === 1 && highs.length === 1 ? [lows[0] as CompiledParameter, highs[0] as CompiledParameter] : null;
}

/** The one start place and the one end place among free-text parameters, if the tool has exactly such a pair. */
function placePair(params: readonly CompiledParameter[]): [CompiledParameter, CompiledParameter] | null {
  const starts = params.filter((p) => START_WORDS.test(p.info.name));
  const ends = params.filter((p) => END_WORDS.test(p.info.name) && !starts.includes(p));
  return starts.length === 1 && ends.length === 1 ? [starts[0] as CompiledParameter, ends[0] as CompiledParameter] : null;
}

export function isFreeText(p: CompiledParameter): boolean {
  return p.info.type === 'string' && p.pattern === null && p.info.format === null && p.info.enumValues === null && !looksLikeIdentifier(p.info.name);
}

/** A parameter that names one row by its number: an id, a code, or digits only by its pattern. */
function identifies(p: CompiledParameter): boolean {
  return (p.info.type === 'string' || p.info.type === 'integer') && (looksLikeIdentifier(p.info.name) || p.pattern?.source === '^[0-9]+$');
}

export function looksLikeIdentifier(name: string): boolean {
  return /(?:^|_|[a-z])(?:id|Id|ID|code|number|num|no|zip)$/.test(name);
}

/**
 * Whether the date phrases of a clause make one period for a start-and-end pair: one phrase (a range
 * "de X até Y" is one) ending after it starts. Several phrases are not one period: "no dia 9 … à tarde"
 * read as the 9th and this afternoon, "tomorrow and Friday", "today for the afternoon" (the whole day or
 * its afternoon?). With no clock the phrases go as typed, the first to the start and the last to the end.
 */
export function periodHolds(dates: readonly DateMention[]): boolean {
  const first = dates[0];
  const last = dates[dates.length - 1];
  if (first === undefined || last === undefined) return false;
  if (first.from === null || last.to === null) return true;
  return dates.length === 1 && first.to !== null && first.to > first.from;
}

export function isDateParameter(p: CompiledParameter): boolean {
  return p.info.format === 'date' || p.info.format === 'date-time';
}

/** Whether a value found in a turn fits a parameter's type, format, pattern and destination rule. */
export function fits(p: CompiledParameter, value: TurnValue, tool: string, rulebook: Rulebook): boolean {
  const kinds = destinationKinds(rulebook, tool, p.info.name);
  if (value.kind === 'url' || value.kind === 'email' || value.kind === 'channel') {
    if (kinds.length > 0) return kinds.includes(value.kind);
    if (value.kind === 'email') return p.info.format === 'email' && !hasOtherDestinationRule(rulebook, p.info.name);
    if (value.kind === 'url') return (p.info.format === 'uri' || p.info.format === 'url') && !hasOtherDestinationRule(rulebook, p.info.name);
    return false;
  }
  if (kinds.length > 0 || p.info.format === 'email' || p.info.format === 'uri' || isDateParameter(p)) return false;
  if (p.info.enumValues !== null) return p.info.enumValues.includes(value.value);
  // A percentage goes where the description says how: as the figure or as a fraction; else nowhere.
  if (value.percent === true && percentForm(p) === null) return false;
  switch (p.info.type) {
    case 'integer':
      return value.kind === 'integer' || value.kind === 'spelled';
    case 'number':
      return value.kind === 'integer' || value.kind === 'decimal' || value.kind === 'spelled';
    case 'string':
      if (value.kind === 'quoted') return isFreeText(p);
      if (p.pattern !== null) return p.pattern.test(value.value);
      return looksLikeIdentifier(p.info.name) && value.kind === 'integer';
    default:
      return false;
  }
}

function hasOtherDestinationRule(rulebook: Rulebook, parameter: string): boolean {
  return Object.keys(rulebook.destinations).some((key) => key === parameter || key.endsWith(`.${parameter}`));
}

export function convert(p: CompiledParameter, value: TurnValue): JsonValue {
  if (p.info.type === 'integer' || p.info.type === 'number') {
    if (value.percent === true && percentForm(p) === 'fraction') return new Decimal(value.value).div(100).toNumber();
    return Number(value.value);
  }
  return value.value;
}

/**
 * How a parameter takes a percentage ("6%"), by its description: as a fraction (0.06) where it says
 * decimal or fraction, as the figure (6) where it says percent; null where it says neither.
 */
export function percentForm(p: CompiledParameter): 'fraction' | 'figure' | null {
  const description = (p.info.schema.description ?? '').toLowerCase();
  if (/decimal|fraction|proportion|between 0 and 1|0 to 1|0\.0\d|e\.g\.,? 0\.\d/.test(description)) return 'fraction';
  if (/percent|percentage|%/.test(description)) return 'figure';
  return null;
}

/** Fills what the clause gives; what stays empty is the caller's to ask for. */
export function fillArguments(
  tool: CompiledTool,
  clause: ClauseView,
  lang: CompiledLanguage,
  rulebook: Rulebook,
  context: RouterContext,
  clock: HostClock | null,
): Filled {
  const filled: Filled = { args: {}, sources: {}, several: null, claimed: new Set(), rules: [] };
  const name = tool.info.name;
  const open = (p: CompiledParameter): boolean => !(p.info.name in filled.args);
  const set = (p: CompiledParameter, value: JsonValue, source: ArgumentSource, rule: string): void => {
    filled.args[p.info.name] = value;
    filled.sources[p.info.name] = source;
    filled.rules.push(rule);
  };

  for (const p of tool.parameters) {
    const key = contextKey(rulebook, name, p.info.name);
    if (key !== undefined && context[key] !== undefined) set(p, context[key], 'context', `A4 context ${p.info.name}`);
  }

  const date = clause.dates[0];
  if (date !== undefined) {
    const typed = clause.turn.slice(date.start, date.end);
    const write = (p: CompiledParameter, local: number | null): JsonValue =>
      local === null ? typed : p.info.format === 'date' ? formatDate(local) : formatDateTime(local, clock as HostClock);
    const period = tool.info.period;
    if (period !== null) {
      const start = tool.parameters.find((p) => p.info.name === period.start);
      const end = tool.parameters.find((p) => p.info.name === period.end);
      const last = clause.dates[clause.dates.length - 1] ?? date;
      // One period only, from one date phrase ending after it starts: otherwise no parameter takes the
      // dates and the turn is unread (U5), never run over a period the person did not name.
      if (periodHolds(clause.dates)) {
        if (start !== undefined && open(start)) set(start, write(start, date.from), 'turn', `A6 date ${start.info.name}`);
        if (end !== undefined && open(end)) set(end, last.to === null ? clause.turn.slice(last.start, last.end) : write(end, last.to), 'turn', `A6 date ${end.info.name}`);
      }
    } else {
      const one = tool.parameters.find((p) => open(p) && isDateParameter(p));
      // Else the one plain string parameter its name calls a date (`date`, `start_date`, `data`): the day, or the words as typed with no clock.
      const named = tool.parameters.filter((p) => open(p) && p.info.type === 'string' && p.info.format === null && p.info.enumValues === null && p.pattern === null && p.info.words.some((w) => w === 'date' || w === 'data'));
      if (one !== undefined) set(one, write(one, date.from), 'turn', `A6 date ${one.info.name}`);
      else if (named.length === 1 && clause.dates.length === 1 && (date.from !== null || /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(typed))) {
        // With no clock only a date typed in figures (2022/08/16) is taken as typed; "March 1st" stays unplaced.
        const p = named[0] as CompiledParameter;
        set(p, date.from === null ? typed : formatDate(date.from), 'turn', `A6 date ${p.info.name}`);
      }
    }
  }

  const inClause = clause.values;
  const valueAt = (index: number): TurnValue | undefined => inClause.find((v) => v.start === index && !filled.claimed.has(v));

  for (const p of tool.parameters) {
    if (!open(p)) continue;
    for (const cue of p.cues.all(clause.folded)) {
      const after = clause.start + cue.end;
      const rest = clause.folded.slice(cue.end);
      const skip = FILLER.exec(rest)?.[0].length ?? 0;
      let at = after + skip;
      let value = valueAt(at);
      if (value !== undefined && fits(p, value, name, rulebook)) {
        const list: TurnValue[] = [value];
        for (;;) {
          const tail = clause.turn.slice(value.end, clause.end);
          const join = LIST_JOIN.exec(tail.toLowerCase());
          if (join === null) break;
          at = value.end + join[0].length;
          const next = valueAt(at);
          if (next === undefined || next.kind !== value.kind || !fits(p, next, name, rulebook)) break;
          list.push(next);
          value = next;
        }
        for (const v of list) filled.claimed.add(v);
        if (list.length > 1 && filled.several === null) {
          filled.several = { parameter: p.info.name, values: list.map((v) => convert(p, v)), texts: list.map((v) => v.text) };
          set(p, convert(p, list[0] as TurnValue), 'turn', `A1 cue ${p.info.name}`);
        } else set(p, convert(p, list[0] as TurnValue), 'turn', `A1 cue ${p.info.name}`);
        break;
      }
      if (p.info.enumValues !== null || p.values.size > 0) {
        const word = p.valueSet.all(rest.slice(skip))[0];
        if (word !== undefined && word.start === 0) {
          set(p, p.values.get(word.phrase) ?? word.phrase, 'turn', `A1 cue ${p.info.name}`);
          break;
        }
      }
      if (isFreeText(p) && value === undefined && p.ownCues) {
        // The text runs to the next value or the next cue of another parameter ("called Write docs | to project 12").
        const limits = [clause.end];
        for (const q of tool.parameters) if (q !== p) for (const c of q.cues.all(clause.folded)) if (clause.start + c.start > at) limits.push(clause.start + c.start);
        for (const v of inClause) if (v.start > at) limits.push(v.start);
        const text = clause.turn.slice(at, Math.min(...limits)).replace(TRAILING_PREPOSITION, '');
        const stop = FREE_TEXT_STOP.exec(clause.folded.slice(at - clause.start));
        const cut = text.slice(0, stop === null ? text.length : stop.index).trim();
        if (cut.length > 0 && /^[\p{Lu}\p{N}]/u.test(cut) && !lang.stopwords.has(cut.toLowerCase())) {
          set(p, cut, 'turn', `A1 cue ${p.info.name}`);
          break;
        }
      }
    }
  }

  // A number followed by its parameter's own words, as a unit: "4 light years" → distance_in_light_years,
  // "2 servings" → servings. Taken only when the number names that one open parameter and no other.
  const unitOf = (p: CompiledParameter, v: TurnValue): number => {
    if ((p.info.type !== 'integer' && p.info.type !== 'number') || !fits(p, v, name, rulebook)) return 0;
    const rest = clause.folded.slice(v.end - clause.start, v.end - clause.start + 80);
    if (!/^\s/.test(rest)) return 0;
    let count = 0;
    for (const word of rest.trim().split(/[^a-z0-9]+/, 4)) {
      if (!p.info.words.includes(stem(word)) || (count === 0 && lang.stopwords.has(word))) break;
      count++;
    }
    return count;
  };
  for (const p of tool.parameters) {
    if (!open(p)) continue;
    const named = inClause.filter((v) => !filled.claimed.has(v) && unitOf(p, v) > 0);
    if (named.length !== 1) continue;
    const value = named[0] as TurnValue;
    const length = unitOf(p, value);
    // "4 light years": distance_in_light_years's words run longer than speed_of_light's "light".
    if (tool.parameters.some((q) => q !== p && open(q) && unitOf(q, value) >= length)) continue;
    filled.claimed.add(value);
    set(p, convert(p, value), 'turn', `A1 unit ${p.info.name}`);
  }

  // A yes/no parameter named by its own words with a marker just before: "including human impact" →
  // include_human_impact true, "without tolls" → avoid_tolls… false; no marker, no value.
  const tokens = tokenize(clause.folded);
  for (const p of tool.parameters) {
    if (!open(p) || p.info.type !== 'boolean') continue;
    const core = p.info.words.filter((w) => !SWITCH_WORDS.has(w) && !lang.stopwords.has(w));
    if (core.length === 0) continue;
    const verdicts = new Set<boolean>();
    tokens.forEach((token, i) => {
      if (!core.some((w) => sameWord(token.word, w))) return;
      const window = tokens.slice(i, i + 2 * core.length + 1).map((t) => t.word);
      if (!core.every((w) => window.some((x) => sameWord(x, w)))) return;
      const before = tokens.slice(Math.max(0, i - 4), i).map((t) => t.word);
      if (before.some((w) => NEGATIVE_MARKERS.has(w))) verdicts.add(false);
      else if (before.some((w) => POSITIVE_MARKERS.has(w))) verdicts.add(true);
    });
    if (verdicts.size === 1) set(p, [...verdicts][0] as boolean, 'turn', `A2 switch ${p.info.name}`);
  }

  for (const p of tool.parameters) {
    if (!open(p) || p.values.size === 0) continue;
    const found = new Set(p.valueSet.all(clause.folded).map((m) => p.values.get(m.phrase) ?? m.phrase));
    // An array of enum items takes every value the clause names, in the order named ("strength and weakness traits").
    if (p.info.type === 'array' && found.size > 0) set(p, [...found], 'turn', `A2 value ${p.info.name}`);
    else if (found.size === 1) set(p, [...found][0] as string, 'turn', `A2 value ${p.info.name}`);
  }

  // A route: "from New York to Los Angeles", "between X and Y", "de São Paulo para Curitiba" fill a start and an end place.
  const ends = placePair(tool.parameters.filter((p) => open(p) && isFreeText(p)));
  if (ends !== null) {
    const match = ROUTE.exec(clause.turn.slice(clause.start, clause.end));
    if (match !== null) {
      const first = (match[1] ?? match[3] ?? match[5] ?? match[7] ?? '').trim();
      const second = (match[2] ?? match[4] ?? match[6] ?? match[8] ?? '').trim();
      if (first.length > 0 && second.length > 0) {
        set(ends[0], first.replace(/^["'“]|["'”]$/g, ''), 'turn', `A3 route ${ends[0].info.name}`);
        set(ends[1], second.replace(/^["'“]|["'”]$/g, ''), 'turn', `A3 route ${ends[1].info.name}`);
        for (const v of inClause) if (v.kind === 'quoted' && (v.value === first.replace(/^["'“]|["'”]$/g, '') || v.value === second.replace(/^["'“]|["'”]$/g, ''))) filled.claimed.add(v);
      }
    }
  }

  // A numeric range: "from 1 to 50", "between 1871 and 1945", "de 10 a 20" fill the tool's one numeric
  // start/lower and end/upper pair, in the order typed.
  const bounds = numericPair(tool.parameters.filter((p) => open(p) && (p.info.type === 'integer' || p.info.type === 'number')));
  if (bounds !== null) {
    const numbers = inClause.filter((v) => !filled.claimed.has(v) && (v.kind === 'integer' || v.kind === 'decimal'));
    const ranges: [TurnValue, TurnValue][] = [];
    for (let i = 0; i + 1 < numbers.length; i++) {
      const a = numbers[i] as TurnValue;
      const b = numbers[i + 1] as TurnValue;
      const before = clause.folded.slice(Math.max(0, a.start - clause.start - 10), a.start - clause.start);
      const between = clause.folded.slice(a.end - clause.start, b.start - clause.start);
      if (RANGE_OPEN.test(before) && RANGE_JOIN.test(between)) ranges.push([a, b]);
    }
    if (ranges.length === 1) {
      const [a, b] = ranges[0] as [TurnValue, TurnValue];
      if (fits(bounds[0], a, name, rulebook) && fits(bounds[1], b, name, rulebook)) {
        filled.claimed.add(a);
        filled.claimed.add(b);
        set(bounds[0], convert(bounds[0], a), 'turn', `A3 range ${bounds[0].info.name}`);
        set(bounds[1], convert(bounds[1], b), 'turn', `A3 range ${bounds[1].info.name}`);
      }
    }
  }

  // A place: the one open free-text place parameter (location, city, …) takes the one capitalized name
  // after "in", "at" or "near" ("in Yellowstone National Park", "em São Paulo"); two names, no value.
  const places = tool.parameters.filter((p) => open(p) && isFreeText(p) && p.info.words.some((w) => PLACE_WORDS.has(w)));
  if (places.length === 1) {
    const text = clause.turn.slice(clause.start, clause.end);
    const names = new Set<string>();
    for (const m of text.matchAll(PLACE)) {
      // A sentence's full stop is no part of the place ("in New York."), an abbreviation's is ("D.C.").
      const name = (m[1] ?? '').replace(/^["'“]|["'”]$/g, '').trim().replace(/(\p{L}{2,})\.$/u, '$1');
      // "in German history": a name before a noun describes the noun, and is no place.
      const next = /^\s+([\p{Ll}]+)/u.exec(text.slice(m.index + m[0].length))?.[1];
      if (next !== undefined && !lang.stopwords.has(fold(next)) && !FREE_TEXT_STOP.test(` ${fold(next)}`)) {
        names.add('');
        names.add(name);
        continue;
      }
      if (name.length > 0 && !lang.stopwords.has(name.toLowerCase())) names.add(name);
      // "in Paris, London and Rome" is a list: no one place.
      if (PLACE_LIST.test(text.slice(m.index + m[0].length))) names.add(`${name} …`);
    }
    if (names.size === 1) set(places[0] as CompiledParameter, [...names][0] as string, 'turn', `A3 place ${(places[0] as CompiledParameter).info.name}`);
  }

  // By type: a parameter takes a value when that value is the only one that fits it and fits nothing else open.
  for (let changed = true; changed; ) {
    changed = false;
    // A number in words is taken only next to its unit or cue ("three days"), never as the one number of its type.
    const free = inClause.filter((v) => !filled.claimed.has(v) && v.kind !== 'spelled');
    const openParams = tool.parameters.filter((p) => open(p));
    for (const p of openParams) {
      // An identity ("order 4411") is taken only after its cue: a number alone may be a bound or a
      // count ("orders over 100", "the 3 largest orders"), and its type says nothing of which.
      if (identifies(p)) continue;
      const candidates = free.filter((v) => fits(p, v, name, rulebook));
      if (candidates.length !== 1) continue;
      const value = candidates[0] as TurnValue;
      if (openParams.filter((q) => fits(q, value, name, rulebook)).length !== 1) continue;
      filled.claimed.add(value);
      set(p, convert(p, value), 'turn', `A2 type ${p.info.name}`);
      changed = true;
      break;
    }
  }
  // A name: the one open free-text parameter takes the clause's one proper name no other argument took
  // ("news about Cristiano Ronaldo"); two names, or two such parameters, and neither is guessed. A name
  // after "in", "at" or "near" is a place, and only a place parameter takes it.
  const texts = tool.parameters.filter((p) => open(p) && isFreeText(p));
  if (texts.length === 1) {
    const p = texts[0] as CompiledParameter;
    const covered = inClause.map((v) => [v.start - clause.start, v.end - clause.start] as const).concat(clause.dates.map((d) => [d.start - clause.start, d.end - clause.start] as const));
    const typed = clause.turn.slice(clause.start, clause.end);
    const names = properNames(lang, tool, typed, filled.args, covered);
    const only = names.length === 1 ? (names[0] as ProperName) : null;
    const isPlace = p.info.words.some((w) => PLACE_WORDS.has(w));
    const afterPlaceWord = only !== null && /(?:^|\s)(?:in|at|near|em|no|na|perto de)\s+$/i.test(typed.slice(0, only.start));
    if (only !== null && (isPlace || !afterPlaceWord)) set(p, only.text, 'turn', `A2 name ${p.info.name}`);
  }

  // A place the description asks for with its state or country ("in the format of 'City, State'"):
  // a bare city is not what the tool takes, so the parameter stays open rather than half filled.
  for (const p of tool.parameters) {
    const value = filled.args[p.info.name];
    if (typeof value !== 'string' || !qualifiedPlace(p) || /,\s*\S/.test(value)) continue;
    delete filled.args[p.info.name];
    delete filled.sources[p.info.name];
    filled.rules.push(`A9 format ${p.info.name}`);
  }
  return filled;
}

const QUALIFIED_WORDS = /city,\s*(?:state|country|province)|city and (?:state|country)|state,\s*country|format of ['"][^'"]+,\s*[^'"]+['"]/;
const QUALIFIED_EXAMPLE = /\b(?:e\.g\.|such as|like|for example)[:,]?\s*['"]?(?:\p{Lu}[\p{L}.]*\s?)+,\s*\p{Lu}[\p{L}]+/u;

/** Whether a free-text parameter's description asks for a place with its state or country ("City, State"). */
export function qualifiedPlace(p: CompiledParameter): boolean {
  const description = p.info.schema.description ?? '';
  const place = p.info.words.some((w) => PLACE_WORDS.has(w) || ['loc', 'destination', 'origin', 'address', 'state'].includes(w)) || /\b(?:city|location|place|town)\b/i.test(description);
  return p.info.type === 'string' && place && (QUALIFIED_WORDS.test(description.toLowerCase()) || QUALIFIED_EXAMPLE.test(description));
}
