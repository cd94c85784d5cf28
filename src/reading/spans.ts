/**
 * A clause cut into spans the reader accounts for: numbers (with a scale word: "100 thousand",
 * "10 mil"), the router's date phrases, month names, and the vocabulary's and grammar's phrases —
 * longest first, each word once. A word no span covers may be a typo of a data word within the bound;
 * any other word left over, and the clause is not a data question.
 */
import type { ClauseDate, Language } from '../router/index.js';
import { tokenize } from '../router/index.js';
import type { CompiledReads } from './compile-reads.js';
import type { Meaning } from './meanings.js';
import { correctTypo } from './typos.js';

export interface Span {
  readonly start: number;
  readonly end: number;
  /** As typed. */
  readonly text: string;
  readonly meanings: readonly Meaning[];
  /** A number as written, its scale applied. */
  readonly number: number | null;
  /** A date phrase of the router's, or a month this reader resolved. */
  readonly date: { readonly from: string | null; readonly to: string | null; readonly fromDay: string | null; readonly toDay: string | null } | null;
  /** The folded words of an unknown word next to a degree or "how" word ("denso", "densest"), for adjectives. */
  readonly adjective: string | null;
}

export interface Spans {
  readonly spans: readonly Span[];
  /** Words read as another data word: typed → read. */
  readonly readAs: Readonly<Record<string, string>>;
}

// Not the digits of a code ("PJ-01", "B-6"): those are the code's.
const NUMBER = /(?<![a-z0-9.,]|[a-z0-9]-)\d+(?:[.,]\d+)*(?![a-z0-9]|[.,]\d|-[a-z0-9])/g;
/** Unknown words allowed to be tried as typos; more, and the clause is not a data question. */
const MAX_TYPOS = 2;

/**
 * A number as typed: English `1,000.5`, Portuguese `1.000,5` (and `5,5`); null for a form that could be
 * read two ways (`5.5` in Portuguese, `1,5` in English).
 */
export function readNumber(text: string, language: Language): number | null {
  const [group, point] = language === 'pt-BR' ? ['.', ','] : [',', '.'];
  const grouped = language === 'pt-BR' ? /^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/ : /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
  const plain = language === 'pt-BR' ? /^\d+(?:,\d+)?$/ : /^\d+(?:\.\d+)?$/;
  if (!grouped.test(text) && !plain.test(text)) return null;
  const number = Number(text.split(group).join('').replace(point, '.'));
  return Number.isFinite(number) ? number : null;
}

/** The clause's spans, or null when a word is left that no span covers and no typo bound explains. */
export function findSpans(reads: CompiledReads, typed: string, folded: string, dates: readonly ClauseDate[], monthDates: readonly MonthDate[]): Spans | null {
  const first = cut(reads, typed, folded, dates, monthDates);
  if (first === null) return null;
  if (first.unknown.length === 0) return { spans: first.spans, readAs: {} };
  // A word of a longer value said rightly ("Kazuo" of "Kazuo Ishigro") needs no correction, only its neighbour.
  const mistyped = first.unknown.filter((token) => !reads.typoTargets.has(token.word));
  if (mistyped.length === 0 || mistyped.length > MAX_TYPOS) return null;
  // Read each unknown word as the one data word within its bound, and cut the clause again (from the
  // right, so that each correction leaves the offsets before it as they were).
  let corrected = folded;
  const readAs: Record<string, string> = {};
  const fixes: { start: number; delta: number }[] = [];
  for (const token of [...mistyped].reverse()) {
    const word = correctTypo(token.word, reads.typoTargets);
    if (word === null) return null;
    corrected = `${corrected.slice(0, token.start)}${word}${corrected.slice(token.end)}`;
    readAs[typed.slice(token.start, token.end)] = word;
    fixes.push({ start: token.start, delta: word.length - (token.end - token.start) });
  }
  const moved = (at: number): number => at + fixes.filter((f) => f.start < at).reduce((sum, f) => sum + f.delta, 0);
  const again = cut(
    reads,
    corrected,
    corrected,
    dates.map((d) => ({ ...d, start: moved(d.start), end: moved(d.end) })),
    monthDates.map((m) => ({ ...m, start: moved(m.start), end: moved(m.end) })),
  );
  if (again === null || again.unknown.length > 0) return null;
  return { spans: again.spans, readAs };
}

