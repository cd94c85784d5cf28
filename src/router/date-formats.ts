/**
 * The format a date parameter names ("format YYYY-MM-DD", "MM/DD/YYYY", "in the format of 'dd-mm'",
 * "'%Y-%m-%d'", a JSON Schema `format: date`) and a day written into it. A day goes into such a
 * parameter only in that format: converted when the day it names is certain, never passed as typed.
 */
import type { CompiledParameter } from './compile.js';
import { fold } from './text.js';

type Token = 'YYYY' | 'YY' | 'MM' | 'M' | 'DD' | 'D';

/** A day format: its tokens and the separators between them. */
export interface DayFormat {
  readonly tokens: readonly Token[];
  readonly separators: readonly string[];
}

export interface Day {
  readonly year: number | null;
  /** 1–12. */
  readonly month: number;
  readonly day: number;
}

const ISO: DayFormat = { tokens: ['YYYY', 'MM', 'DD'], separators: ['-', '-'] };
const PART = '(?:yyyy|aaaa|yy|aa|mm|dd|m|d)';
const WRITTEN = new RegExp(`(?<![a-z%])(${PART})([-/. ])(${PART})(?:\\2(${PART}))?(?![a-z])`, 'i');
const STRFTIME = /%([Yymd])([-/. ])%([Yymd])(?:\2%([Yymd]))?/;
/** A time after the day in the named format ("YYYY-MM-DD HH:MM"): a format with a time is not a day's. */
const WITH_TIME = /(?:hh|HH|%H)\s*:/;

function token(part: string): Token {
  switch (part.toLowerCase()) {
    case 'yyyy': case 'aaaa': case 'y': return 'YYYY';
    case 'yy': case 'aa': return 'YY';
    case 'mm': return 'MM';
    case 'm': return 'M';
    case 'dd': return 'DD';
    default: return 'D';
  }
}

/**
 * The day format a parameter names: in its description, else ISO for a JSON Schema `format: date`;
 * `'time'` where the description names a format with a time (a day alone does not fill it); null where it names none.
 */
export function dayFormat(p: CompiledParameter): DayFormat | 'time' | null {
  const description = p.info.schema.description ?? '';
  const strftime = STRFTIME.exec(description);
  const written = strftime === null ? WRITTEN.exec(description) : null;
  const match = strftime ?? written;
  if (match !== null) {
    const parts = [match[1], match[3], match[4]].filter((x): x is string => x !== undefined);
    // %m is the month and %d the day; a written m or mm is the month too ("dd-mm").
    const tokens = parts.map((x) => (strftime !== null ? ({ Y: 'YYYY', y: 'YY', m: 'MM', d: 'DD' } as const)[x as 'Y' | 'y' | 'm' | 'd'] : token(x)));
    const has = (kinds: readonly Token[]): boolean => tokens.some((t) => kinds.includes(t));
    if (has(['MM', 'M']) && has(['DD', 'D']) && new Set(tokens).size === tokens.length) {
      if (WITH_TIME.test(description.slice(match.index))) return 'time';
      return { tokens, separators: parts.slice(1).map(() => match[2] ?? '-') };
    }
  }
  return p.info.format === 'date' ? ISO : null;
}

/** A day in a format, or null where the format asks for a year the day does not have. */
export function writeDay(format: DayFormat, day: Day): string | null {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const out: string[] = [];
  for (const t of format.tokens) {
    if ((t === 'YYYY' || t === 'YY') && day.year === null) return null;
    const year = day.year ?? 0;
    out.push(t === 'YYYY' ? String(year) : t === 'YY' ? pad(year % 100) : t === 'MM' ? pad(day.month) : t === 'M' ? String(day.month) : t === 'DD' ? pad(day.day) : String(day.day));
  }
  return out.reduce((text, part, i) => (i === 0 ? part : `${text}${format.separators[i - 1] ?? '-'}${part}`), '');
}

/** The day a local time (ms) falls on. */
export function dayAt(local: number): Day {
  const date = new Date(local);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

const MONTHS: Readonly<Record<string, number>> = {
  january: 1, february: 2, march: 3, april: 4, may: 5, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
  jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  janeiro: 1, fevereiro: 2, marco: 3, abril: 4, maio: 5, junho: 6, julho: 7, agosto: 8, setembro: 9, outubro: 10, novembro: 11, dezembro: 12,
  fev: 2, abr: 4, mai: 5, ago: 8, set: 9, out: 10, dez: 12,
};
const MONTH = `(${Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|')})\\.?`;
const ISO_TYPED = /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/;
const NUMERIC = /(?<!\d)(\d{1,2})[-/.](\d{1,2})(?:[-/.](\d{4}|\d{2}))?(?![\d/.-])/;
const MONTH_FIRST = new RegExp(`(?<![a-z])${MONTH}\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?(?![a-z0-9])`);
const DAY_FIRST = new RegExp(`(?<![a-z0-9])(\\d{1,2})(?:st|nd|rd|th|o|º)?\\s+(?:of\\s+|de\\s+)?${MONTH}(?:,?\\s+(?:de\\s+)?(\\d{4}))?(?![a-z0-9])`);

/**
 * The day a date phrase names as typed, without a clock: "2023-03-01", "March 1st 2023", "1 de março",
 * "12/25". Day and month written in figures are read month first in English and day first in
 * Portuguese only where the figures cannot be read the other way ("03/04/2023" in English: null).
 */
export function typedDay(text: string, language: 'en' | 'pt-BR'): Day | null {
  const folded = fold(text);
  const valid = (year: number | null, month: number, day: number): Day | null => {
    if (month < 1 || month > 12 || day < 1) return null;
    const last = new Date(Date.UTC(year ?? 2000, month, 0)).getUTCDate();
    return day > last ? null : { year, month, day };
  };
  const iso = ISO_TYPED.exec(folded);
  if (iso !== null) return valid(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const numeric = NUMERIC.exec(folded);
  if (numeric !== null) {
    const a = Number(numeric[1]);
    const b = Number(numeric[2]);
    const year = numeric[3] === undefined ? null : numeric[3].length === 2 ? 2000 + Number(numeric[3]) : Number(numeric[3]);
    if (language === 'pt-BR') return valid(year, b, a);
    if (a > 12 && b <= 12) return valid(year, b, a);
    if (b > 12 && a <= 12) return valid(year, a, b);
    return a === b ? valid(year, a, b) : null;
  }
  const monthFirst = MONTH_FIRST.exec(folded);
  if (monthFirst !== null) return valid(monthFirst[3] === undefined ? null : Number(monthFirst[3]), MONTHS[monthFirst[1] ?? ''] ?? 0, Number(monthFirst[2]));
  const dayFirst = DAY_FIRST.exec(folded);
  if (dayFirst !== null) return valid(dayFirst[3] === undefined ? null : Number(dayFirst[3]), MONTHS[dayFirst[2] ?? ''] ?? 0, Number(dayFirst[1]));
  return null;
}
