/** The date reader on its own: the date phrases of a text and their periods, for hosts, tests and benchmarks. */
import type { HostClock } from './clock.js';
import { formatDateTime, readClock } from './clock.js';
import { compileDateGrammar } from './dates.js';
import { findDates } from './dates.js';
import type { Language } from './types.js';
import { fold } from './text.js';
import type { Vocabulary } from './vocabulary.js';
import { loadVocabulary } from './vocabulary.js';

export interface ReadDate {
  /** As typed. */
  readonly text: string;
  readonly start: string | null;
  readonly end: string | null;
  readonly grain: 'day' | 'part' | 'time' | 'week' | 'month' | 'range';
}

/** Reads the date phrases of `text` against `now` (RFC 3339 with offset); with no `now`, periods are null. */
export function readDates(text: string, options: { readonly now?: string; readonly language?: Language; readonly vocabulary?: Vocabulary } = {}): ReadDate[] {
  const language = options.language ?? 'en';
  const vocabulary = options.vocabulary ?? loadVocabulary(undefined);
  const grammar = compileDateGrammar(language, vocabulary.words[language]);
  const clock: HostClock | null = options.now === undefined ? null : readClock(options.now);
  return findDates(fold(text), grammar, clock).map((d) => ({
    text: text.slice(d.start, d.end),
    start: d.from === null || clock === null ? null : formatDateTime(d.from, clock),
    end: d.to === null || clock === null ? null : formatDateTime(d.to, clock),
    grain: d.grain,
  }));
}
