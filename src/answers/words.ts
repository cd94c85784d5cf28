/** The sentences the renderer writes, in English and Brazilian Portuguese. Values are always slotted in, never translated. */
import type { ComputeOperation, Language } from '../router/index.js';

export interface AnswerWords {
  readonly where: string;
  readonly and: string;
  readonly excluding: string;
  readonly rows: string;
  readonly noRows: string;
  readonly noRowsWhere: string;
  readonly more: string;
  readonly moreUncounted: string;
  readonly free: string;
  readonly busy: string;
  readonly toolError: string;
  readonly rejected: string;
  readonly expired: string;
  readonly cancelled: string;
  readonly awaiting: string;
  readonly notRun: string;
  readonly computeError: string;
  readonly countOf: string;
  readonly over: string;
  readonly computed: string;
  readonly computedBare: string;
  readonly cantCompute: string;
  readonly cantSend: string;
  readonly cantDo: string;
  readonly unread: string;
  readonly cut: string;
  readonly operations: Readonly<Record<ComputeOperation, string>>;
  /** A filter's operator in words ('gt' → 'above'); `exact` also for a filter with no operator. */
  readonly operators: Readonly<Record<string, string>>;
  /** The same for a date value ('lt' → 'before'). */
  readonly dateOperators: Readonly<Record<string, string>>;
  /** A yes/no field held true, and held false: "done", "not done" (pt: "concluído: sim", "concluído: não"). */
  readonly yesField: string;
  readonly notField: string;
  /** A field that is empty, or that is not ("returned on is empty", "returned on is set"). */
  readonly emptyField: string;
  readonly setField: string;
  /** What was done, by a write tool's leading verb ('create' → 'Created'); `doneOther` for a verb not listed. */
  readonly done: Readonly<Record<string, string>>;
  readonly doneOther: string;
  readonly amountTo: string;
  readonly amountOn: string;
  /** Yes/no: the answer, then the rows that say so (or that none do). */
  readonly yes: string;
  readonly no: string;
  /** A total, an average, a minimum or a maximum over the rows read. */
  readonly aggregate: string;
  readonly aggregateOf: Readonly<Record<'sum' | 'average' | 'minimum' | 'maximum', string>>;
  /** The row (or rows) with the highest or lowest value of a field. */
  readonly rankOne: string;
  readonly rankMany: string;
  /** `most`/`fewest`: ranked by a count of related rows. */
  readonly rankWords: Readonly<Record<'top' | 'bottom' | 'latest' | 'earliest' | 'most' | 'fewest', string>>;
  readonly rankManyWords: Readonly<Record<'top' | 'bottom' | 'latest' | 'earliest' | 'most' | 'fewest', string>>;
  readonly withValue: string;
  /** One attribute of one row: "Unit price of Shaft: 38.00." */
  readonly attribute: string;
  /** What the reader took a typo for. */
  readonly readAs: string;
  /** Answers about the schema. */
  readonly schemaManagers: string;
  readonly schemaFields: string;
  readonly schemaRelations: string;
  readonly schemaNone: string;
  readonly schemaPath: string;
  readonly schemaSame: string;
  readonly schemaNoPath: string;
  /** A write refused before it was asked about: the actor may not make it. */
  readonly refused: string;
  readonly signIn: string;
}

