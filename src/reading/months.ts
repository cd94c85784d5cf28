/**
 * A month named on its own ("orders placed in October", "tarefas que vencem em janeiro") as a period
 * of the host's calendar: the occurrence of that month nearest to now where it lies within three
 * months of now ("in January" said in December is the coming one), else this year's ("trips in May"
 * said in December are last May's); after a past participle ("ended in February") the last one begun; from its 1st to the next month's 1st, in the offset of now.
 */
import type { DataGrammar } from './grammar.js';
import type { MonthDate } from './spans.js';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A grammar's month names and the pattern that finds them, built once per grammar. */
const compiled = new WeakMap<DataGrammar, { readonly names: readonly { name: string; month: number }[]; readonly pattern: RegExp; readonly any: RegExp }>();

function monthsOf(grammar: DataGrammar): { readonly names: readonly { name: string; month: number }[]; readonly pattern: RegExp; readonly any: RegExp } {
  const known = compiled.get(grammar);
  if (known !== undefined) return known;
  const names = grammar.months.flatMap((list, month) => list.map((name) => ({ name, month })));
  const alternation = names.map((n) => n.name).sort((a, b) => b.length - a.length).join('|');
  const lead = [...grammar.monthLead].sort((a, b) => b.length - a.length).map((l) => l.replace(/ /g, '\\s+')).join('|');
  const pattern = new RegExp(`(?<![a-z0-9])(?:(?:${lead})\\s+)?(${alternation})(?:\\s+(?:de\\s+|of\\s+)?(\\d{4}))?(?![a-z0-9])`, 'g');
  const built = { names, pattern, any: new RegExp(`(?<![a-z0-9])(?:${alternation})(?![a-z0-9])`) };
  compiled.set(grammar, built);
  return built;
}

export function findMonths(folded: string, grammar: DataGrammar, now: string | null): MonthDate[] {
  if (now === null) return [];
  const { names, pattern, any } = monthsOf(grammar);
  if (!any.test(folded)) return [];
  const clock = RFC3339.exec(now);
  if (clock === null) return [];
  const [, y, mo, , , , , off] = clock as unknown as [string, string, string, string, string, string, string | undefined, string];
  const offset = off === 'Z' || off === 'z' ? '+00:00' : off;
  const out: MonthDate[] = [];
  for (const m of folded.matchAll(pattern)) {
    const month = names.find((n) => n.name === m[1])?.month;
    if (month === undefined) continue;
    // "may" and "mar" are words too: a short name counts only after its lead ("in May") or before a year.
    if ((m[1] as string).length <= 3 && m[0] === m[1]) continue;
    const past = PAST.test(folded.slice(0, m.index));
    const year = m[2] !== undefined ? Number(m[2]) : past ? lastYear(Number(y), Number(mo) - 1, month) : nearestYear(Number(y), Number(mo) - 1, month);
    const first = `${year}-${pad(month + 1)}-01`;
    const next = month === 11 ? `${year + 1}-01-01` : `${year}-${pad(month + 2)}-01`;
    out.push({ start: m.index, end: m.index + m[0].length, from: `${first}T00:00:00${offset}`, to: `${next}T00:00:00${offset}`, fromDay: first, toDay: next });
  }
  return out;
}

/**
 * A year named on its own after "in" or a date bound ("joined in 2026", "published after 2000", "desde
 * 2020") as that whole year, 1900 to 2100 only; the bound word is left to the question ("after").
 */
export function findYears(folded: string, grammar: DataGrammar, now: string | null): MonthDate[] {
  if (now === null || !/\d{4}/.test(folded)) return [];
  const clock = RFC3339.exec(now);
  if (clock === null) return [];
  const off = clock[7] as string;
  const offset = off === 'Z' || off === 'z' ? '+00:00' : off;
  const out: MonthDate[] = [];
  for (const m of folded.matchAll(yearPattern(grammar))) {
    const year = Number(m[2]);
    if (year < 1900 || year > 2100) continue;
    const start = m.index + (m[1] === undefined ? m[0].length - 4 : 0);
    const first = `${year}-01-01`;
    const next = `${year + 1}-01-01`;
    out.push({ start, end: m.index + m[0].length, from: `${first}T00:00:00${offset}`, to: `${next}T00:00:00${offset}`, fromDay: first, toDay: next });
  }
  return out;
}

const years = new WeakMap<DataGrammar, RegExp>();

/** `(in )?YYYY` after a year lead or a date bound; group 1 is the lead "in" makes part of the span. */
function yearPattern(grammar: DataGrammar): RegExp {
  const known = years.get(grammar);
  if (known !== undefined) return known;
  const alternation = (list: readonly string[]): string => [...list].sort((a, b) => b.length - a.length).map((w) => w.replace(/ /g, '\\s+')).join('|');
  const bounds = Object.values(grammar.dateBounds).flat();
  const pattern = new RegExp(`(?<![a-z0-9])(?:(${alternation(grammar.yearLead)})|(?:${alternation(bounds)}))\\s+(\\d{4})(?![a-z0-9.,])`, 'g');
  years.set(grammar, pattern);
  return pattern;
}

/** The year whose `month` lies nearest the current month; null when last year's and next year's are as near. */
function nearestYear(year: number, current: number, month: number): number {
  const distance = (y: number): number => Math.abs((y - year) * 12 + (month - current));
  const near = [year - 1, year + 1].find((y) => distance(y) <= NEAR_MONTHS && distance(y) < distance(year));
  return near ?? year;
}

/** A past participle right before the month ("ended in February", "feitas em maio"): the month gone by. */
const PAST = /(?:[a-z]ed|made|paid|sent|sold|[a-z](?:ad|id|eit)[oa]s?)\s+$/;

/** The year of the last occurrence of `month` that has begun by now. */
function lastYear(year: number, current: number, month: number): number {
  return month <= current ? year : year - 1;
}

/** How far (in months) a month named without its year may be from now in another year. */
const NEAR_MONTHS = 3;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
