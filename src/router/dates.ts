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
  readonly grain: 'day' | 'part' | 'time' | 'week' | 'month';
}

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
  readonly relative: readonly { readonly pattern: RegExp; readonly sign: 1 | -1 }[];
  readonly part: RegExp;
  readonly time: readonly RegExp[];
  readonly dayKeys: ReadonlyMap<string, string>;
  readonly weekdayKeys: ReadonlyMap<string, number>;
  readonly partKeys: ReadonlyMap<string, string>;
  readonly spanKeys: ReadonlyMap<string, string>;
  readonly months: RegExp;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const PART_HOURS: Readonly<Record<string, readonly [number, number]>> = { morning: [6, 12], afternoon: [12, 18], evening: [18, 24] };
const DAY_SHIFT: Readonly<Record<string, number>> = { today: 0, tomorrow: 1, yesterday: -1, after_tomorrow: 2, before_yesterday: -2 };
const MONTH_WORDS = {
  en: 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec',
  'pt-BR': 'janeiro|fevereiro|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro|jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez',
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
  const relative = [
    ...(spans['in_days'] ?? []).map((phrase) => ({ pattern: bounded(escape(phrase).replace('\\{n\\}', '(\\d{1,3})')), sign: 1 as const })),
    ...(spans['ago_days'] ?? []).map((phrase) => ({ pattern: bounded(escape(phrase).replace('\\{n\\}', '(\\d{1,3})')), sign: -1 as const })),
  ];
  const time =
    language === 'en'
      ? [
          /(?<![a-z0-9:.])(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z0-9])/g,
          /(?<![a-z0-9:.])(?:at\s+)?([01]?\d|2[0-3]):([0-5]\d)(?![0-9:])/g,
          /(?<![a-z0-9:.])at\s+(\d{1,2})\s+o'?clock(?![a-z0-9])/g,
        ]
      : [
          /(?<![a-z0-9:.])(?:(?:as|a|ate)\s+)?([01]?\d|2[0-3])\s?h(?:([0-5]\d)(?:min)?)?(?![a-z0-9])/g,
          /(?<![a-z0-9:.])(?:(?:as|a|ate)\s+)?([01]?\d|2[0-3]):([0-5]\d)(?![0-9:])/g,
          /(?<![a-z0-9:.])(?:as|a)\s+(\d{1,2})(?:\s+horas)?(?:\s+(da manha|da tarde|da noite))?(?![a-z0-9])/g,
        ];
  return {
    language,
    day: bounded(alt([...dayKeys.keys()])),
    weekday: new RegExp(`(?<![a-z0-9])(?:(${modifier})\\s+)?(${weekdayAlt})(?:(?:\\s*-\\s*|\\s+)feira)?(?:\\s+(${modifier}))?(?![a-z0-9])`, 'g'),
    span: new RegExp(`(?<![a-z0-9])(?:(${modifier})\\s+(${unit})|(${unit})\\s+(${modifier}))(?![a-z0-9])`, 'g'),
    relative,
    part: bounded(alt([...partKeys.keys()])),
    time,
    dayKeys,
    weekdayKeys,
    partKeys,
    spanKeys,
    months: new RegExp(`(?<![a-z])(?:${MONTH_WORDS[language]})(?![a-z])|\\d{1,2}/\\d{1,2}|\\d{4}-\\d{2}-\\d{2}`),
  };
}

/**
 * Finds the date phrases of a folded turn and resolves them against the clock (or not, with none):
 * day words, weekdays, spans, day parts and times, joined where they are written together
 * ("tomorrow at 3pm", "quinta à tarde"), then explicit dates found by chrono.
 */
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

  for (const { pattern, sign } of grammar.relative) {
    for (const m of folded.matchAll(pattern)) {
      const from = today + sign * Number(m[1]) * DAY;
      add({ kind: 'day', start: m.index, end: m.index + m[0].length, from, to: from + DAY, grain: 'day' });
    }
  }
  for (const m of folded.matchAll(grammar.day)) {
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
    let delta = (target - current + 7) % 7;
    if (mod === 'next') delta = delta === 0 ? 7 : delta;
    if (mod === 'last') delta = -((current - target + 7) % 7 || 7);
    const from = today + delta * DAY;
    add({ kind: 'day', start: m.index, end: m.index + m[0].length, from, to: from + DAY, grain: 'day' });
  }
  if (grammar.months.test(folded)) for (const piece of chronoDates(folded, grammar, clock)) add(piece);
  for (const pattern of grammar.time) {
    for (const m of folded.matchAll(pattern)) {
      let hour = Number(m[1]);
      const minute = m[2] !== undefined && /^\d+$/.test(m[2]) ? Number(m[2]) : 0;
      const marker = (m[3] ?? (m[2] !== undefined && !/^\d+$/.test(m[2]) ? m[2] : '')) || '';
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
  return combine(folded, pieces, today, clock !== null);
}

const JOINERS = /^[\s,]*(?:at|on|in the|in|the|of|de|do|da|as|a|na|no|pela|pelo|em|,)?[\s,]*$/;

function combine(folded: string, pieces: readonly Piece[], today: number, resolved: boolean): DateMention[] {
  const mentions: DateMention[] = [];
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
    mentions.push({ start, end, from: resolved ? from : null, to: resolved ? to : null, grain });
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
