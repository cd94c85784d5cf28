/**
 * Demonyms: "Kenyan teachers", "hóspedes brasileiros". A country a column holds is also said by its
 * adjective, in both languages; only values the column actually holds get one. A demonym describes
 * the noun it goes with: through a relation it is read only when the related manager is named
 * ("courses by Kenyan teachers"), never by itself ("Kenyan rooms").
 */
import type { Language } from '../router/index.js';

/** Country → its adjectives (every form a question may use). */
export const DEMONYMS: Readonly<Record<string, { readonly en: readonly string[]; readonly 'pt-BR': readonly string[] }>> = {
  Kenya: { en: ['Kenyan', 'Kenyans'], 'pt-BR': ['queniano', 'queniana', 'quenianos', 'quenianas'] },
  Brazil: { en: ['Brazilian', 'Brazilians'], 'pt-BR': ['brasileiro', 'brasileira', 'brasileiros', 'brasileiras'] },
  Portugal: { en: ['Portuguese'], 'pt-BR': ['português', 'portuguesa', 'portugueses', 'portuguesas'] },
  France: { en: ['French'], 'pt-BR': ['francês', 'francesa', 'franceses', 'francesas'] },
  Germany: { en: ['German', 'Germans'], 'pt-BR': ['alemão', 'alemã', 'alemães', 'alemãs'] },
  Spain: { en: ['Spanish'], 'pt-BR': ['espanhol', 'espanhola', 'espanhóis', 'espanholas'] },
  Italy: { en: ['Italian', 'Italians'], 'pt-BR': ['italiano', 'italiana', 'italianos', 'italianas'] },
  'United Kingdom': { en: ['British'], 'pt-BR': ['britânico', 'britânica', 'britânicos', 'britânicas'] },
  'United States': { en: ['American', 'Americans'], 'pt-BR': ['americano', 'americana', 'americanos', 'americanas', 'estadunidense', 'estadunidenses'] },
  Mexico: { en: ['Mexican', 'Mexicans'], 'pt-BR': ['mexicano', 'mexicana', 'mexicanos', 'mexicanas'] },
  Argentina: { en: ['Argentine', 'Argentinian', 'Argentinians'], 'pt-BR': ['argentino', 'argentina', 'argentinos', 'argentinas'] },
  Angola: { en: ['Angolan', 'Angolans'], 'pt-BR': ['angolano', 'angolana', 'angolanos', 'angolanas'] },
  Mozambique: { en: ['Mozambican', 'Mozambicans'], 'pt-BR': ['moçambicano', 'moçambicana', 'moçambicanos', 'moçambicanas'] },
  Nigeria: { en: ['Nigerian', 'Nigerians'], 'pt-BR': ['nigeriano', 'nigeriana', 'nigerianos', 'nigerianas'] },
  Japan: { en: ['Japanese'], 'pt-BR': ['japonês', 'japonesa', 'japoneses', 'japonesas'] },
  China: { en: ['Chinese'], 'pt-BR': ['chinês', 'chinesa', 'chineses', 'chinesas'] },
  India: { en: ['Indian', 'Indians'], 'pt-BR': ['indiano', 'indiana', 'indianos', 'indianas'] },
  Canada: { en: ['Canadian', 'Canadians'], 'pt-BR': ['canadense', 'canadenses'] },
  Netherlands: { en: ['Dutch'], 'pt-BR': ['holandês', 'holandesa', 'holandeses', 'holandesas'] },
  Ireland: { en: ['Irish'], 'pt-BR': ['irlandês', 'irlandesa', 'irlandeses', 'irlandesas'] },
};

/** The demonyms of a value a column holds, in one language; none when the value is no country the table knows. */
export function demonymsOf(value: string, language: Language): readonly string[] {
  return DEMONYMS[value]?.[language] ?? [];
}
