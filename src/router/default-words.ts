/**
 * The words the router knows before any vocabulary file: grammar (verbs, connectors, date words,
 * calculations) and the sentences it writes, for English and Brazilian Portuguese. A host's
 * vocabulary adds to these; it never has to repeat them.
 */
import type { VocabularyInput } from './vocabulary-types.js';

export const DEFAULT_WORDS: Readonly<Record<'en' | 'pt-BR', VocabularyInput>> = {
  en: {
    verbs: {
      read: ['show', 'get', 'list', 'find', 'look up', 'what', 'which', 'how many', 'check', 'see', 'fetch', 'display', 'give me', 'tell me', 'view', 'search', 'retrieve', 'am i', 'is there', 'are there', 'when'],
      write: ['create', 'add', 'make', 'send', 'charge', 'refund', 'delete', 'remove', 'update', 'change', 'set', 'cancel', 'book', 'schedule', 'email', 'post', 'pay'],
    },
    connectors: {
      and: ['and', 'plus'], then: ['then', 'and then', 'after that', 'afterwards'], it: ['it', 'that', 'this one', 'them'],
      follow: ['and', 'what about', 'how about', 'and what about', 'and how about', 'and for', 'same for', 'now'],
      question: ['how', 'why', 'who', 'whose', 'where'],
      yes_no: ['is', 'are', 'was', 'were', 'does', 'do', 'did', 'has', 'have', 'can', 'could', 'should', 'will', 'would'],
    },
    compute: {
      count: ['how many', 'count', 'number of'],
      sum: ['sum', 'sum of', 'add up', 'altogether', 'combined'],
      average: ['average', 'mean'],
      minimum: ['minimum', 'lowest', 'smallest', 'cheapest'],
      maximum: ['maximum', 'highest', 'largest', 'biggest', 'most expensive'],
      difference: ['difference', 'how much more', 'how much less'],
      ratio: ['ratio'],
      percentage: ['percentage', 'percent'],
    },
    dates: {
      weekdays: {
        monday: ['monday', 'mon'], tuesday: ['tuesday', 'tue', 'tues'], wednesday: ['wednesday', 'wed'],
        thursday: ['thursday', 'thu', 'thurs'], friday: ['friday', 'fri'], saturday: ['saturday'], sunday: ['sunday'],
      },
      days: {
        today: ['today', 'tonight'], tomorrow: ['tomorrow'], yesterday: ['yesterday'],
        after_tomorrow: ['the day after tomorrow', 'day after tomorrow'], before_yesterday: ['the day before yesterday', 'day before yesterday'],
      },
      day_parts: { morning: ['morning'], afternoon: ['afternoon'], evening: ['evening', 'tonight', 'night'] },
      spans: {
        this: ['this', 'current'], next: ['next', 'coming'], last: ['last', 'previous', 'past'],
        week: ['week'], month: ['month'], day: ['day'], in_days: ['in {n} days', 'in {n} day'], ago_days: ['{n} days ago', '{n} day ago'],
        in_weeks: ['in {n} weeks', 'in {n} week'], ago_weeks: ['{n} weeks ago', '{n} week ago'], in_months: ['in {n} months', 'in {n} month'], ago_months: ['{n} months ago', '{n} month ago'],
      },
      availability: ['am i free', 'am i available', 'am i busy', 'do i have anything', 'is my calendar free', 'free on', 'free at', 'free this', 'free next', 'free tomorrow', 'free today', 'available on', 'available at'],
    },
    stopwords: ['a', 'an', 'the', 'of', 'for', 'to', 'in', 'on', 'at', 'by', 'with', 'me', 'my', 'i', 'is', 'are', 'be', 'please', 'can', 'you', 'could', 'would', 'and', 'then', 'it', 'its', 'from', 'this', 'that', 'do', 'does', 'will', 'want', 'need', 'like', 'all', 'some', 'any', 'about', 'us', 'our', 'your', 'give', 'tell', 'what', 'which', 'how', 'much', 'many', 'also', 'as', 'or', 'if', 'so', 'up', 'out', 'into', 'there', 'their', 'they', 'we', 'was', 'were', 'has', 'have', 'had', 'not', 'no', 'yes', 'per', 'using', 'use', 'given', 'specific', 'find', 'get', 'calculate', 'compute'],
    messages: {
      which: 'To {tool}, which {param}?',
      which_of: 'To {tool}, which {param}: {values}?',
      candidates: 'Do you mean {candidates}?',
      or: 'or',
      and: 'and',
      rephrase: 'I could not read that. Say what to do and to what, for example: "{example}".',
      rephrase_when: 'I could not tell which list to look in for that time. Say it again naming what to list, for example: "{example}".',
      rephrase_data: 'I could not read that. I can answer questions about {topics}; ask, for example: "{example}".',
      rephrase_nothing: 'I could not read that, and this assistant has nothing it can read or do here.',
      unread_refused: 'This is not something I can read, and no model is set to take it.',
      confirm: '{tool} with {arguments}?',
      saga: ' It cannot be undone: the writes after it ({writes}) cannot reverse it.',
      from_step: '(from step {step})',
      lookup_none: 'Looking up {lookup} found nothing. {question}',
      lookup_several: 'Looking up {lookup} found several: {values}. {question}',
    },
  },
  'pt-BR': {
    verbs: {
      read: ['mostre', 'mostra', 'mostrar', 'me mostre', 'me mostra', 'ver', 'veja', 'liste', 'lista', 'listar', 'busque', 'buscar', 'procure', 'qual', 'quais', 'quanto', 'quantos', 'quantas', 'consulte', 'consultar', 'traga', 'estou', 'tenho', 'quando', 'exiba', 'exibir', 'o que', 'como esta'],
      write: ['crie', 'criar', 'cria', 'adicione', 'adicionar', 'adiciona', 'envie', 'enviar', 'envia', 'mande', 'mandar', 'manda', 'cobre', 'cobrar', 'cobra', 'reembolse', 'reembolsar', 'estorne', 'estornar', 'apague', 'apagar', 'remova', 'remover', 'atualize', 'atualizar', 'altere', 'alterar', 'cancele', 'cancelar', 'agende', 'agendar', 'marque', 'marcar', 'faca', 'fazer'],
    },
    connectors: {
      and: ['e', 'mais'], then: ['depois', 'e depois', 'em seguida', 'entao', 'e entao'], it: ['nele', 'nela', 'a ele', 'a ela', 'isso', 'nisso', 'dele', 'dela'],
      follow: ['e', 'e o', 'e a', 'e os', 'e as', 'e quanto a', 'e quanto ao', 'e sobre', 'e do', 'e da', 'e para', 'agora'],
      question: ['como', 'por que', 'porque', 'quem', 'onde', 'cade'],
      yes_no: ['qual', 'quais', 'quanto', 'quanta', 'quantos', 'quantas', 'o que', 'quando', 'sera que', 'existe', 'tem', 'ha', 'esta', 'estao'],
    },
    compute: {
      count: ['quantos', 'quantas', 'contar', 'conte', 'numero de'],
      sum: ['soma', 'some', 'somar', 'ao todo', 'somados'],
      average: ['media', 'valor medio'],
      minimum: ['minimo', 'menor', 'mais barato'],
      maximum: ['maximo', 'maior', 'mais caro'],
      difference: ['diferenca', 'quanto a mais', 'quanto a menos'],
      ratio: ['razao', 'proporcao'],
      percentage: ['porcentagem', 'percentual', 'por cento'],
    },
    dates: {
      weekdays: {
        monday: ['segunda-feira', 'segunda', 'seg'], tuesday: ['terca-feira', 'terca'], wednesday: ['quarta-feira', 'quarta', 'qua'],
        thursday: ['quinta-feira', 'quinta', 'qui'], friday: ['sexta-feira', 'sexta'], saturday: ['sabado', 'sab'], sunday: ['domingo', 'dom'],
      },
      days: {
        today: ['hoje'], tomorrow: ['amanha'], yesterday: ['ontem'],
        after_tomorrow: ['depois de amanha'], before_yesterday: ['anteontem', 'antes de ontem'],
      },
      day_parts: { morning: ['de manha', 'pela manha', 'manha'], afternoon: ['a tarde', 'de tarde', 'pela tarde', 'tarde'], evening: ['a noite', 'de noite', 'noite'] },
      spans: {
        this: ['esta', 'este', 'nesta', 'neste', 'essa', 'esse', 'nessa', 'nesse'], next: ['proxima', 'proximo', 'que vem'], last: ['passada', 'passado', 'ultima', 'ultimo', 'anterior'],
        week: ['semana'], month: ['mes'], day: ['dia'], in_days: ['daqui a {n} dias', 'em {n} dias', 'dentro de {n} dias', 'daqui a {n} dia', '{n} dias depois de hoje'], ago_days: ['ha {n} dias', '{n} dias atras', '{n} dias antes de hoje'],
        in_weeks: ['daqui a {n} semanas', 'em {n} semanas', 'daqui a {n} semana', 'em {n} semana'], ago_weeks: ['ha {n} semanas', '{n} semanas atras', '{n} semanas antes de hoje'],
        in_months: ['daqui a {n} meses', 'em {n} meses', 'daqui a {n} mes'], ago_months: ['ha {n} meses', '{n} meses atras', '{n} mes atras'],
      },
      availability: ['estou livre', 'to livre', 'tou livre', 'estou disponivel', 'estou ocupado', 'tenho algo', 'tenho alguma coisa', 'livre na', 'livre no', 'livre hoje', 'livre amanha', 'livre nesta', 'livre neste'],
    },
    stopwords: ['o', 'a', 'os', 'as', 'um', 'uma', 'de', 'do', 'da', 'dos', 'das', 'para', 'pra', 'por', 'em', 'no', 'na', 'nos', 'nas', 'me', 'meu', 'minha', 'e', 'que', 'com', 'se', 'eu', 'voce', 'pode', 'poderia', 'favor', 'por favor', 'depois', 'ele', 'ela', 'isso', 'esse', 'essa', 'este', 'esta', 'ao', 'aos', 'qual', 'quais', 'quanto'],
    /** European Portuguese forms: the grammar is Brazilian, so these turns are unread. */
    foreign: ['estou a', 'esta a', 'estas a', 'estamos a', 'autocarro', 'telemovel', 'ecra', 'pequeno-almoco', 'utente', 'facto', 'contacto', 'registo', 'equipa', 'comboio', 'rapariga', 'casa de banho', 'tu queres', 'podes', 'consegues', 'envia-me', 'mostra-me', 'diz-me', 'da-me',
      // Spanish: another language, so unread rather than half read.
      'el', 'los', 'muestrame', 'muestra', 'quiero', 'dame', 'cuanto', 'cual', 'usted', 'hola', 'gracias', 'semana proxima', 'manana', 'hoy', 'ayer'],
    messages: {
      which: 'Para {tool}, qual {param}?',
      which_of: 'Para {tool}, qual {param}: {values}?',
      candidates: 'Você quer dizer {candidates}?',
      or: 'ou',
      and: 'e',
      rephrase: 'Não consegui entender. Diga o que fazer e com o quê, por exemplo: "{example}".',
      rephrase_when: 'Não sei em que lista procurar esse horário. Diga de novo o que listar, por exemplo: "{example}".',
      rephrase_data: 'Não consegui entender. Posso responder perguntas sobre {topics}; pergunte, por exemplo: "{example}".',
      rephrase_nothing: 'Não consegui entender, e este assistente não tem nada que possa ler ou fazer aqui.',
      unread_refused: 'Não consigo ler esse pedido, e nenhum modelo está configurado para recebê-lo.',
      confirm: '{tool} com {arguments}?',
      saga: ' Não pode ser desfeito: as escritas depois dele ({writes}) não o revertem.',
      from_step: '(do passo {step})',
      lookup_none: 'A consulta {lookup} não encontrou nada. {question}',
      lookup_several: 'A consulta {lookup} encontrou vários: {values}. {question}',
    },
  },
};
