/** Filling a tool's arguments from one clause of a turn: context, dates, cues, enums, then types. */
import type { JsonValue } from '../core/index.js';
import type { HostClock } from './clock.js';
import type { CompiledLanguage, CompiledParameter, CompiledTool } from './compile.js';
import type { ClauseView, Filled } from './filled.js';
import type { ProperName } from './leftovers.js';
import { properNames } from './leftovers.js';
import { joinHyphens, NEGATIVE_MARKERS, POSITIVE_MARKERS, sameWord, SWITCH_WORDS } from './named-flags.js';
import { cityOnly, identifies, isFreeText, itemParameter, numericPair, PLACE_WORDS, placePair, qualifiedPlace } from './parameter-kinds.js';
import { placeDates } from './place-dates.js';
import type { Rulebook } from './rulebook.js';
import { contextKey } from './rulebook.js';
import { fold, stem, tokenize } from './text.js';
import type { ArgumentSource, RouterContext } from './types.js';
import type { TurnValue } from './values.js';
import { convert, fits } from './value-fit.js';

const FILLER = /^(?:\s|[:=#$€£¥]|\br\$|\bno\.?(?=\s)|\bnumber\b|\bnumero\b|\bn[º°o]\b|\bis\b|\bof\b|\bde\b|\bdo\b|\bda\b|\bcalled\b|\bnamed\b|\bchamad[oa]\b|\bfor\b|\bwith\b|\bbe\b|\bto\b|\bsera\b|\be\b(?=\s*[:"“'\d]))*/;
const LIST_JOIN = /^\s*(?:,|\band\b|\be\b|&|\bor\b|\bou\b)\s*(?:,|\band\b|\be\b)?\s*/;
const TRAILING_PREPOSITION = /(?:\s+(?:to|for|in|on|at|into|ao|aos|a|à|para|pra|no|na|em|do|da|de|the|o))+\s*$/iu;
const FREE_TEXT_STOP = /\s*(?:[,.;!?()]|\b(?:and|then|to it|to that|to them|for it|with|in|on|at|from|e|depois|nele|nela|para|pra|com|no|na|em)\b)/;

const NAME = `(?:"[^"]{1,60}"|'[^']{1,60}'|\\p{Lu}[\\p{L}.'’-]*(?:\\s+(?:(?:of|de|do|da|dos|das)\\s+)?\\p{Lu}[\\p{L}.'’-]*)*)`;
const ROUTE = new RegExp(
  `\\bfrom\\s+(${NAME})\\s+to\\s+(${NAME})|\\bbetween\\s+(${NAME})\\s+and\\s+(${NAME})|\\bde\\s+(${NAME})\\s+(?:para|a|até|ate)\\s+(${NAME})|\\bentre\\s+(${NAME})\\s+e\\s+(${NAME})`,
  'u',
);
const PLACE = new RegExp(`(?<![\\p{L}])(?:in|at|near|em|no|na|perto de)\\s+(${NAME}(?:,\\s*(?:\\p{Lu}{2}\\b|${NAME}))?)`, 'gu');
const PLACE_LIST = /^\s*(?:,|&|\band\b|\bor\b|\be\b|\bou\b)\s*["'“]?\p{Lu}/u;
const RANGE_OPEN = /\b(?:from|between|de|entre)\s+$/;
const RANGE_JOIN = /^\s*(?:to|and|through|-|a|ate|e)\s*$/;

/** Fills what the clause gives; what stays empty is the caller's to ask for. */
export function fillArguments(
  tool: CompiledTool,
  clause: ClauseView,
  lang: CompiledLanguage,
  rulebook: Rulebook,
  context: RouterContext,
  clock: HostClock | null,
): Filled {
  const filled: Filled = { args: {}, sources: {}, several: null, claimed: new Set(), rules: [], refused: [], placedDates: new Set() };
  const refuse = (p: CompiledParameter): void => {
    if (!filled.refused.includes(p.info.name)) filled.refused.push(p.info.name);
  };
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

  placeDates(tool, clause, lang, clock, filled, (p, value, rule) => set(p, value, 'turn', rule), refuse, open);

  const inClause = clause.values;
  const valueAt = (index: number): TurnValue | undefined => inClause.find((v) => v.start === index && !filled.claimed.has(v));
  /** The values typed as a list from `first` on ("3, 5 and 7"), each of the first's kind and accepted by `accepts`. */
  const listFrom = (first: TurnValue, accepts: (v: TurnValue) => boolean): TurnValue[] => {
    const list = [first];
    for (let value = first; ;) {
      const join = LIST_JOIN.exec(clause.turn.slice(value.end, clause.end).toLowerCase());
      if (join === null) break;
      const next = valueAt(value.end + join[0].length);
      if (next === undefined || next.kind !== value.kind || !accepts(next)) break;
      list.push(next);
      value = next;
    }
    return list;
  };

  for (const p of tool.parameters) {
    if (!open(p)) continue;
    for (const cue of p.cues.all(clause.folded)) {
      const after = clause.start + cue.end;
      const rest = clause.folded.slice(cue.end);
      const skip = FILLER.exec(rest)?.[0].length ?? 0;
      let at = after + skip;
      let value = valueAt(at);
      // An array takes the whole list typed after its cue ("numbers 3, 5 and 7"), each item fitting the items' type.
      const item = itemParameter(p);
      if (item !== null && value !== undefined && fits(item, value, name, rulebook)) {
        const list = listFrom(value, (v) => fits(item, v, name, rulebook));
        for (const v of list) filled.claimed.add(v);
        set(p, list.map((v) => convert(item, v)), 'turn', `A1 cue ${p.info.name}`);
        break;
      }
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
      if ((p.info.enumValues !== null || p.values.size > 0) && p.info.type !== 'array') {
        const word = p.valueSet.all(rest.slice(skip))[0];
        if (word !== undefined && word.start === 0) {
          // "cuisine italian, mexican and thai" for one value: no one of them is the value.
          if (LIST_JOIN.test(rest.slice(skip + word.end)) && /^\s*(?:,|\band\b|\be\b|\bor\b|\bou\b|&)\s*[\p{L}]/u.test(rest.slice(skip + word.end))) refuse(p);
          else set(p, p.values.get(word.phrase) ?? word.phrase, 'turn', `A1 cue ${p.info.name}`);
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
  const tokens = tokenize(joinHyphens(clause.folded));
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
    // "in Kelvin" for a unit that is C or F: the turn asks for a value the tool does not take.
    if (p.outsiders.test(clause.folded.slice(clause.start, clause.end))) {
      refuse(p);
      continue;
    }
    if (!open(p) || p.values.size === 0) continue;
    const matches = p.valueSet.all(clause.folded);
    const found = new Set(matches.map((m) => p.values.get(m.phrase) ?? m.phrase));
    // An array of enum items takes every value the clause names, in the order named ("strength and weakness traits"),
    // but only when the list holds nothing else: "italian, greek and thai" with no greek is no list of cuisines.
    if (p.info.type === 'array' && found.size > 0) {
      if (wholeList(clause.folded, matches, lang.stopwords)) set(p, [...found], 'turn', `A2 value ${p.info.name}`);
      else refuse(p);
    } else if (found.size === 1) set(p, [...found][0] as string, 'turn', `A2 value ${p.info.name}`);
    else if (found.size > 1) refuse(p);
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
    const place = places[0] as CompiledParameter;
    if (names.size === 1) set(place, cityOnly(place, [...names][0] as string), 'turn', `A3 place ${place.info.name}`);
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

const ITEM_JOIN = /^(?:\s*(?:,|;|&|\band\b|\bor\b|\be\b|\bou\b))+\s*$/;
const JOIN_BEFORE = /([\p{L}]+)\s*(?:,|&|\band\b|\bor\b|\be\b|\bou\b)\s*$/u;
const JOIN_AFTER = /^\s*(?:,|&|\band\b|\bor\b|\be\b|\bou\b)\s*(?:(?:and|e)\s+)?([\p{L}]+)/u;

/** Whether the enum values matched in a clause make a whole list: joined by commas and "and", no other item typed among, before or after them. */
function wholeList(folded: string, matches: readonly { start: number; end: number }[], stopwords: ReadonlySet<string>): boolean {
  for (let i = 1; i < matches.length; i++) {
    const gap = folded.slice((matches[i - 1] as { end: number }).end, (matches[i] as { start: number }).start);
    if (gap.trim().length > 0 && !ITEM_JOIN.test(gap)) return false;
  }
  const first = matches[0];
  const last = matches[matches.length - 1];
  if (first === undefined || last === undefined) return false;
  const before = JOIN_BEFORE.exec(folded.slice(Math.max(0, first.start - 40), first.start))?.[1];
  const after = JOIN_AFTER.exec(folded.slice(last.end, last.end + 40))?.[1];
  return (before === undefined || stopwords.has(before)) && (after === undefined || stopwords.has(after));
}
