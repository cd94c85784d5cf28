/** The values a turn contains, cut from it as typed: destinations, quoted text, numbers. */
import { Decimal } from 'decimal.js';
import type { UnitAfter } from './units.js';
import { unitAfter, unitOfSuffix } from './units.js';

/** `spelled`: a number written in words ("three days"); taken like an integer, never counted as left over. */
export type ValueKind = 'url' | 'email' | 'channel' | 'quoted' | 'integer' | 'decimal' | 'spelled';

export interface TurnValue {
  readonly kind: ValueKind;
  /** As typed. */
  readonly text: string;
  /** As passed to a tool: quotes off, a decimal comma made a point (`40,00` → `40.00`). */
  readonly value: string;
  readonly start: number;
  readonly end: number;
  /** A number written as a percentage ("6%"): its parameter's description says whether it goes as 6 or 0.06. */
  readonly percent?: boolean;
  /** A unit written onto the number ("298K", "10m"). */
  readonly unit?: string;
  /** The unit or factor the number is written with ("10km", "10 km", "2 pi"): only a parameter taking it takes the number. */
  readonly measure?: Omit<UnitAfter, 'end'>;
}

const URL_RE = /\bhttps?:\/\/[^\s"'<>]+/gi;
const EMAIL_RE = /(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/g;
const CHANNEL_RE = /(?<![\w#])#[A-Za-z0-9][\w-]*/g;
const QUOTED_RE = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|(?<![\w])'([^'\n]{1,200})'(?![\w])|«([^»\n]{1,200})»|`([^`\n]{1,200})`/g;
/** A number in scientific notation ("1e-9", "2.5E6"), as the figure it is. */
const SCIENTIFIC_RE = /(?<![\w.,/:^-])-?\d+(?:\.\d+)?[eE][-+]?\d+(?![\w.])/g;
const SCALE_RE = /^\s+(hundred|thousand|million|billion|trillion|dozen|dozens|mil|milhao|milhoes|bilhao|bilhoes|trilhao|trilhoes|duzia|duzias)(?![a-z])/;
/** A percentage written in words ("15 percent", "15 por cento"). */
const PERCENT_WORDS = /^\s*(?:percent|per cent|por cento|porcento)(?![a-z])/;
const SCALES: Readonly<Record<string, number>> = {
  hundred: 1e2, dozen: 12, dozens: 12, duzia: 12, duzias: 12, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12, mil: 1e3, milhao: 1e6, milhoes: 1e6, bilhao: 1e9, bilhoes: 1e9, trilhao: 1e12, trilhoes: 1e12,
};
const NUMBER_RE = /(?<![\w.,/:^-])-?\d+(?:[.,]\d+)*(?:(%)|(°[cfk]|[a-z]{1,3})(?![a-z]))?(?![\w/:]|[.,]\d)/gi;
/** Units a number may carry written onto it ("298K", "10km", "5kg"); ordinals ("2nd") and other letters are no number. */
const UNIT_SUFFIXES = new Set(['k', 'c', 'f', '°c', '°f', '°k', 'kg', 'g', 'mg', 'lb', 'lbs', 'oz', 'm', 'km', 'cm', 'mm', 'ft', 'in', 'mi', 'mph', 'kmh', 's', 'ms', 'h', 'hr', 'hrs', 'min', 'l', 'ml', 'gb', 'mb', 'kb', 'tb', 'hz', 'khz', 'mhz', 'ghz', 'v', 'kv', 'w', 'kw', 'kwh', 'x']);
/** Numbers written in words (English): taken for a count next to its unit ("three days", "five people"). */
const SPELLED: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15,
  sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};
const SPELLED_RE = new RegExp(`(?<![a-z0-9-])(${Object.keys(SPELLED).join('|')})(?![a-z0-9-])`, 'g');

/** Finds the values of a turn; `language` decides whether `1.234,50` or `1,234.50` is the decimal form. */
export function findValues(turn: string, language: 'en' | 'pt-BR', channels: readonly string[], folded: string): TurnValue[] {
  const values: TurnValue[] = [];
  const taken: [number, number][] = [];
  const free = (start: number, end: number): boolean => taken.every(([s, e]) => end <= s || start >= e);
  const push = (kind: ValueKind, text: string, value: string, start: number): void => {
    const end = start + text.length;
    if (!free(start, end)) return;
    taken.push([start, end]);
    values.push({ kind, text, value, start, end });
  };
  for (const m of turn.matchAll(URL_RE)) {
    const text = m[0].replace(/[.,;:!?)\]]+$/, '');
    push('url', text, text, m.index);
  }
  for (const m of turn.matchAll(EMAIL_RE)) push('email', m[0], m[0], m.index);
  for (const m of turn.matchAll(CHANNEL_RE)) push('channel', m[0], m[0], m.index);
  for (const channel of channels) {
    let from = 0;
    for (;;) {
      const at = folded.indexOf(channel, from);
      if (at < 0) break;
      const before = folded[at - 1];
      const after = folded[at + channel.length];
      if ((before === undefined || !/[a-z0-9]/.test(before)) && (after === undefined || !/[a-z0-9]/.test(after))) {
        push('channel', turn.slice(at, at + channel.length), turn.slice(at, at + channel.length), at);
      }
      from = at + channel.length;
    }
  }
  for (const m of turn.matchAll(QUOTED_RE)) {
    const inner = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '';
    push('quoted', m[0], inner.trim(), m.index);
  }
  for (const m of turn.matchAll(SCIENTIFIC_RE)) {
    const value = Number(m[0]);
    if (Number.isFinite(value)) push(Number.isInteger(value) && !/[eE]-/.test(m[0]) ? 'integer' : 'decimal', m[0], m[0], m.index);
  }
  for (const m of turn.matchAll(NUMBER_RE)) {
    const suffix = m[2]?.toLowerCase();
    if (suffix !== undefined && !UNIT_SUFFIXES.has(suffix)) continue;
    const digits = m[1] === undefined && suffix === undefined ? m[0] : m[0].slice(0, m[0].length - (m[1] ?? m[2] ?? '').length);
    const number = readNumber(digits, language);
    if (number === null) continue;
    if (m[1] !== undefined || suffix !== undefined) {
      const start = m.index;
      const end = start + m[0].length;
      if (free(start, end)) {
        taken.push([start, end]);
        const measure = suffix === undefined ? null : unitOfSuffix(suffix);
        values.push({ kind: number.decimal ? 'decimal' : 'integer', text: m[0], value: number.value, start, end, ...(m[1] === undefined ? {} : { percent: true }), ...(suffix === undefined ? {} : { unit: suffix }), ...(measure === null ? {} : { measure }) });
      }
      continue;
    }
    // `100 million`, `2 mil`, `3 milhões`: the scale word is part of the number.
    const scale = SCALE_RE.exec(folded.slice(m.index + m[0].length));
    if (scale !== null) {
      const factor = SCALES[scale[1] as string] ?? 1;
      const scaled = new Decimal(number.value).times(factor);
      const text = turn.slice(m.index, m.index + m[0].length + scale[0].length);
      push(scaled.isInteger() ? 'integer' : 'decimal', text, scaled.toFixed(), m.index);
      continue;
    }
    const end = m.index + m[0].length;
    const percent = PERCENT_WORDS.exec(folded.slice(end));
    if (percent !== null) {
      const text = turn.slice(m.index, end + percent[0].length);
      if (free(m.index, m.index + text.length)) {
        taken.push([m.index, m.index + text.length]);
        values.push({ kind: number.decimal ? 'decimal' : 'integer', text, value: number.value, start: m.index, end: m.index + text.length, percent: true });
      }
      continue;
    }
    const after = unitAfter(folded, end);
    if (after !== null && free(m.index, end)) {
      taken.push([m.index, end]);
      values.push({ kind: number.decimal ? 'decimal' : 'integer', text: m[0], value: number.value, start: m.index, end, measure: { kind: after.kind, unit: after.unit } });
      continue;
    }
    push(number.decimal ? 'decimal' : 'integer', m[0], number.value, m.index);
  }
  if (language === 'en') for (const m of folded.matchAll(SPELLED_RE)) push('spelled', turn.slice(m.index, m.index + m[0].length), String(SPELLED[m[1] as string] ?? ''), m.index);
  values.sort((a, b) => a.start - b.start);
  return values;
}

/** `40.00` → `40.00`; pt `40,00` → `40.00`; `1.234` (pt) → `1234`; en `1,234.5` → `1234.5`. */
export function readNumber(text: string, language: 'en' | 'pt-BR'): { value: string; decimal: boolean } | null {
  const thousands = language === 'en' ? ',' : '.';
  const point = language === 'en' ? '.' : ',';
  const sign = text.startsWith('-') ? '-' : '';
  const body = sign === '' ? text : text.slice(1);
  const parts = body.split(point);
  if (parts.length > 2) return null;
  const [whole = '', fraction] = parts;
  const groups = whole.split(thousands);
  if (groups.length > 1 && !groups.slice(1).every((g) => g.length === 3)) {
    // `40.00` in Portuguese or `40,00` in English: read the other mark as the decimal point when it is the only one.
    if (fraction === undefined && groups.length === 2 && (groups[1]?.length ?? 0) <= 2) return { value: `${sign}${groups[0] ?? ''}.${groups[1] ?? ''}`, decimal: true };
    return null;
  }
  const digits = groups.join('');
  if (fraction !== undefined) return { value: `${sign}${digits}.${fraction}`, decimal: true };
  return { value: `${sign}${digits}`, decimal: false };
}
