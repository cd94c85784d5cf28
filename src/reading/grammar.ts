/**
 * The grammar words a data question may hold, per language (folded): comparators, counts, totals
 * and rankings, yes/no openers, negations, follow-up words, link words and the stopwords that say
 * nothing about which rows. Deliberately closed lists: a word not here, nor a manager, field or
 * value of the vocabulary, leaves the clause to the generic planner.
 */
import type { Language } from '../router/index.js';
import type { Scale } from './adjectives.js';
import type { When } from './next-last.js';
import { adjectiveSuperlatives } from './adjectives.js';

export type Comparator = 'gt' | 'gte' | 'lt' | 'lte';
export type Aggregate = 'sum' | 'average' | 'minimum' | 'maximum';
export type Direction = 'top' | 'bottom';

/** A superlative's sense: its direction and the kind of field it ranks by. */
export interface Superlative {
  readonly direction: Direction;
  /** `price`: a price-like field; `recent`: its one creation date; `named`: the field word after it; `scale`: an adjective of the table in adjectives.ts. */
  readonly by: 'price' | 'recent' | 'named' | 'scale';
  readonly scale?: Scale;
  /** "last", "next": the latest date up to now, the earliest from now on. */
  readonly when?: When;
}

export interface DataGrammar {
  readonly comparators: Readonly<Record<Comparator, readonly string[]>>;
  /** Comparators said after their value, inclusive ("2000 or later", "5 or more", "150 ou mais"). */
  readonly comparatorsAfter: Readonly<Record<'gte' | 'lte', readonly string[]>>;
  /** Words saying a row's period holds now ("running", "em cartaz"); see date-ranges.ts. */
  readonly current: readonly string[];
  /** Date bounds: after / since / before / until a date phrase. */
  readonly dateBounds: Readonly<Record<'after' | 'since' | 'before' | 'until', readonly string[]>>;
  /** "between X and Y": the opener and the join. */
  readonly between: { readonly open: readonly string[]; readonly join: readonly string[] };
  /** Words that make the question a count ("how many"). */
  readonly count: readonly string[];
  /** Words that make it a total, an average, a minimum or a maximum over a field. */
  readonly aggregates: Readonly<Record<Aggregate, readonly string[]>>;
  /** Superlatives, phrase → sense ("most expensive", "cheapest", "highest", "mais caro"). */
  readonly superlatives: Readonly<Record<string, Superlative>>;
  /** Words before an adjective that make it a superlative ("most", "mais"), with their direction. */
  readonly degree: Readonly<Record<string, Direction>>;
  /** Openers of a yes/no question ("is there", "are any", "existe", "algum"). */
  readonly exists: readonly string[];
  /** Openers that make an attribute question of the adjective after them ("how dense is titanium"). */
  readonly how: readonly string[];
  /** Negations: the value after them goes to `exclude`. */
  readonly negations: readonly string[];
  /** Words that refer to the rows the previous turn read ("them", "those", "delas"). */
  readonly referents: readonly string[];
  /** Openers of a follow-up that replaces a value ("and", "what about", "e as"). */
  readonly replacing: readonly string[];
  /** Openers of a follow-up that narrows the previous rows ("only", "só"). */
  readonly narrowing: readonly string[];
  /** Words joining two values of one filter into a choice (`__in`). */
  readonly or: readonly string[];
  /** Words linking the subject to a related manager's value ("made of", "that use"). */
  readonly links: readonly string[];
  /** What a thing is made of: a relation named so is the answer to "what is X made of?". */
  readonly madeOf: readonly string[];
  readonly madeOfRelations: readonly string[];
  /** Question, list and function words that say nothing about which rows. */
  readonly stopwords: readonly string[];
  /** Number words a ranking may be counted with ("the three largest"). */
  readonly numbers: Readonly<Record<string, number>>;
  /** Scale words after a number ("100 thousand", "10 mil"). */
  readonly scales: Readonly<Record<string, number>>;
  /** Month names, January first. */
  readonly months: readonly (readonly string[])[];
  /** Words before a month name that make it a period ("in October", "em outubro"). */
  readonly monthLead: readonly string[];
  /** Words before a year that make the year a period ("in 2026", "em 2026"). */
  readonly yearLead: readonly string[];
}

