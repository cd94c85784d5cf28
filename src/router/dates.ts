import * as chrono from 'chrono-node';
import type { HostClock } from './clock.js';
import { addMonths, DAY, HOUR, isoWeekday, startOfDay } from './clock.js';
import type { Language } from './types.js';
import type { LanguageWords } from './vocabulary-types.js';

/** A date phrase found in a turn and the period it names, in the host's local time. */
export interface DateMention {
  readonly start: number;
  readonly end: number;
  /** Start and end of the period (end exclusive), local milliseconds; null where no clock was given. */
  readonly from: number | null;
  readonly to: number | null;
  readonly grain: 'day' | 'part' | 'time' | 'week' | 'month' | 'range';
  /** For a range that spells both ends ("from March 1 to March 5", "de segunda até sexta"): each end as written. */
  readonly ends?: readonly [DateEnd, DateEnd];
}

/** One written end of a range. */
export type DateEnd = Omit<DateMention, 'ends'>;

type Piece =
  | { kind: 'day'; start: number; end: number; from: number; to: number; grain: 'day' | 'week' | 'month' }
  | { kind: 'part'; start: number; end: number; fromHour: number; toHour: number }
  | { kind: 'time'; start: number; end: number; hour: number; minute: number };

/** The compiled date grammar of one language (built once per router). */
export interface DateGrammar {
  readonly language: Language;
  readonly day: RegExp;
  readonly weekday: RegExp;
  readonly span: RegExp;
  readonly relative: { readonly pattern: RegExp; readonly kinds: readonly { readonly sign: 1 | -1; readonly unit: 'day' | 'week' | 'month' }[] } | null;
  /** pt `dia 12`: that day of this month, or of the next where it is past. */
  readonly dayOfMonth: RegExp | null;
  readonly part: RegExp;
  readonly time: readonly RegExp[];
  readonly dayKeys: ReadonlyMap<string, string>;
  readonly weekdayKeys: ReadonlyMap<string, number>;
  readonly partKeys: ReadonlyMap<string, string>;
  readonly spanKeys: ReadonlyMap<string, string>;
  readonly months: RegExp;
  /** A day named with its month ("December 9th", "the 9th of December", "dia 9 de dezembro"): groups d, mo, y. */
  readonly monthDates: readonly RegExp[];
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const PART_HOURS: Readonly<Record<string, readonly [number, number]>> = { morning: [6, 12], afternoon: [12, 18], evening: [18, 24] };
const DAY_SHIFT: Readonly<Record<string, number>> = { today: 0, tomorrow: 1, yesterday: -1, after_tomorrow: 2, before_yesterday: -2 };
const MONTH_WORDS = {
  en: 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec',
  'pt-BR': 'janeiro|fevereiro|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro|jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez',
};

/** Month words to month index (0 = January), abbreviations included. */
const MONTH_INDEX: Readonly<Record<string, number>> = Object.fromEntries(
  Object.values(MONTH_WORDS).flatMap((list) =>
    list.split('|').map((word) => {
      const stem = word.slice(0, 3);
      const index = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(stem);
      const pt = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'].indexOf(stem);
      return [word, index >= 0 ? index : pt] as const;
    }),
  ),
);

const PT_HOUR_WORDS = 'uma|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze';
const PT_MINUTE_WORDS = 'meia|quinze|trinta|quarenta e cinco|dez|vinte|cinco|vinte e cinco|trinta e cinco|quarenta|cinquenta';
const SMALL_NUMBERS: Readonly<Record<string, number>> = {
  uma: 1, um: 1, duas: 2, dois: 2, tres: 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9, dez: 10, onze: 11, doze: 12,
  quinze: 15, vinte: 20, trinta: 30, quarenta: 40, cinquenta: 50, meia: 30, 'vinte e cinco': 25, 'trinta e cinco': 35, 'quarenta e cinco': 45,
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, a: 1, an: 1,
};
const wordNumber = (text: string | undefined): number | null => {
  if (text === undefined) return null;
  const clean = text.replace(/\s+/g, ' ');
  if (/^\d+$/.test(clean)) return Number(clean);
  return SMALL_NUMBERS[clean] ?? null;
};

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
const alt = (phrases: readonly string[]): string => phrases.map(escape).join('|') || '(?!)';
const bounded = (body: string): RegExp => new RegExp(`(?<![a-z0-9])(?:${body})(?![a-z0-9])`, 'g');

export function compileDateGrammar(language: Language, words: LanguageWords): DateGrammar {
  const keyed = (record: Readonly<Record<string, readonly string[]>>): Map<string, string> => {
    const map = new Map<string, string>();
    for (const [key, phrases] of Object.entries(record)) for (const phrase of phrases) if (!map.has(phrase)) map.set(phrase, key);
    return map;
  };
  const dayKeys = keyed(words.days);
  const partKeys = keyed(words.dayParts);
  const weekdayKeys = new Map<string, number>();
  for (const [key, phrases] of Object.entries(words.weekdays)) {
    const index = WEEKDAYS.indexOf(key);
    if (index >= 0) for (const phrase of phrases) weekdayKeys.set(phrase, index);
  }
  const spans = words.spans;
  const spanKeys = new Map<string, string>();
  for (const key of ['this', 'next', 'last', 'week', 'month', 'day']) for (const phrase of spans[key] ?? []) if (!spanKeys.has(phrase)) spanKeys.set(phrase, key);
  const modifier = alt([...(spans['this'] ?? []), ...(spans['next'] ?? []), ...(spans['last'] ?? [])].sort((a, b) => b.length - a.length));
  const unit = alt([...(spans['week'] ?? []), ...(spans['month'] ?? []), ...(spans['day'] ?? [])]);
  const weekdayAlt = alt([...weekdayKeys.keys()].sort((a, b) => b.length - a.length));
  const number = `(\\d{1,3}|${Object.keys(SMALL_NUMBERS).join('|')})`;
  // All relative phrases in one pattern: group i+1 holds the number of phrase i.
  const relativeKinds: { sign: 1 | -1; unit: 'day' | 'week' | 'month' }[] = [];
  const relativeBodies: string[] = [];
  for (const [key, sign, unit] of [['in_days', 1, 'day'], ['ago_days', -1, 'day'], ['in_weeks', 1, 'week'], ['ago_weeks', -1, 'week'], ['in_months', 1, 'month'], ['ago_months', -1, 'month']] as const) {
    for (const phrase of (spans[key] ?? []).filter((p) => p.split('{n}').length === 2)) {
      relativeKinds.push({ sign, unit });
      relativeBodies.push(escape(phrase).replace('\\{n\\}', number));
    }
  }
  const relative = relativeBodies.length === 0 ? null : { pattern: bounded(relativeBodies.join('|')), kinds: relativeKinds };
  // Times: named groups h (hour: digits or a word), m (minutes), mk (am/pm or a day part that sets the half of the day).
  const time =
    language === 'en'
      ? [
          /(?<![a-z0-9:.])(?:at\s+)?(?<h>\d{1,2})(?::(?<m>\d{2}))?\s*(?<mk>am|pm|a\.m\.|p\.m\.)(?![a-z0-9])/g,
          /(?<![a-z0-9:.])(?:at\s+)?(?<h>[01]?\d|2[0-3]):(?<m>[0-5]\d)(?![0-9:])/g,
          /(?<![a-z0-9:.])at\s+(?<h>\d{1,2})\s+o'?clock(?![a-z0-9])/g,
          /(?<![a-z0-9])(?:at\s+)?(?<h>noon|midday|midnight)(?![a-z0-9])/g,
        ]
      : [
          /(?<![a-z0-9:.])(?:(?:as|a|ate)\s+)?(?<h>[01]?\d|2[0-3])\s?h(?:(?<m>[0-5]\d)(?:min)?)?(?![a-z0-9])/g,
          /(?<![a-z0-9:.])(?:(?:as|a|ate)\s+)?(?<h>[01]?\d|2[0-3]):(?<m>[0-5]\d)(?![0-9:])/g,
          /(?<![a-z0-9:.])(?:as\s+)?(?<h>\d{1,2})(?::(?<m>\d{2}))?\s*(?<mk>am|pm)(?![a-z0-9])/g,
          new RegExp(`(?<![a-z0-9:.])(?:as\\s+(?<h>\\d{1,2}|${PT_HOUR_WORDS})|(?<h2>\\d{1,2}|${PT_HOUR_WORDS})\\s+horas|(?<h3>${PT_HOUR_WORDS})\\s+e\\s+(?<mw>${PT_MINUTE_WORDS}))(?:\\s+horas)?(?:\\s+e\\s+(?<mw2>${PT_MINUTE_WORDS}))?(?:\\s+(?<mk>da manha|da tarde|da noite|am|pm))?(?![a-z0-9])`, 'g'),
          /(?<![a-z0-9])(?:ao\s+|as\s+|a\s+)?(?<h>meio[\s-]dia|meia[\s-]noite)(?![a-z0-9])/g,
        ];
  return {
    language,
    day: bounded(alt([...dayKeys.keys()])),
    weekday: new RegExp(`(?<![a-z0-9])(?:(${modifier})\\s+)?(${weekdayAlt})(?:(?:\\s*-\\s*|\\s+)feira)?(?:\\s+(${modifier}))?(?:,?\\s+(?:dia\\s+)?(\\d{1,2})(?![0-9/:.,h]|\\s*(?:am|pm|horas)))?(?![a-z0-9])`, 'g'),
    span: new RegExp(`(?<![a-z0-9])(?:(${modifier})\\s+(${unit})|(${unit})\\s+(${modifier}))(?![a-z0-9])`, 'g'),
    relative,
    dayOfMonth: language === 'pt-BR' ? /(?<![a-z0-9])(?:no\s+)?dia\s+(\d{1,2})(?![0-9/:.,h])/g : null,
    part: bounded(alt([...partKeys.keys()])),
    time,
    dayKeys,
    weekdayKeys,
    partKeys,
    spanKeys,
    monthDates: monthDatePatterns(language),
    months: new RegExp(`(?<![a-z])(?:${MONTH_WORDS[language]})(?![a-z])|\\d{1,2}/\\d{1,2}|\\d{4}-\\d{2}-\\d{2}`),
  };
}

/**
 * Days written with their month, read by the router itself before chrono: chrono takes "December 9 in
 * the afternoon" for 9pm today, and the pt `dia 12` rule would take the "dia 9" of "dia 9 de dezembro".
 */
function monthDatePatterns(language: Language): RegExp[] {
  const month = `(?<mo>${MONTH_WORDS[language]})\\.?`;
  const day = '(?<d>[012]?\\d|3[01])';
  const end = '(?![0-9a-z:/])';
  if (language === 'en') {
    const year = '(?:,?\\s+(?<y>\\d{4}))?';
    return [
      new RegExp(`(?<![a-z0-9])${month}\\s+(?:the\\s+)?${day}(?:st|nd|rd|th)?${year}${end}`, 'g'),
      new RegExp(`(?<![a-z0-9])(?:the\\s+)?${day}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${month}${year}${end}`, 'g'),
    ];
  }
  return [new RegExp(`(?<![a-z0-9])(?:(?:no\\s+)?dia\\s+)?${day}(?:o|\\s+)?\\s*de\\s+${month}(?:\\s+de\\s+(?<y>\\d{4}))?${end}`, 'g')];
}

/**
 * Finds the date phrases of a folded turn and resolves them against the clock (or not, with none):
 * day words, weekdays, spans, day parts and times, joined where they are written together
 * ("tomorrow at 3pm", "quinta à tarde"), then explicit dates found by chrono.
 */
function shiftMonths(local: number, months: number): number {
  const date = new Date(local);
  const target = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
  const last = new Date(Date.UTC(new Date(target).getUTCFullYear(), new Date(target).getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(new Date(target).getUTCFullYear(), new Date(target).getUTCMonth(), Math.min(date.getUTCDate(), last));
}

export function findDates(folded: string, grammar: DateGrammar, clock: HostClock | null): DateMention[] {
  const today = clock === null ? 0 : startOfDay(clock.local);
  const pieces: Piece[] = [];
  const taken: [number, number][] = [];
  const free = (start: number, end: number): boolean => taken.every(([s, e]) => end <= s || start >= e);
  const add = (piece: Piece): void => {
    if (!free(piece.start, piece.end)) return;
    taken.push([piece.start, piece.end]);
    pieces.push(piece);
  };
  const spanOf = (key: string | undefined): string | undefined => (key === undefined ? undefined : grammar.spanKeys.get(key.replace(/\s+/g, ' ')));

  for (const m of grammar.relative === null ? [] : folded.matchAll(grammar.relative.pattern)) {
    {
      const at = m.findIndex((group, index) => index > 0 && group !== undefined);
      const kind = grammar.relative?.kinds[at - 1];
      const n = wordNumber(m[at]);
      if (n === null || kind === undefined) continue;
      const { sign, unit } = kind;
      const from = unit === 'month' ? shiftMonths(today, sign * n) : today + sign * n * (unit === 'week' ? 7 : 1) * DAY;
      add({ kind: 'day', start: m.index, end: m.index + m[0].length, from, to: from + DAY, grain: 'day' });
    }
  }
  for (const pattern of grammar.monthDates) {
    for (const m of folded.matchAll(pattern)) {
      const g = m.groups ?? {};
      const month = MONTH_INDEX[g['mo'] ?? ''];
      const day = Number(g['d']);
      const year = g['y'] !== undefined ? Number(g['y']) : new Date(today).getUTCFullYear();
      if (month === undefined) continue;
      const from = Date.UTC(year, month, day);
      if (day < 1 || new Date(from).getUTCDate() !== day) continue;
      add({ kind: 'day', start: m.index, end: m.index + m[0].length, from, to: from + DAY, grain: 'day' });
    }
  }
  if (grammar.dayOfMonth !== null) {
    for (const m of folded.matchAll(grammar.dayOfMonth)) {
      const day = Number(m[1]);
      if (day < 1 || day > 31) continue;
      const date = new Date(today);
      let from = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), day);
      if (from < today) from = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, day);
      add({ kind: 'day', start: m.index, end: m.index + m[0].length, from, to: from + DAY, grain: 'day' });
    }
  }
  for (const m of folded.matchAll(grammar.day)) {
    // A word that is a day and a day part ("tonight") is the day part, of today.
    if (grammar.partKeys.has(m[0].replace(/\s+/g, ' '))) continue;
    const shift = DAY_SHIFT[grammar.dayKeys.get(m[0].replace(/\s+/g, ' ')) ?? ''] ?? 0;
    const from = today + shift * DAY;
    add({ kind: 'day', start: m.index, end: m.index + m[0].length, from, to: from + DAY, grain: 'day' });
  }
  for (const m of folded.matchAll(grammar.span)) {
    const mod = spanOf(m[1] ?? m[4]);
    const unit = spanOf(m[2] ?? m[3]);
    const step = mod === 'next' ? 1 : mod === 'last' ? -1 : 0;
    let from = today;
    let to = today + DAY;
    let grain: 'day' | 'week' | 'month' = 'day';
    if (unit === 'week') {
      from = today - isoWeekday(today) * DAY + step * 7 * DAY;
      to = from + 7 * DAY;
      grain = 'week';
    } else if (unit === 'month') {
      from = addMonths(today, step);
      to = addMonths(today, step + 1);
      grain = 'month';
    } else {
      from = today + step * DAY;
      to = from + DAY;
    }
    add({ kind: 'day', start: m.index, end: m.index + m[0].length, from, to, grain });
  }
  for (const m of folded.matchAll(grammar.weekday)) {
    const target = grammar.weekdayKeys.get(m[2] ?? '') ?? 0;
    const mod = spanOf(m[1] ?? m[3]);
    const current = isoWeekday(today);
    if (m[4] !== undefined) {
      // "sexta-feira 13": the nearest day numbered so that falls on that weekday, looking forward a year.
      const dayNumber = Number(m[4]);
      const date = new Date(today);
      for (let k = 0; k < 13; k++) {
        const candidate = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + k, dayNumber);
        if (new Date(candidate).getUTCDate() === dayNumber && candidate >= today - 31 * DAY && isoWeekday(candidate) === target) {
          add({ kind: 'day', start: m.index, end: m.index + m[0].length, from: candidate, to: candidate + DAY, grain: 'day' });
          break;
        }
      }
      continue;
    }
    let delta = (target - current + 7) % 7;
    if (mod === 'next') delta = delta === 0 ? 7 : delta;
    if (mod === 'last') delta = -((current - target + 7) % 7 || 7);
    const from = today + delta * DAY;
    add({ kind: 'day', start: m.index, end: m.index + m[0].length, from, to: from + DAY, grain: 'day' });
  }
  if (grammar.months.test(folded)) for (const piece of chronoDates(folded, grammar, clock)) add(piece);
  for (const pattern of grammar.time) {
    for (const m of folded.matchAll(pattern)) {
      const g = m.groups ?? {};
      const hourText = (g['h'] ?? g['h2'] ?? g['h3'] ?? '').replace(/[\s-]+/g, ' ');
      let hour = hourText === 'meio dia' || hourText === 'noon' || hourText === 'midday' ? 12 : hourText === 'meia noite' || hourText === 'midnight' ? 0 : wordNumber(hourText);
      if (hour === null) continue;
      const minute = g['m'] !== undefined ? Number(g['m']) : (wordNumber(g['mw'] ?? g['mw2']) ?? 0);
      const marker = g['mk'] ?? '';
      if (/^p/.test(marker) || marker === 'da tarde' || marker === 'da noite') hour = hour < 12 ? hour + 12 : hour;
      if (/^a/.test(marker) && hour === 12) hour = 0;
      if (hour > 23 || minute > 59) continue;
      add({ kind: 'time', start: m.index, end: m.index + m[0].length, hour, minute });
    }
  }
  for (const m of folded.matchAll(grammar.part)) {
    const hours = PART_HOURS[grammar.partKeys.get(m[0].replace(/\s+/g, ' ')) ?? ''];
    if (hours !== undefined) add({ kind: 'part', start: m.index, end: m.index + m[0].length, fromHour: hours[0], toHour: hours[1] });
  }

  pieces.sort((a, b) => a.start - b.start);
  return anchorTimes(folded, ranges(folded, combine(folded, pieces, today, clock !== null), today), today).map(({ named: _named, ...mention }) => mention);
}

