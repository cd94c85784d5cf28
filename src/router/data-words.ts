/**
 * The grammar words the data-read pass accounts for, per language (folded): comparators, count and
 * list words, link words and the few stopwords a data question may hold. Deliberately short: a word
 * not listed here, nor a manager, field or value of the vocabulary, leaves the clause to the generic
 * planner. Negations (not, without, sem, …) are never listed, so "parts not made of steel" is unread.
 */
import type { Language } from './types.js';

export type Comparator = 'gt' | 'gte' | 'lt' | 'lte';

export interface DataGrammar {
  readonly comparators: Readonly<Record<Comparator, readonly string[]>>;
  /** Words that make the question a count ("how many"). */
  readonly count: readonly string[];
  /** Words joining two values of one filter into a choice (`__in`). */
  readonly or: readonly string[];
  /** Words linking the subject to a related manager's value ("made of", "that use"). */
  readonly links: readonly string[];
  /** Question, list and function words that say nothing about which rows. */
  readonly stopwords: readonly string[];
}

export const DATA_GRAMMAR: Readonly<Record<Language, DataGrammar>> = {
  en: {
    comparators: {
      gt: ['above', 'over', 'more than', 'greater than', 'higher than', 'bigger than', 'larger than', 'heavier than'],
      gte: ['at least', 'no less than'],
      lt: ['below', 'under', 'less than', 'lower than', 'smaller than', 'fewer than', 'lighter than'],
      lte: ['at most', 'no more than'],
    },
    count: ['how many', 'number of', 'count of', 'count'],
    or: ['or'],
    links: ['made of', 'made from', 'made with', 'that use', 'that uses', 'which use', 'which uses', 'that have', 'that has', 'which have', 'which has', 'using', 'use', 'uses', 'with', 'having', 'have', 'has', 'of', 'from', 'in', 'for', 'belonging to', 'on'],
    stopwords: [
      'show', 'list', 'display', 'give', 'get', 'find', 'tell', 'see', 'view', 'fetch', 'retrieve', 'what', 'which', 'who', 'me', 'us', 'all', 'every', 'the', 'a', 'an',
      'are', 'is', 'be', 'there', 'do', 'does', 'did', 'please', 'can', 'could', 'would', 'you', 'i', 'we', 'my', 'our', 'and', 'that', 'those', 'these', 'its', 'their', 'they',
      'it', 'now', 'right now', 'still', 'currently', 'exist', 'existing', 'we have', 'do we have', 'available', 'known', 'records', 'rows', 'entries', 'of them', 'in total', 'total number',
    ],
  },
  'pt-BR': {
    comparators: {
      gt: ['acima de', 'maior que', 'maior do que', 'mais de', 'mais que', 'mais do que', 'superior a', 'acima dos', 'acima das'],
      gte: ['pelo menos', 'no minimo', 'ao menos'],
      lt: ['abaixo de', 'menor que', 'menor do que', 'menos de', 'menos que', 'menos do que', 'inferior a', 'abaixo dos', 'abaixo das'],
      lte: ['no maximo', 'ate'],
    },
    count: ['quantos', 'quantas', 'numero de', 'quantidade de'],
    or: ['ou'],
    links: ['feito de', 'feita de', 'feitos de', 'feitas de', 'feito com', 'feita com', 'usam', 'usa', 'que usam', 'que usa', 'utilizam', 'utiliza', 'com', 'de', 'do', 'da', 'dos', 'das', 'em', 'no', 'na', 'nos', 'nas', 'tem', 'possuem', 'possui', 'que tem', 'que possuem'],
    stopwords: [
      'mostre', 'mostra', 'mostrar', 'me mostre', 'me mostra', 'liste', 'lista', 'listar', 'exiba', 'exibir', 'ver', 'veja', 'quais', 'qual', 'quem', 'me', 'todos', 'todas',
      'o', 'a', 'os', 'as', 'um', 'uma', 'sao', 'e', 'esta', 'estao', 'ha', 'existem', 'existe', 'por favor', 'favor', 'voce', 'pode', 'poderia', 'que', 'temos', 'nós', 'nos temos',
      'agora', 'ainda', 'atualmente', 'seu', 'sua', 'seus', 'suas', 'cadastrados', 'cadastradas', 'registrados', 'registradas', 'ao todo', 'no total', 'deles', 'delas', 'existentes',
    ],
  },
};
