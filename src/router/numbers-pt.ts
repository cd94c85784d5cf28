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
  for (const word of words) {
    if (word === 'e') {
      if (expectValue) return null;
      expectValue = true;
      continue;
    }
    const unit = UNITS[word];
    const scale = SCALES[word];
    if (unit !== undefined) {
      group += unit;
      seen = true;
      expectValue = false;
    } else if (scale !== undefined) {
      total += (group === 0 ? 1 : group) * scale;
      group = 0;
      seen = true;
      expectValue = false;
    } else return null;
  }
  if (!seen || expectValue) return null;
  return total + group;
}