/** A month a clause names ("in October"), resolved by the caller against the host's clock. */
export interface MonthDate {
  readonly start: number;
  readonly end: number;
  readonly from: string;
  readonly to: string;
  readonly fromDay: string;
  readonly toDay: string;
}

interface Cut {
  readonly spans: Span[];
  readonly unknown: { readonly word: string; readonly start: number; readonly end: number }[];
}

function cut(reads: CompiledReads, typed: string, folded: string, dates: readonly ClauseDate[], monthDates: readonly MonthDate[]): Cut | null {
  const spans: Span[] = [];
  const free = (start: number, end: number): boolean => spans.every((s) => end <= s.start || start >= s.end);
  const phrases = reads.phrases.all(folded);
  // "Night Heron": a date phrase inside a longer value is the value's.
  const inValue = (start: number, end: number): boolean =>
    phrases.some((m) => m.start <= start && m.end >= end && m.end - m.start > end - start && reads.meanings.get(m.phrase)?.some((meaning) => meaning.kind === 'value') === true);
  for (const d of dates) {
    // "night trips" where a shift is day or night: a date phrase that is a value of the data is the value.
    if (!free(d.start, d.end) || reads.meanings.get(folded.slice(d.start, d.end).trim())?.some((m) => m.kind === 'value') === true || inValue(d.start, d.end)) continue;
    spans.push({ start: d.start, end: d.end, text: typed.slice(d.start, d.end), meanings: [], number: null, date: { from: d.from, to: d.to, fromDay: d.fromDay, toDay: d.toDay }, adjective: null });
  }
  for (const m of monthDates) {
    if (!free(m.start, m.end)) continue;
    spans.push({ start: m.start, end: m.end, text: typed.slice(m.start, m.end), meanings: [], number: null, date: { from: m.from, to: m.to, fromDay: m.fromDay, toDay: m.toDay }, adjective: null });
  }
  for (const m of folded.matchAll(NUMBER)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    const value = readNumber(m[0], reads.language);
    if (value === null) return null;
    // "100 thousand", "10 mil": the scale word is part of the number.
    const scale = /^\s+([a-z]+)/.exec(folded.slice(m.index + m[0].length));
    const factor = scale === null ? undefined : reads.grammar.scales[scale[1] as string];
    const end = m.index + m[0].length + (factor === undefined || scale === null ? 0 : scale[0].length);
    spans.push({ start: m.index, end, text: typed.slice(m.index, end), meanings: [], number: factor === undefined ? value : value * factor, date: null, adjective: null });
  }
  for (const m of phrases) {
    if (!free(m.start, m.end)) continue;
    spans.push({ start: m.start, end: m.end, text: typed.slice(m.start, m.end), meanings: reads.meanings.get(m.phrase) ?? [], number: null, date: null, adjective: null });
  }
  spans.sort((a, b) => a.start - b.start);
  const unknown: Cut['unknown'] = [];
  for (const token of tokenize(folded)) {
    // An English possessive ("Apollo's tasks") is the word it marks.
    const end = reads.language === 'en' && /['\u2019]s$/.test(token.word) ? token.end - 2 : token.end;
    if (spans.some((s) => token.start >= s.start && end <= s.end)) continue;
    const before = spans.filter((s) => s.end <= token.start).at(-1);
    if (before !== undefined && isAdjectiveLead(before, folded.slice(before.end, token.start), token.word)) {
      spans.push({ start: token.start, end: token.end, text: typed.slice(token.start, token.end), meanings: [], number: null, date: null, adjective: token.word });
      spans.sort((a, b) => a.start - b.start);
      continue;
    }
    if (reads.language === 'en' && /^[a-z]{4,}est$/.test(token.word)) {
      spans.push({ start: token.start, end: token.end, text: typed.slice(token.start, token.end), meanings: [{ kind: 'degree', direction: 'top' }], number: null, date: null, adjective: token.word });
      spans.sort((a, b) => a.start - b.start);
      continue;
    }
    unknown.push({ word: token.word, start: token.start, end });
  }
  return { spans, unknown };
}

/** An unknown word right after "most", "mais", "how", "quão": an adjective the reader may match to a field. */
function isAdjectiveLead(before: Span, between: string, word: string): boolean {
  if (between.trim().length > 0 || word.length < 4) return false;
  return before.meanings.some((m) => m.kind === 'degree' || m.kind === 'how');
}