const JOINERS = /^[\s,]*(?:at|on|in the|in|during the|during|the|of|de|do|da|as|a|na|no|pela|pelo|em|durante a|durante o|durante|,)?[\s,]*$/;

const RANGE_GAP = /^\s*(?:ate|as|a|e|to|until|till|through|and|-|–)\s*(?:o|a|as|the)?\s*$/;
/** A gap that makes a range with no opening word: "9am until 5pm", "Monday through Friday", "segunda até sexta". */
const RANGE_CLOSE = /^\s*(?:ate|until|till|through|-|–)\s*(?:o|a|as|the)?\s*$/;
const RANGE_OPEN = /(?:^|\s)(?:de|do|da|das|dos|desde|entre|from|between)\s*(?:o|a|as|the)?\s*$/;
/** The word before a pt time is read with it ("às 17h"): as a gap, it is the range's own. */
const TIME_LEAD = /^(?:as|a|ate)\s+/;

/** "de ontem até hoje", "entre 1 de dezembro e 4 de fevereiro", "from Monday to Friday": one period, first start to last end. */
/** Where one end of a range names its day and the other is a bare time or day part, both are on that day. */
function dayOf(mention: Found): number | null {
  return mention.named && mention.from !== null && (mention.grain === 'day' || mention.grain === 'part' || mention.grain === 'time') ? startOfDay(mention.from) : null;
}

