/**
 * A row's period said to hold a day or a period ("which productions are running now?", "is Cabaret
 * on today?", "em cartaz hoje", "leave requests in December"): on a subject with one pair of its own
 * date fields that open and close a period (`opensOn`/`closesOn`, `startsOn`/`endsOn`), the rows that
 * start before the period ends and do not end before it starts. An empty end is an open period: the
 * end bound is an exclusion, which keeps rows whose end is empty.
 */
import type { JsonValue } from '../core/index.js';
import type { ReadLookup } from '../router/index.js';
import { DATED, ownFields } from './lookups.js';
import type { ReadTarget } from './meanings.js';

const START = /^(?:start|starts|starting|started|begin|begins|beginning|open|opens|opening|from|valid|effective)$/;
const END = /^(?:end|ends|ending|ended|close|closes|closing|closed|until|finish|finishes|expires|expiry)$/;

export interface PeriodPair {
  readonly start: ReadLookup;
  readonly end: ReadLookup;
}

/** The subject's one pair of own date fields of one type, named for a start and an end; null with none or several. */
export function periodPair(target: ReadTarget): PeriodPair | null {
  const dated = ownFields(target, DATED);
  const first = (l: ReadLookup): string => (l.field.split(/(?=[A-Z])|_/)[0] ?? '').toLowerCase();
  const starts = dated.filter((l) => START.test(first(l)));
  const ends = dated.filter((l) => END.test(first(l)));
  if (starts.length !== 1 || ends.length !== 1) return null;
  const [start, end] = [starts[0] as ReadLookup, ends[0] as ReadLookup];
  return start.type === end.type ? { start, end } : null;
}

/** The period [from, to) as bounds on the pair: the start before `to`, the end (where set) not before `from`. */
export function periodHolding(pair: PeriodPair, period: { readonly from: string | null; readonly to: string | null; readonly fromDay: string | null; readonly toDay: string | null }): { filters: { key: string; number: JsonValue }[]; exclude: Record<string, JsonValue> } | null {
  const day = pair.start.type === 'date';
  const from = day ? period.fromDay : period.from;
  const to = day ? period.toDay : period.to;
  if (from === null || to === null) return null;
  const filters = [{ key: `${pair.start.key}__lt`, number: to as JsonValue }];
  if (pair.end.nullable === true) return { filters, exclude: { [`${pair.end.key}__lt`]: from } };
  return { filters: [...filters, { key: `${pair.end.key}__gte`, number: from }], exclude: {} };
}

/** Today (or, for date-times, this instant) as a period, from the host's clock. */
export function nowPeriod(now: string | null): { from: string; to: string; fromDay: string; toDay: string } | null {
  if (now === null || !/^\d{4}-\d{2}-\d{2}/.test(now)) return null;
  const fromDay = now.slice(0, 10);
  const next = new Date(`${fromDay}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { from: now, to: now, fromDay, toDay: next.toISOString().slice(0, 10) };
}
