import type { JsonValue } from '../core/index.js';
import type { HostClock } from './clock.js';
import { DAY, formatDate, formatDateTime } from './clock.js';
import type { CompiledLanguage, CompiledParameter, CompiledTool } from './compile.js';
import { dayAt, dayFormat, typedDay, writeDay } from './date-formats.js';
import type { DateMention } from './dates.js';
import type { ClauseView, Filled } from './filled.js';
import { isDateParameter, takesDay } from './parameter-kinds.js';

/**
 * A6: the clause's date phrases into the tool's date parameters. A period (start and end) takes one
 * range that spells both ends, each end its own ("from March 1 to March 5"); one phrase that is no
 * range fills both only as the instants a day or a part of one starts and ends (a clock and
 * date-time bounds), never one day into two day fields. A day goes into a parameter in the format the
 * parameter names, converted, or not at all. Every phrase placed is recorded: one left over is unplaced.
 */
export function placeDates(
  tool: CompiledTool,
  clause: ClauseView,
  lang: CompiledLanguage,
  clock: HostClock | null,
  filled: Filled,
  set: (p: CompiledParameter, value: JsonValue, rule: string) => void,
  refuse: (p: CompiledParameter) => void,
  open: (p: CompiledParameter) => boolean,
): void {
  const dates = clause.dates;
  const first = dates[0];
  if (first === undefined) return;
  const typed = (d: { start: number; end: number }): string => clause.turn.slice(d.start, d.end);
  const claim = (d: { start: number; end: number }): void => {
    for (const v of clause.values) if (v.start < d.end && v.end > d.start) filled.claimed.add(v);
  };
  const placed = (d: DateMention): void => {
    filled.placedDates.add(d);
    claim(d);
  };
  /** The value for `p` of a day or an instant; undefined (and the parameter refused) where it cannot be written as `p` asks. */
  const value = (p: CompiledParameter, local: number | null, text: string, instant: number | null = local): JsonValue | undefined => {
    const format = dayFormat(p);
    if (format === 'time') {
      refuse(p);
      return undefined;
    }
    if (format !== null) {
      const day = local !== null ? dayAt(local) : typedDay(text, lang.language);
      const written = day === null ? null : writeDay(format, day);
      if (written === null) refuse(p);
      return written ?? undefined;
    }
    if (takesDay(p) && local !== null) return formatDate(local);
    return instant === null ? text : formatDateTime(instant, clock as HostClock);
  };
  const put = (p: CompiledParameter, v: JsonValue | undefined): void => {
    if (v !== undefined) set(p, v, `A6 date ${p.info.name}`);
  };

  const period = tool.info.period;
  if (period !== null) {
    const start = tool.parameters.find((p) => p.info.name === period.start);
    const end = tool.parameters.find((p) => p.info.name === period.end);
    if (start === undefined || end === undefined || !open(start) || !open(end)) return;
    const days = takesDay(start) || takesDay(end);
    if (dates.length === 1 && first.ends !== undefined) {
      // A range spelled with both ends: each end its own; a day field takes the last day the range names.
      const [from, to] = first.ends;
      const lastDay = to.to === null ? null : to.grain === 'time' ? to.from : to.to - DAY;
      put(start, value(start, from.from, typed(from), first.from));
      put(end, value(end, lastDay, typed(to), first.to));
      placed(first);
    } else if (dates.length === 1 && !days && first.from !== null && first.to !== null && first.to > first.from) {
      // One phrase as a period of instants: "tomorrow" is from its midnight to the next.
      put(start, value(start, first.from, typed(first)));
      put(end, value(end, first.to, typed(first)));
      placed(first);
    } else if (dates.length === 1 && !days && first.from === null && end.info.required) {
      // With no clock, one phrase is the start as typed; the end it does not spell is asked for.
      put(start, value(start, null, typed(first)));
      placed(first);
    } else if (dates.length === 2 && first.from === null) {
      // Two phrases with no clock go as typed, the first to the start and the second to the end.
      const second = dates[1] as DateMention;
      put(start, value(start, null, typed(first)));
      put(end, value(end, null, typed(second)));
      placed(first);
      placed(second);
    }
    return;
  }
  // A range names two days: a tool with one date parameter has no place for both.
  if (dates.length !== 1 || first.ends !== undefined) return;
  const one = tool.parameters.find((p) => open(p) && isDateParameter(p));
  // Else the one plain string parameter its name calls a date (`date`, `start_date`, `data`) or whose description names a day format.
  const named = tool.parameters.filter((p) => open(p) && p.info.type === 'string' && p.info.format === null && p.info.enumValues === null && p.pattern === null && (p.info.words.some((w) => w === 'date' || w === 'data') || dayFormat(p) !== null));
  if (one !== undefined) {
    put(one, value(one, first.from, typed(first)));
    placed(first);
  } else if (named.length === 1) {
    const p = named[0] as CompiledParameter;
    // With no clock and no format named, only a date typed in figures (2022/08/16) is taken as typed; "March 1st" stays unplaced.
    if (first.from === null && dayFormat(p) === null && !/^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(typed(first))) return;
    put(p, value(p, first.from, typed(first)));
    placed(first);
  }
}
