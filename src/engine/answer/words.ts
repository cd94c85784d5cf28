/** The sentences the renderer writes, in English and Brazilian Portuguese. Values are always slotted in, never translated. */
import type { ComputeOperation, Language } from '../../router/index.js';

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
  readonly operators: Readonly<Record<string, string>>;
  /** What was done, by a write tool's leading verb ('create' → 'Created'); `doneOther` for a verb not listed. */
  readonly done: Readonly<Record<string, string>>;
  readonly doneOther: string;
  readonly amountTo: string;
  readonly amountOn: string;
}

const en: AnswerWords = {
  where: 'where',
  and: 'and',
  excluding: 'excluding',
  rows: '{count} {noun}{where}:',
  noRows: 'No {noun} found{args}.',
  noRowsWhere: 'No {noun} match {filters}.',
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
  operations: { count: 'count', sum: 'sum', average: 'average', minimum: 'minimum', maximum: 'maximum', difference: 'difference', ratio: 'ratio', percentage: 'percentage' },
  operators: {
    exact: '=', iexact: '=', contains: 'contains', icontains: 'contains', gt: '>', gte: '≥', lt: '<', lte: '≤', in: 'in',
    startswith: 'starts with', istartswith: 'starts with', endswith: 'ends with', iendswith: 'ends with', isnull: 'is null:', ne: '≠',
  },
  done: {
    create: 'Created', add: 'Added', make: 'Made', charge: 'Charged', refund: 'Refunded', send: 'Sent', email: 'Emailed', update: 'Updated',
    change: 'Changed', set: 'Set', delete: 'Deleted', remove: 'Removed', cancel: 'Cancelled', book: 'Booked', schedule: 'Scheduled', pay: 'Paid', post: 'Posted',
  },
  doneOther: 'Done:',
  amountTo: '{done} {amount} to {target}.',
  amountOn: '{done} {amount} on {target}.',
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
  operations: { count: 'contagem', sum: 'soma', average: 'média', minimum: 'mínimo', maximum: 'máximo', difference: 'diferença', ratio: 'razão', percentage: 'porcentagem' },
  operators: {
    exact: '=', iexact: '=', contains: 'contém', icontains: 'contém', gt: '>', gte: '≥', lt: '<', lte: '≤', in: 'em',
    startswith: 'começa com', istartswith: 'começa com', endswith: 'termina com', iendswith: 'termina com', isnull: 'é nulo:', ne: '≠',
  },
  done: {
    create: 'Criação concluída:', add: 'Adição concluída:', make: 'Criação concluída:', charge: 'Cobrança feita:', refund: 'Reembolso feito:',
    send: 'Envio feito:', email: 'Envio feito:', update: 'Atualização concluída:', change: 'Alteração concluída:', set: 'Alteração concluída:',
    delete: 'Exclusão concluída:', remove: 'Remoção concluída:', cancel: 'Cancelamento concluído:', book: 'Reserva feita:', schedule: 'Agendamento feito:',
    pay: 'Pagamento feito:', post: 'Publicação feita:',
  },
  doneOther: 'Feito:',
  amountTo: '{done} {amount} — {target}.',
  amountOn: '{done} {amount} — {target}.',
};

export const ANSWER_WORDS: Readonly<Record<Language, AnswerWords>> = { en, 'pt-BR': ptBR };

/** Fills `{name}` slots; a slot with no value stays as written. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? (values[key] as string) : whole));
}
