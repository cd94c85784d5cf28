/** The plural of a folded phrase's last word, as a person writes it ("bearing" → "bearings", "peca" → "pecas"). */
import type { Language } from '../router/index.js';

export function inflections(phrase: string, language: Language): string[] {
  const words = phrase.split(' ');
  const last = words.pop() ?? '';
  if (last.length < 3 || !/[a-z]$/.test(last)) return [];
  const head = words.length === 0 ? '' : `${words.join(' ')} `;
  return pluralsOf(last, language).map((form) => `${head}${form}`);
}

function pluralsOf(word: string, language: Language): string[] {
  if (language === 'pt-BR') {
    if (/[aeiou]$/.test(word)) return [`${word}s`];
    if (/[rz]$/.test(word)) return [`${word}es`];
    if (/l$/.test(word)) return [`${word.slice(0, -1)}is`];
    // "vans", "hifens"; "itens" from "item".
    if (/n$/.test(word)) return [`${word}s`];
    if (/m$/.test(word)) return [`${word.slice(0, -1)}ns`];
    return [];
  }
  return [englishPlural(word)];
}

/** An English word's plural: part → parts, category → categories, box → boxes, person → people. */
export function englishPlural(word: string): string {
  const irregular = IRREGULAR[word];
  if (irregular !== undefined) return irregular;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/** English plurals no rule gives ("people"); a word that is its own plural ("staff", "equipment") gives itself. */
const IRREGULAR: Readonly<Record<string, string>> = {
  person: 'people', man: 'men', woman: 'women', child: 'children', foot: 'feet', tooth: 'teeth', mouse: 'mice', goose: 'geese',
  leaf: 'leaves', shelf: 'shelves', half: 'halves', knife: 'knives', life: 'lives', wife: 'wives', thief: 'thieves',
  analysis: 'analyses', criterion: 'criteria', phenomenon: 'phenomena', medium: 'media', datum: 'data', cactus: 'cacti',
  staff: 'staff', personnel: 'personnel', equipment: 'equipment', sheep: 'sheep', fish: 'fish', series: 'series', species: 'species', aircraft: 'aircraft',
};