function ranges(folded: string, mentions: readonly Found[], today: number): Found[] {
  const out: Found[] = [];
  for (let i = 0; i < mentions.length; i++) {
    const first = mentions[i] as Found;
    const second = mentions[i + 1];
    const lead = second === undefined || second.grain !== 'time' ? null : TIME_LEAD.exec(folded.slice(second.start, second.end));
    const gap = second === undefined ? '' : folded.slice(first.end, second.start) + (lead?.[0] ?? '');
    const before = folded.slice(Math.max(0, first.start - 12), first.start);
    const open = RANGE_OPEN.exec(before);
    if (second !== undefined && RANGE_GAP.test(gap) && (open !== null || RANGE_CLOSE.test(gap))) {
      const start = open === null ? first.start : first.start - open[0].trimStart().length;
      // "from 3pm to 5pm" ends at 5pm; "from Monday to Friday" at the end of Friday.
      let to = second.grain === 'time' ? second.from : second.to;
      let from = first.from;
      // "das 15h às 17h de amanhã": the bare end takes the other's day; a week or month gives none.
      const mixed = first.named !== second.named && from !== null && to !== null;
      const day = first.named ? dayOf(first) : dayOf(second);
      if (mixed && day !== null && from !== null && to !== null) {
        if (first.named) to += day - today;
        else from += day - today;
      }
      if ((!mixed || day !== null) && (from === null || to === null || to > from)) {
        const end = (m: Found): DateEnd => ({ start: m.start, end: m.end, from: m.from, to: m.to, grain: m.grain });
        out.push({ start, end: second.end, from, to, grain: 'range', named: first.named || second.named, ...(mixed ? {} : { ends: [end(first), end(second)] as const }) });
        i++;
        continue;
      }
    }
    out.push(first);
  }
  return out;
}

