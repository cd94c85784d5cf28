/**
 * Place words: "guests who live in Lyon", "based in Porto", "hóspedes que moram em Lyon". A place word
 * goes with a value of a place field (a city, a country, an address) right after it — the value is
 * read on that field only — or, at the end of a question, with the place field it asks ("what city
 * does Claire Martin live in?"). Anywhere else it is a word nothing binds, and the turn stays unread.
 */
import type { Language } from '../router/index.js';

export const PLACE_WORDS: Readonly<Record<Language, readonly string[]>> = {
  en: ['live in', 'lives in', 'living in', 'lived in', 'live', 'lives', 'located in', 'based in', 'reside in', 'resides in', 'residing in', 'come from', 'comes from'],
  'pt-BR': ['mora em', 'moram em', 'morar em', 'morando em', 'mora no', 'mora na', 'moram no', 'moram na', 'mora', 'moram', 'vive em', 'vivem em', 'localizado em', 'localizada em', 'localizados em', 'localizadas em', 'sediado em', 'sediada em', 'baseado em', 'baseada em', 'reside em', 'residem em', 'vem de', 'vêm de'],
};

/** A field that holds a place: its name says city, country, town, address, region, state or location. */
export function isPlaceField(field: string): boolean {
  return /city|country|town|address|region|state|province|location|place|cidade|pais|endereco/i.test(field);
}

/** Place words of where one comes from: they also take a field of origin (a nationality, a birthplace). */
const ORIGIN_WORDS = new Set(['come from', 'comes from', 'vem de']);

/**
 * Whether a place word's field may be `field`: a place field for any, and for a word of origin ("come
 * from", "vem de") also a field of origin — nationality, origin, hometown, birthplace, country of birth.
 */
export function fitsPlaceWord(foldedWord: string, field: string): boolean {
  return isPlaceField(field) || (ORIGIN_WORDS.has(foldedWord) && /nationality|origin|hometown|birth ?place|birthplace|born|nacionalidade|origem|naturalidade/i.test(field));
}

