/** The values a turn contains, cut from it as typed: destinations, quoted text, numbers. */
import { Decimal } from 'decimal.js';

export type ValueKind = 'url' | 'email' | 'channel' | 'quoted' | 'integer' | 'decimal';

export interface TurnValue {
  readonly kind: ValueKind;
  /** As typed. */
  readonly text: string;
  /** As passed to a tool: quotes off, a decimal comma made a point (`40,00` → `40.00`). */
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

const URL_RE = /\bhttps?:\/\/[^\s"'<>]+/gi;
const EMAIL_RE = /(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/g;
const CHANNEL_RE = /(?<![\w#])#[A-Za-z0-9][\w-]*/g;
const QUOTED_RE = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|(?<![\w])'([^'\n]{1,200})'(?![\w])|«([^»\n]{1,200})»/g;
const SCALE_RE = /^\s+(thousand|million|billion|trillion|mil|milhao|milhoes|bilhao|bilhoes|trilhao|trilhoes)(?![a-z])/;
const SCALES: Readonly<Record<string, number>> = {
  thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12, mil: 1e3, milhao: 1e6, milhoes: 1e6, bilhao: 1e9, bilhoes: 1e9, trilhao: 1e12, trilhoes: 1e12,
};
const NUMBER_RE = /(?<![\w.,/:-])-?\d+(?:[.,]\d+)*(?![\w/:]|[.,]\d)/g;

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
    const inner = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    push('quoted', m[0], inner.trim(), m.index);
  }
  for (const m of turn.matchAll(NUMBER_RE)) {
    const number = readNumber(m[0], language);
    if (number === null) continue;
    // `100 million`, `2 mil`, `3 milhões`: the scale word is part of the number.
    const scale = SCALE_RE.exec(folded.slice(m.index + m[0].length));
    if (scale !== null) {
      const factor = SCALES[scale[1] as string] ?? 1;
      const scaled = new Decimal(number.value).times(factor);
      const text = turn.slice(m.index, m.index + m[0].length + scale[0].length);
      push(scaled.isInteger() ? 'integer' : 'decimal', text, scaled.toFixed(), m.index);
      continue;
    }
    push(number.decimal ? 'decimal' : 'integer', m[0], number.value, m.index);
  }
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