/** A mention and whether a day is written in it (not so for a bare time or day part, read on today). */
type Found = DateMention & { readonly named: boolean };

/**
 * A range of times written after a day ("tomorrow from 3pm to 5pm", "amanhã das 15h às 17h") is on
 * that day, not today: the two become one mention.
 */
function anchorTimes(folded: string, mentions: readonly Found[], today: number): Found[] {
  const out: Found[] = [];
  for (let i = 0; i < mentions.length; i++) {
    const day = mentions[i] as Found;
    const times = mentions[i + 1];
    if (times !== undefined && day.named && day.grain === 'day' && times.grain === 'range' && !times.named && /^[\s,]*$/.test(folded.slice(day.end, times.start))) {
      const shift = day.from === null ? 0 : day.from - today;
      const from = times.from === null ? null : times.from + shift;
      const to = times.to === null ? null : times.to + shift;
      out.push({ start: day.start, end: times.end, from, to, grain: 'range', named: true });
      i++;
      continue;
    }
    out.push(day);
  }
  return out;
}

function combine(folded: string, pieces: readonly Piece[], today: number, resolved: boolean): Found[] {
  const mentions: Found[] = [];
  let group: Piece[] = [];
  const flush = (): void => {
    if (group.length === 0) return;
    const day = group.find((p) => p.kind === 'day');
    const part = group.find((p) => p.kind === 'part');
    const time = group.find((p) => p.kind === 'time');
    let from = day?.kind === 'day' ? day.from : today;
    let to = day?.kind === 'day' ? day.to : today + DAY;
    let grain: DateMention['grain'] = day?.kind === 'day' ? day.grain : 'day';
    const base = day?.kind === 'day' && day.grain === 'day' ? day.from : day === undefined ? today : null;
    if (time?.kind === 'time' && base !== null) {
      let hour = time.hour;
      if (part?.kind === 'part' && part.fromHour >= 12 && hour < 12) hour += 12;
      from = base + hour * HOUR + time.minute * 60_000;
      to = from + HOUR;
      grain = 'time';
    } else if (part?.kind === 'part' && base !== null) {
      from = base + part.fromHour * HOUR;
      to = base + part.toHour * HOUR;
      grain = 'part';
    }
    const start = Math.min(...group.map((p) => p.start));
    const end = Math.max(...group.map((p) => p.end));
    mentions.push({ start, end, from: resolved ? from : null, to: resolved ? to : null, grain, named: day !== undefined });
    group = [];
  };
  for (const piece of pieces) {
    const last = group[group.length - 1];
    const joinable =
      last !== undefined &&
      JOINERS.test(folded.slice(last.end, piece.start)) &&
      !group.some((p) => p.kind === piece.kind);
    if (!joinable) flush();
    group.push(piece);
  }
  flush();
  return mentions;
}

