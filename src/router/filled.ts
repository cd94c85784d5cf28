import type { JsonValue } from '../core/index.js';
import type { DateMention } from './dates.js';
import type { ArgumentSource } from './types.js';
import type { TurnValue } from './values.js';

/** What filling a tool's arguments from a clause gives. */
export interface Filled {
  readonly args: Record<string, JsonValue>;
  readonly sources: Record<string, ArgumentSource>;
  /** A parameter given several values (`orders 4411 and 4412`): the values in the order typed. */
  several: { readonly parameter: string; readonly values: readonly JsonValue[]; readonly texts: readonly string[] } | null;
  readonly claimed: Set<TurnValue>;
  readonly rules: string[];
  /** Parameters the turn gives a value for that does not fit them (a list cut short, a value not in the enum, a date in no named format): the turn is not run. */
  readonly refused: string[];
  /** The date phrases a parameter took. */
  readonly placedDates: Set<DateMention>;
}

/** The clause arguments are filled from: its place in the turn, and the values and dates found in it. */
export interface ClauseView {
  readonly turn: string;
  readonly folded: string;
  readonly start: number;
  readonly end: number;
  readonly values: readonly TurnValue[];
  readonly dates: readonly DateMention[];
}
