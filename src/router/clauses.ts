/** A turn cut into clauses, and a clause's dates as the data reader sees them. */
import type { HostClock } from './clock.js';
import { formatDate, formatDateTime } from './clock.js';
import type { ClauseDate } from './data-reader.js';
import type { CompiledLanguage, PhraseSet } from './compile.js';
import type { DateMention } from './dates.js';

export interface Clause {
  readonly start: number;
  readonly end: number;
}

const SENTENCE_END = /(?<!\b(?:inc|mr|mrs|ms|dr|st|no|nr|sr|sra|co|ltd|vs|etc|e\.g|i\.e))[.?!;]+\s+(?=\S)|\b(?:also|plus|additionally|lastly|finally|second|secondly|third|thirdly|tambem|alem disso|por fim|por ultimo)\b,?\s*/g;

export function splitClauses(lang: CompiledLanguage, folded: string, whole: Clause): Clause[] {
  // "depois de 2000", "depois do dia 5": "depois" before "de" is "after", not "then".
  const cuts: { start: number; end: number }[] = lang.then.all(folded).filter((c) => !/^\s+d[eoa]s?\b/.test(folded.slice(c.end)));
  for (const m of folded.matchAll(SENTENCE_END)) cuts.push({ start: m.index, end: m.index + m[0].length });
  for (const m of lang.and.all(folded)) {
    // "and how many are paid?": an "and" opening the turn is a follow-up's, and no clause ends before it.
    if (folded.slice(0, m.start).trim().length === 0) continue;
    const rest = folded.slice(m.end).trimStart();
    const next = rest.length === 0 ? '' : rest;
    const verb = [...lang.writeVerbs.all(next), ...lang.readVerbs.all(next)].some((v) => v.start === 0);
    // "… and how does that compare …", "…, and is it paid?": a second question; left in the first
    // clause, a tool read for one part would answer it as if it were the whole.
    const opens = (words: PhraseSet): boolean => words.all(next).some((v) => v.start === 0);
    const question = opens(lang.question) || (/,\s*$/.test(folded.slice(0, m.start)) && opens(lang.yesNo));
    if ((verb || question) && !cuts.some((c) => c.start <= m.start && c.end >= m.end)) cuts.push(m);
  }
  cuts.sort((a, b) => a.start - b.start);
  const clauses: Clause[] = [];
  let from = whole.start;
  for (const cut of cuts) {
    if (cut.start < from) continue;
    if (folded.slice(from, cut.start).trim().length > 0) clauses.push({ start: from, end: cut.start });
    from = cut.end;
  }
  if (folded.slice(from, whole.end).trim().length > 0) clauses.push({ start: from, end: whole.end });
  return clauses.length === 0 ? [whole] : clauses;
}

/** The dates of a clause as a data reader sees them: offsets in the clause, periods in RFC 3339. */
export function clauseDates(dates: readonly DateMention[], clause: Clause, clock: HostClock | null): ClauseDate[] {
  return dates.map((d) => ({
    start: d.start - clause.start,
    end: d.end - clause.start,
    from: d.from === null || clock === null ? null : formatDateTime(d.from, clock),
    to: d.to === null || clock === null ? null : formatDateTime(d.to, clock),
    fromDay: d.from === null || clock === null ? null : formatDate(d.from),
    toDay: d.to === null || clock === null ? null : formatDate(d.to),
  }));
}