const en: AnswerWords = {
  where: 'where',
  and: 'and',
  excluding: 'excluding',
  rows: '{count} {noun}{where}:',
  noRows: 'No {noun} found{args}.',
  noRowsWhere: 'No {noun} where {filters}.',
  more: '… and {more} more (total {total}).',
  moreUncounted: '… and more.',
  free: 'You are free from {from} to {to}: nothing on the calendar overlaps.',
  busy: 'You are not free from {from} to {to}; {count} {noun} in that period:',
  toolError: '{tool} failed ({code}): {message}',
  rejected: 'Not done: the confirmation was rejected ({tool}).',
  expired: 'Not done: the confirmation expired ({tool}).',
  cancelled: 'Not done: {tool} was cancelled ({reason}).',
  awaiting: 'Waiting for your confirmation: {text}',
  notRun: 'Not run: "{text}".',
  computeError: 'Could not compute the {operation}: {error}',
  countOf: 'count of {noun}',
  over: 'over',
  computed: '{operation} of {field}: {value} ({over} {sources}).',
  computedBare: '{operation}: {value} ({over} {sources}).',
  cantCompute: 'I cannot do that: {what} is a calculation, and calculations are turned off here.',
  cantSend: 'I cannot send anything to {what}: no tool here takes that destination.',
  cantDo: 'I cannot do that: {what}.',
  unread: 'I could not read that.',
  cut: '… (answer cut at {limit} characters)',
  operations: { count: 'count', sum: 'sum', average: 'average', minimum: 'minimum', maximum: 'maximum', difference: 'difference', ratio: 'ratio', percentage: 'percentage', exists: 'any', top: 'highest', bottom: 'lowest' },
  operators: {
    exact: 'is', iexact: 'is', contains: 'contains', icontains: 'contains', gt: 'above', gte: 'at least', lt: 'below', lte: 'at most', in: 'is one of',
    startswith: 'starts with', istartswith: 'starts with', endswith: 'ends with', iendswith: 'ends with', isnull: 'is empty:', ne: 'is not',
  },
  dateOperators: { gt: 'after', gte: 'on or after', lt: 'before', lte: 'on or before' },
  yesField: '{field}',
  notField: 'not {field}',
  emptyField: '{field} is empty',
  setField: '{field} is set',
  done: {
    create: 'Created', add: 'Added', make: 'Made', charge: 'Charged', refund: 'Refunded', send: 'Sent', email: 'Emailed', update: 'Updated',
    change: 'Changed', set: 'Set', delete: 'Deleted', remove: 'Removed', cancel: 'Cancelled', book: 'Booked', schedule: 'Scheduled', pay: 'Paid', post: 'Posted',
  },
  doneOther: 'Done:',
  amountTo: '{done} {amount} to {target}.',
  amountOn: '{done} {amount} on {target}.',
  yes: 'Yes — {rows}',
  no: 'No — no {noun} where {filters}.',
  aggregate: '{operation} {field} of {noun}{where}: {value} (over {count} {rows}).',
  aggregateOf: { sum: 'Total', average: 'Average', minimum: 'Lowest', maximum: 'Highest' },
  rankOne: '{noun} with {rank} {field}: {row}',
  rankMany: '{count} {noun} with {rank} {field}:',
  rankWords: { top: 'the highest', bottom: 'the lowest', latest: 'the latest', earliest: 'the earliest', most: 'the most', fewest: 'the fewest' },
  rankManyWords: { top: 'the highest', bottom: 'the lowest', latest: 'the latest', earliest: 'the earliest', most: 'the most', fewest: 'the fewest' },
  withValue: '{row} ({value})',
  attribute: '{field} of {row}: {value}.',
  readAs: '(Read "{typed}" as "{read}".)',
  schemaManagers: 'I can read {count} kinds of data: {list}.',
  schemaFields: 'Fields of {noun}: {fields}.',
  schemaRelations: 'Related: {relations}.',
  schemaNone: 'There is no {noun} I can read.',
  schemaPath: '{from} reach {to} through {path}.',
  schemaSame: '{from} and {to} are the same kind of data.',
  schemaNoPath: '{from} and {to} are not related through anything I can read.',
  refused: 'I cannot do that for you: {message} ({code})',
  signIn: '{tool} changes data, and only a signed-in user may change data; sign in to use it. Anonymous visitors can only read.',
};