function chronoDates(folded: string, grammar: DateGrammar, clock: HostClock | null): Piece[] {
  const parser = grammar.language === 'en' ? chrono.en.casual : chrono.pt.casual;
  const instant = clock === null ? new Date(Date.UTC(2000, 0, 1)) : new Date(clock.local - clock.offsetMinutes * 60_000);
  const results = parser.parse(folded, { instant, timezone: clock?.offsetMinutes ?? 0 }, { forwardDate: false });
  const pieces: Piece[] = [];
  for (const result of results) {
    const start = result.start;
    if (!start.isCertain('month') || (!start.isCertain('day') && !start.isCertain('year'))) continue;
    const year = start.get('year') ?? 2000;
    const month = (start.get('month') ?? 1) - 1;
    const begin = result.index;
    let end = result.index + result.text.length;
    // The time in chrono's phrase is read by the router's own time rules, so the date stops before it.
    for (const pattern of grammar.time) {
      for (const m of result.text.matchAll(pattern)) if (m.index > 0) end = Math.min(end, begin + m.index);
    }
    // So is a day part ("December 9 in the afternoon"): the router joins it to the date itself.
    for (const m of result.text.matchAll(grammar.part)) if (m.index > 0) end = Math.min(end, begin + result.text.slice(0, m.index).trimEnd().replace(/\s+(?:in the|in|on the|on|at|a|de|da|do|na|no|pela|pelo)$/, '').length);
    if (start.isCertain('day')) {
      const from = Date.UTC(year, month, start.get('day') ?? 1);
      const to = result.end?.isCertain('day') ? Date.UTC(result.end.get('year') ?? year, (result.end.get('month') ?? month + 1) - 1, result.end.get('day') ?? 1) + DAY : from + DAY;
      pieces.push({ kind: 'day', start: begin, end, from, to, grain: 'day' });
    } else {
      pieces.push({ kind: 'day', start: begin, end, from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1), grain: 'month' });
    }
  }
  return pieces;
}