const EN: DataGrammar = {
  comparators: {
    gt: ['above', 'over', 'more than', 'greater than', 'higher than', 'bigger than', 'larger than', 'heavier than', 'exceeding', 'in excess of'],
    gte: ['at least', 'no less than', 'minimum of'],
    lt: ['below', 'under', 'less than', 'lower than', 'smaller than', 'fewer than', 'lighter than', 'cheaper than'],
    lte: ['at most', 'no more than', 'up to', 'maximum of'],
  },
  comparatorsAfter: {
    gte: ['or more', 'or later', 'or after', 'or above', 'or over', 'or higher', 'or greater', 'or longer', 'or newer', 'and up', 'and above', 'and over', 'and later', 'onwards'],
    lte: ['or less', 'or fewer', 'or earlier', 'or before', 'or below', 'or under', 'or lower', 'or shorter', 'and under', 'and below', 'and earlier'],
  },
  current: ['running', 'ongoing', 'in progress', 'under way', 'underway', 'happening', 'showing', 'in effect', 'now', 'right now', 'currently', 'at the moment'],
  dateBounds: { after: ['after', 'later than'], since: ['since', 'from', 'starting'], before: ['before', 'earlier than', 'prior to'], until: ['until', 'till', 'by', 'up to'] },
  between: { open: ['between'], join: ['and'] },
  count: ['how many', 'number of', 'count of', 'count'],
  aggregates: {
    sum: ['total', 'sum', 'sum of', 'combined', 'total of', 'add up to', 'adds up to', 'add up', 'adds up', 'summed'],
    average: ['average', 'mean', 'avg'],
    minimum: ['minimum', 'min'],
    maximum: ['maximum', 'max'],
  },
  superlatives: {
    'most expensive': { direction: 'top', by: 'price' }, priciest: { direction: 'top', by: 'price' }, dearest: { direction: 'top', by: 'price' },
    cheapest: { direction: 'bottom', by: 'price' }, 'least expensive': { direction: 'bottom', by: 'price' }, 'lowest priced': { direction: 'bottom', by: 'price' }, 'lowest-priced': { direction: 'bottom', by: 'price' },
    'highest priced': { direction: 'top', by: 'price' }, 'highest-priced': { direction: 'top', by: 'price' },
    'most recent': { direction: 'top', by: 'recent' }, 'least recent': { direction: 'bottom', by: 'recent' }, first: { direction: 'bottom', by: 'recent' },
    last: { direction: 'top', by: 'scale', scale: 'time', when: 'past' }, next: { direction: 'bottom', by: 'scale', scale: 'time', when: 'future' },
    // "opened most recently": by the date field said next to it.
    'most recently': { direction: 'top', by: 'named' }, 'least recently': { direction: 'bottom', by: 'named' },
    highest: { direction: 'top', by: 'named' }, lowest: { direction: 'bottom', by: 'named' }, most: { direction: 'top', by: 'named' }, least: { direction: 'bottom', by: 'named' },
    greatest: { direction: 'top', by: 'named' }, fewest: { direction: 'bottom', by: 'named' }, top: { direction: 'top', by: 'named' }, bottom: { direction: 'bottom', by: 'named' },
    ...adjectiveSuperlatives('en'),
  },
  degree: { most: 'top', least: 'bottom' },
  exists: ['is there', 'are there', 'is there any', 'are there any', 'is any', 'are any', 'does any', 'do any', 'is there a', 'is there an', 'any', 'do we have any', 'does the', 'do the', 'is the', 'are the', 'is', 'are', 'does', 'do'],
  how: ['how', 'how much', 'when', 'what size'],
  negations: ['not', "isn't", "aren't", "don't", "doesn't", 'isnt', 'arent', 'dont', 'doesnt', 'never', 'without', 'no'],
  referents: ['them', 'those', 'these', 'they', 'ones', 'of them', 'of those', 'of these', 'the ones', 'those ones', 'these ones', 'it'],
  replacing: ['and', 'what about', 'how about', 'and what about', 'and how about', 'same for', 'now'],
  narrowing: ['only', 'just', 'of them', 'of those', 'of these', 'among them', 'among those'],
  or: ['or'],
  links: [
    'made of', 'made out of', 'made from', 'made with', 'out of', 'that use', 'that uses', 'which use', 'which uses', 'that have', 'that has', 'which have', 'which has', 'using', 'use', 'uses', 'used by', 'used in',
    'with', 'having', 'have', 'has', 'had', 'of', 'from', 'in', 'for', 'belonging to', 'on', 'that contain', 'that contains', 'which contain', 'containing', 'contain', 'contains', 'include', 'includes', 'including', 'that include', 'that includes', 'whose', 'where', 'by', 'to',
  ],
  madeOf: ['made of', 'made out of', 'made from', 'made with', 'composed of'],
  madeOfRelations: ['material', 'materials', 'composition', 'fabric', 'substance', 'ingredient', 'ingredients'],
  stopwords: [
    'show', 'list', 'display', 'give', 'get', 'find', 'tell', 'see', 'view', 'fetch', 'retrieve', 'what', "what's", 'whats', 'which', 'who', 'me', 'us', 'all', 'every', 'the', 'a', 'an',
    'are', 'is', 'be', 'there', 'do', 'does', 'did', 'please', 'can', 'could', 'would', 'you', 'we', 'our', 'and', 'that', 'its', 'their',
    'now', 'right now', 'still', 'currently', 'exist', 'existing', 'we have', 'do we have', 'available', 'known', 'records', 'rows', 'entries', 'total number', 'in total', 'units', 'unit',
    'was', 'were', 'been', 'being', 'so far', 'at the moment', 'yet', 'across', 'across all',
  ],
  numbers: { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 },
  scales: { thousand: 1e3, million: 1e6, k: 1e3 },
  months: [['january', 'jan'], ['february', 'feb'], ['march', 'mar'], ['april', 'apr'], ['may'], ['june', 'jun'], ['july', 'jul'], ['august', 'aug'], ['september', 'sep', 'sept'], ['october', 'oct'], ['november', 'nov'], ['december', 'dec']],
  monthLead: ['in', 'during', 'for', 'of'],
  yearLead: ['in', 'during'],
};

