/**
 * The words a turn may name an enum value by: the value itself in case, spacing and plural variants
 * ("ULTRA_HD" — "ultra hd", "ultra-hd", "ultrahd"; "HighQuality" — "high quality"), and the synonyms
 * of a small table where a value is one of its words ("desc" — "descending", "C" — "celsius",
 * "bicycling" — "bike"). A word naming two values names neither. The same table says which words
 * name a value of the enum's kind that the enum does not hold ("kelvin" for ["C", "F"]): such a
 * turn asks for what the tool cannot do, and is not run.
 */
import { foldPhrase } from './text.js';

/** Kinds of value, each a list of values and the words for each (folded, English and Portuguese). */
const KINDS: readonly (readonly (readonly string[])[])[] = [
  [
    ['asc', 'ascending', 'increasing', 'crescente', 'ascendente'],
    ['desc', 'descending', 'decreasing', 'decrescente', 'descendente'],
  ],
  [
    ['celsius', 'c', '°c', 'centigrade'],
    ['fahrenheit', 'f', '°f'],
    ['kelvin', 'k', '°k'],
  ],
  [
    ['driving', 'drive', 'car', 'carro'],
    ['walking', 'walk', 'on foot', 'a pe'],
    ['bicycling', 'cycling', 'bike', 'bicycle', 'bicicleta'],
    ['transit', 'public transport', 'public transit', 'transporte publico'],
    ['flying', 'flight', 'plane', 'aviao'],
    ['train', 'rail', 'trem'],
    ['bus', 'onibus'],
    ['boat', 'ferry', 'barco', 'balsa'],
    ['helicopter', 'helicoptero'],
    ['motorcycle', 'motorbike', 'moto'],
    ['taxi'],
    ['subway', 'metro'],
  ],
];

function split(value: string): string {
  return foldPhrase(value.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' '));
}

/** The words of an enum's values → the value they name, and the words of the enum's kind that name none of its values. */
export function enumWords(enumValues: readonly string[]): { values: Map<string, string>; outsiders: string[] } {
  // A value's own words first: a variant or a synonym never takes a word another value is written with.
  const exact = new Map<string, Set<string>>();
  const named = new Map<string, Set<string>>();
  const into = (map: Map<string, Set<string>>, word: string, value: string): void => {
    // A one-letter word ("A", "c") is a word of every sentence: it is never read from the words.
    if (word.length < 2) return;
    const set = map.get(word) ?? new Set<string>();
    set.add(value);
    map.set(word, set);
  };
  const add = (word: string, value: string): void => into(named, word, value);
  for (const value of enumValues) into(exact, split(value), value);
  const covered = new Set<(typeof KINDS)[number][number]>();
  const kinds = new Set<(typeof KINDS)[number]>();
  for (const value of enumValues) {
    const words = split(value);
    const parts = words.split(' ');
    if (parts.length > 1) {
      add(parts.join('-'), value);
      add(parts.join(''), value);
    }
    const last = parts.pop() ?? '';
    const other = last.length <= 3 ? null : /(?:ss|x|sh|ch)es$/.test(last) ? last.slice(0, -2) : /s$/.test(last) && !/ss$/.test(last) ? last.slice(0, -1) : /(?:ss|x|sh|ch)$/.test(last) ? `${last}es` : `${last}s`;
    if (other !== null) add([...parts, other].join(' '), value);
    for (const kind of KINDS) {
      for (const synonyms of kind) {
        if (!synonyms.includes(words)) continue;
        covered.add(synonyms);
        kinds.add(kind);
        for (const synonym of synonyms) add(synonym, value);
      }
    }
  }
  // Values that differ only in case ("AA", "Aa", "aa") cannot be told apart by folded words: none of them is read.
  const values = new Map<string, string>();
  for (const [word, set] of exact) if (set.size === 1) values.set(word, [...set][0] as string);
  for (const [word, set] of named) if (set.size === 1 && !exact.has(word)) values.set(word, [...set][0] as string);
  const outsiders: string[] = [];
  for (const kind of kinds) for (const synonyms of kind) if (!covered.has(synonyms)) for (const word of synonyms) if (word.length > 1 && !values.has(word)) outsiders.push(word);
  return { values, outsiders };
}