const ptBR: AnswerWords = {
  where: 'com',
  and: 'e',
  excluding: 'exceto',
  rows: '{count} {noun}{where}:',
  noRows: 'Não há {noun}{args}.',
  noRowsWhere: 'Não há {noun} com {filters}.',
  more: '… e mais {more} (total {total}).',
  moreUncounted: '… e mais.',
  free: 'Você está livre de {from} a {to}: nada na agenda se sobrepõe.',
  busy: 'Você não está livre de {from} a {to}; {count} {noun} nesse período:',
  toolError: '{tool} falhou ({code}): {message}',
  rejected: 'Não feito: a confirmação foi recusada ({tool}).',
  expired: 'Não feito: a confirmação expirou ({tool}).',
  cancelled: 'Não feito: {tool} foi cancelado ({reason}).',
  awaiting: 'Aguardando sua confirmação: {text}',
  notRun: 'Não executado: "{text}".',
  computeError: 'Não foi possível calcular ({operation}): {error}',
  countOf: 'contagem de {noun}',
  over: 'sobre',
  computed: '{operation} de {field}: {value} ({over} {sources}).',
  computedBare: '{operation}: {value} ({over} {sources}).',
  cantCompute: 'Não posso fazer isso: {what} é um cálculo, e os cálculos estão desligados aqui.',
  cantSend: 'Não posso enviar nada para {what}: nenhuma ferramenta aqui aceita esse destino.',
  cantDo: 'Não posso fazer isso: {what}.',
  unread: 'Não consegui entender isso.',
  cut: '… (resposta cortada em {limit} caracteres)',
  operations: { count: 'contagem', sum: 'soma', average: 'média', minimum: 'mínimo', maximum: 'máximo', difference: 'diferença', ratio: 'razão', percentage: 'porcentagem', exists: 'algum', top: 'maior', bottom: 'menor' },
  operators: {
    exact: '', iexact: '', contains: 'contém', icontains: 'contém', gt: 'acima de', gte: 'de pelo menos', lt: 'abaixo de', lte: 'de no máximo', in: 'entre',
    startswith: 'começa com', istartswith: 'começa com', endswith: 'termina com', iendswith: 'termina com', isnull: 'vazio:', ne: 'diferente de',
  },
  dateOperators: { gt: 'depois de', gte: 'a partir de', lt: 'antes de', lte: 'até' },
  yesField: '{field}: sim',
  notField: '{field}: não',
  emptyField: '{field} vazio',
  setField: '{field} preenchido',
  done: {
    create: 'Criação concluída:', add: 'Adição concluída:', make: 'Criação concluída:', charge: 'Cobrança feita:', refund: 'Reembolso feito:',
    send: 'Envio feito:', email: 'Envio feito:', update: 'Atualização concluída:', change: 'Alteração concluída:', set: 'Alteração concluída:',
    delete: 'Exclusão concluída:', remove: 'Remoção concluída:', cancel: 'Cancelamento concluído:', book: 'Reserva feita:', schedule: 'Agendamento feito:',
    pay: 'Pagamento feito:', post: 'Publicação feita:',
  },
  doneOther: 'Feito:',
  amountTo: '{done} {amount} — {target}.',
  amountOn: '{done} {amount} — {target}.',
  yes: 'Sim — {rows}',
  no: 'Não — não há {noun} com {filters}.',
  aggregate: '{operation} de {field} de {noun}{where}: {value} (sobre {count} {rows}).',
  aggregateOf: { sum: 'Total', average: 'Média', minimum: 'Menor valor', maximum: 'Maior valor' },
  rankOne: '{noun} com {rank} {field}: {row}',
  rankMany: '{count} {noun} com {rank} {field}:',
  rankWords: { top: 'o maior valor de', bottom: 'o menor valor de', latest: 'a data mais recente de', earliest: 'a data mais antiga de', most: 'mais', fewest: 'menos' },
  rankManyWords: { top: 'os maiores valores de', bottom: 'os menores valores de', latest: 'as datas mais recentes de', earliest: 'as datas mais antigas de', most: 'mais', fewest: 'menos' },
  withValue: '{row} ({value})',
  attribute: '{field} de {row}: {value}.',
  readAs: '(Li "{typed}" como "{read}".)',
  schemaManagers: 'Posso ler {count} tipos de dados: {list}.',
  schemaFields: 'Campos de {noun}: {fields}.',
  schemaRelations: 'Relações: {relations}.',
  schemaNone: 'Não há {noun} que eu possa ler.',
  schemaPath: '{from} chegam a {to} por {path}.',
  schemaSame: '{from} e {to} são o mesmo tipo de dado.',
  schemaNoPath: '{from} e {to} não se relacionam por nada que eu possa ler.',
  refused: 'Não posso fazer isso por você: {message} ({code})',
  signIn: '{tool} altera dados, e só um usuário conectado pode alterar dados; faça login para usá-lo. Visitantes anônimos só podem ler.',
};

export const ANSWER_WORDS: Readonly<Record<Language, AnswerWords>> = { en, 'pt-BR': ptBR };

/** Fills `{name}` slots; a slot with no value stays as written. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? (values[key] as string) : whole));
}