const PT: DataGrammar = {
  comparators: {
    gt: ['acima de', 'maior que', 'maior do que', 'mais de', 'mais que', 'mais do que', 'superior a', 'acima dos', 'acima das', 'passando de', 'acima do', 'acima da'],
    gte: ['pelo menos', 'no minimo', 'ao menos', 'a partir de'],
    lt: ['abaixo de', 'menor que', 'menor do que', 'menos de', 'menos que', 'menos do que', 'inferior a', 'abaixo dos', 'abaixo das', 'abaixo do', 'abaixo da'],
    lte: ['no maximo', 'ate'],
  },
  comparatorsAfter: {
    gte: ['ou mais', 'em diante', 'ou acima', 'ou superior', 'ou mais tarde', 'para cima'],
    lte: ['ou menos', 'ou antes', 'ou abaixo', 'ou inferior', 'para baixo'],
  },
  current: ['em cartaz', 'em andamento', 'em curso', 'esta em cartaz', 'estao em cartaz', 'esta em andamento', 'estao em andamento', 'esta em curso', 'estao em curso', 'acontecendo', 'vigente', 'vigentes', 'em exibicao', 'agora', 'atualmente', 'no momento'],
  dateBounds: { after: ['depois de', 'apos', 'depois do', 'depois da'], since: ['desde', 'a partir de', 'a partir do', 'a partir da'], before: ['antes de', 'antes do', 'antes da'], until: ['ate', 'ate o', 'ate a'] },
  between: { open: ['entre'], join: ['e'] },
  count: ['quantos', 'quantas', 'numero de', 'quantidade de'],
  aggregates: {
    sum: ['total', 'soma', 'soma de', 'soma dos', 'soma das', 'somados', 'somadas', 'somam'],
    average: ['media', 'media de', 'media dos', 'media das', 'valor medio'],
    minimum: ['minimo', 'minima'],
    maximum: ['maximo', 'maxima'],
  },
  superlatives: {
    'mais caro': { direction: 'top', by: 'price' }, 'mais cara': { direction: 'top', by: 'price' }, 'mais caros': { direction: 'top', by: 'price' }, 'mais caras': { direction: 'top', by: 'price' },
    'mais barato': { direction: 'bottom', by: 'price' }, 'mais barata': { direction: 'bottom', by: 'price' }, 'mais baratos': { direction: 'bottom', by: 'price' }, 'mais baratas': { direction: 'bottom', by: 'price' },
    'mais recente': { direction: 'top', by: 'recent' }, 'mais recentes': { direction: 'top', by: 'recent' }, 
    ...Object.fromEntries(['ultimo', 'ultima', 'ultimos', 'ultimas'].map((w) => [w, { direction: 'top', by: 'scale', scale: 'time', when: 'past' } as const])),
    ...Object.fromEntries(['proximo', 'proxima', 'proximos', 'proximas'].map((w) => [w, { direction: 'bottom', by: 'scale', scale: 'time', when: 'future' } as const])),
    'mais recentemente': { direction: 'top', by: 'named' },
    'primeiro': { direction: 'bottom', by: 'recent' }, 'primeira': { direction: 'bottom', by: 'recent' },
    ...adjectiveSuperlatives('pt-BR'),
  },
  degree: { mais: 'top', menos: 'bottom' },
  exists: ['existe', 'existem', 'existe algum', 'existe alguma', 'existem alguns', 'existem algumas', 'ha', 'ha algum', 'ha alguma', 'tem algum', 'tem alguma', 'temos algum', 'temos alguma', 'algum', 'alguma', 'alguns', 'algumas'],
  how: ['quao', 'o quao', 'quanto', 'quanta', 'quando'],
  negations: ['nao', 'sem', 'nunca', 'nenhum', 'nenhuma'],
  referents: ['elas', 'eles', 'delas', 'deles', 'essas', 'esses', 'estas', 'estes', 'nelas', 'neles', 'dessas', 'desses', 'destas', 'destes', 'as mesmas', 'os mesmos'],
  replacing: ['e', 'e quanto a', 'e quanto ao', 'e quanto aos', 'e quanto as', 'e sobre', 'e os', 'e as', 'e o', 'e a', 'e do', 'e da', 'e dos', 'e das', 'agora'],
  narrowing: ['so', 'somente', 'apenas', 'so as', 'so os', 'apenas as', 'apenas os', 'somente as', 'somente os'],
  or: ['ou'],
  links: [
    'feito de', 'feita de', 'feitos de', 'feitas de', 'feito com', 'feita com', 'usam', 'usa', 'que usam', 'que usa', 'utilizam', 'utiliza', 'com', 'de', 'do', 'da', 'dos', 'das', 'em', 'no', 'na', 'nos', 'nas',
    'tem', 'tem a', 'tem o', 'possuem', 'possui', 'que tem', 'que possuem', 'contem', 'que contem', 'contendo', 'incluem', 'inclui', 'que incluem', 'usado', 'usada', 'usados', 'usadas', 'pelo', 'pela', 'pelos', 'pelas', 'para', 'por', 'cujo', 'cuja', 'cujos', 'cujas', 'sao', 'sao de', 'e de',
  ],
  madeOf: ['feito de', 'feita de', 'feitos de', 'feitas de', 'feito', 'feita'],
  madeOfRelations: ['material', 'materials', 'composition', 'fabric', 'substance', 'ingredient', 'ingredients'],
  stopwords: [
    'mostre', 'mostra', 'mostrar', 'me mostre', 'me mostra', 'liste', 'lista', 'listar', 'exiba', 'exibir', 'ver', 'veja', 'quais', 'qual', 'quem', 'me', 'todos', 'todas',
    'o', 'a', 'os', 'as', 'um', 'uma', 'sao', 'e', 'esta', 'estao', 'existem', 'existe', 'por favor', 'favor', 'voce', 'pode', 'poderia', 'que', 'temos', 'nos temos',
    'agora', 'ainda', 'atualmente', 'seu', 'sua', 'seus', 'suas', 'cadastrados', 'cadastradas', 'registrados', 'registradas', 'ao todo', 'no total', 'existentes', 'unidades', 'unidade',
    'foi', 'foram', 'esta em', 'estao em', 'ja', 'qual e', 'quais sao',
  ],
  numbers: { um: 1, uma: 1, dois: 2, duas: 2, tres: 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9, dez: 10 },
  scales: { mil: 1e3, milhao: 1e6, milhoes: 1e6 },
  months: [['janeiro'], ['fevereiro'], ['marco'], ['abril'], ['maio'], ['junho'], ['julho'], ['agosto'], ['setembro'], ['outubro'], ['novembro'], ['dezembro']],
  monthLead: ['em', 'de', 'no mes de', 'durante', 'do mes de'],
  yearLead: ['em', 'durante', 'no ano de'],
};

export const DATA_GRAMMAR: Readonly<Record<Language, DataGrammar>> = { en: EN, 'pt-BR': PT };
