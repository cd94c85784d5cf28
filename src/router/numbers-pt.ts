/** Portuguese number words (`duas mil trezentas e quarenta e sete` → 2347), with or without accents. */
import { fold } from './text.js';

const UNITS: Readonly<Record<string, number>> = {
  zero: 0, um: 1, uma: 1, dois: 2, duas: 2, tres: 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9, dez: 10,
  onze: 11, doze: 12, treze: 13, catorze: 14, quatorze: 14, quinze: 15, dezesseis: 16, dezasseis: 16, dezessete: 17, dezassete: 17,
  dezoito: 18, dezenove: 19, dezanove: 19, vinte: 20, trinta: 30, quarenta: 40, cinquenta: 50, cincoenta: 50, sessenta: 60,
  setenta: 70, oitenta: 80, noventa: 90, cem: 100, cento: 100, duzentos: 200, duzentas: 200, trezentos: 300, trezentas: 300,
  quatrocentos: 400, quatrocentas: 400, quinhentos: 500, quinhentas: 500, seiscentos: 600, seiscentas: 600, setecentos: 700,
  setecentas: 700, oitocentos: 800, oitocentas: 800, novecentos: 900, novecentas: 900,
};
const SCALES: Readonly<Record<string, number>> = {
  mil: 1e3, milhao: 1e6, milhoes: 1e6, bilhao: 1e9, bilhoes: 1e9, trilhao: 1e12, trilhoes: 1e12,
};

/** The integer a run of Portuguese number words names, or null when it is not one. */
export function readPortugueseNumber(text: string): number | null {
  const words = fold(text).trim().split(/[\s-]+/).filter((w) => w.length > 0);
  if (words.length === 0) return null;
  let total = 0;
  let group = 0;
  let seen = false;
  let expectValue = true;
  let afterAnd = false;
  let afterScale = false;
  let last = Infinity;
  for (const word of words) {
    if (word === 'e') {
      if (expectValue) return null;
      expectValue = true;
      afterAnd = true;
      continue;
    }
    const unit = UNITS[word];
    const scale = SCALES[word];
    if (unit !== undefined) {
      // "vinte e sete", "mil duzentos": a part joins with "e" and is smaller, or follows a scale word.
      if (seen && !afterAnd && !afterScale) return null;
      if (afterAnd && unit >= last) return null;
      group += unit;
      last = unit;
      seen = true;
      expectValue = false;
      afterAnd = false;
      afterScale = false;
    } else if (scale !== undefined) {
      if (afterAnd && group === 0) return null;
      total += (group === 0 ? 1 : group) * scale;
      group = 0;
      last = Infinity;
      seen = true;
      expectValue = false;
      afterAnd = false;
      afterScale = true;
    } else return null;
  }
  if (!seen || expectValue) return null;
  return total + group;
}

export interface FoundNumber {
  readonly text: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

const NUMBER_TOKEN = /-?(?:\d+(?:[.,]\d+)*|,\d+)(?:\s?k\b)?|[a-z]+/g;

/**
 * The numbers of a Portuguese text: digits as Brazilians write them (`1.234,50`) and runs of number
 * words (`dois mil e duzentos`, `322 milhões`, `uma dúzia`). Values use a decimal point.
 */
export function findPortugueseNumbers(text: string): FoundNumber[] {
  const folded = fold(text);
  const found: FoundNumber[] = [];
  const tokens = [...folded.matchAll(NUMBER_TOKEN)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i] as { word: string; start: number; end: number };
    if (/^-?\d/.test(token.word)) {
      let value = digitsValue(token.word);
      let end = token.end;
      const scale = tokens[i + 1];
      if (value !== null && scale !== undefined && SCALES[scale.word] !== undefined && folded.slice(end, scale.start).trim() === '') {
        value = String(Number(value) * (SCALES[scale.word] as number));
        end = scale.end;
        i++;
      }
      if (value !== null) found.push({ text: text.slice(token.start, end), value, start: token.start, end });
      i++;
      continue;
    }
    // The longest run of number words from here that reads as a number.
    let best: { end: number; value: number; next: number } | null = null;
    const words: string[] = [];
    for (let j = i; j < tokens.length && j < i + 40; j++) {
      const word = (tokens[j] as { word: string }).word;
      if (!(word in UNITS) && !(word in SCALES) && !['e', 'hum', 'duzia', 'duzias', 'dezena', 'dezenas', 'meia'].includes(word)) break;
      words.push(word === 'hum' ? 'um' : word);
      const value = wordsValue(words);
      if (value !== null) best = { end: (tokens[j] as { end: number }).end, value, next: j + 1 };
    }
    if (best !== null) {
      let value = String(best.value);
      let end = best.end;
      let next = best.next;
      // "sete vírgula cinco", "duzentos vírgula zero três": the words after "vírgula" are the decimal digits.
      if (tokens[next]?.word === 'virgula') {
        let zeros = '';
        let j = next + 1;
        while (tokens[j]?.word === 'zero') {
          zeros += '0';
          j++;
        }
        const fraction: string[] = [];
        let fractionValue: number | null = null;
        let fractionEnd = end;
        for (let k = j; k < tokens.length && k < j + 20; k++) {
          fraction.push((tokens[k] as { word: string }).word);
          const read = readPortugueseNumber(fraction.join(' '));
          if (read !== null) {
            fractionValue = read;
            fractionEnd = (tokens[k] as { end: number }).end;
            next = k + 1;
          }
        }
        if (fractionValue !== null) {
          value = `${value}.${zeros}${fractionValue}`;
          end = fractionEnd;
        }
      }
      found.push({ text: text.slice(token.start, end), value, start: token.start, end });
      i = next;
    } else i++;
  }
  return found;
}

function wordsValue(words: readonly string[]): number | null {
  const last = words[words.length - 1];
  if (last === 'dezena' || last === 'dezenas') {
    const count = words.length === 1 ? null : readPortugueseNumber(words.slice(0, -1).join(' '));
    return count === null ? null : count * 10;
  }
  if (last === 'duzia' || last === 'duzias') {
    const head = words.slice(0, -1);
    if (head.length === 1 && head[0] === 'meia') return 6;
    const count = head.length === 0 ? null : readPortugueseNumber(head.join(' '));
    return count === null ? null : count * 12;
  }
  if (words.some((w) => ['meia', 'duzia', 'duzias', 'dezena', 'dezenas'].includes(w))) return null;
  return readPortugueseNumber(words.join(' '));
}

function digitsValue(word: string): string | null {
  const thousands = /\s?k$/.test(word);
  if (thousands) {
    const base = digitsValue(word.replace(/\s?k$/, ''));
    return base === null ? null : String(Number(base) * 1000);
  }
  const negative = word.startsWith('-');
  const raw = negative ? word.slice(1) : word;
  const body = raw.startsWith(',') ? `0${raw}` : raw;
  let normalized: string;
  if (/^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/.test(body)) normalized = body.replace(/\./g, '').replace(',', '.');
  else if (/^\d+(?:,\d+)?$/.test(body)) normalized = body.replace(',', '.');
  else if (/^\d+\.\d+$/.test(body)) normalized = body;
  else return null;
  return `${negative ? '-' : ''}${normalized}`;
}
