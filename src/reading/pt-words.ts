import { PT_MORE_WORDS } from './pt-words-more.js';
import { lexiconWords } from './pt-lexicon.js';

/**
 * Brazilian Portuguese words for the English words schemas are written in (`unitPrice`, `dueDate`,
 * `Customer`), so that an app with no Portuguese vocabulary file is still read, and answered, in
 * Portuguese. The first word is the label (singular); the rest are forms a question may use. A host's
 * own `pt-BR` words are merged over these and come first.
 */
export const PT_WORDS: Readonly<Record<string, readonly string[]>> = {
  // things
  part: ['peça', 'peças'], material: ['material', 'materiais'], project: ['projeto', 'projetos'], task: ['tarefa', 'tarefas'],
  order: ['pedido', 'pedidos'], 'order line': ['linha de pedido', 'linhas de pedido'], line: ['linha', 'linhas'], item: ['item', 'itens'],
  product: ['produto', 'produtos'], customer: ['cliente', 'clientes'], client: ['cliente', 'clientes'], user: ['usuário', 'usuários'],
  ticket: ['chamado', 'chamados', 'ticket', 'tickets'], agent: ['agente', 'agentes', 'atendente', 'atendentes'], team: ['equipe', 'equipes'],
  warehouse: ['armazém', 'armazéns', 'depósito', 'depósitos'], invoice: ['fatura', 'faturas'], payment: ['pagamento', 'pagamentos'],
  employee: ['funcionário', 'funcionários'], event: ['evento', 'eventos'], book: ['livro', 'livros'], author: ['autor', 'autores'],
  loan: ['empréstimo', 'empréstimos'], member: ['membro', 'membros'], supplier: ['fornecedor', 'fornecedores'], category: ['categoria', 'categorias'],
  comment: ['comentário', 'comentários'], message: ['mensagem', 'mensagens'], account: ['conta', 'contas'], company: ['empresa', 'empresas'],
  // fields
  id: ['id', 'código'], name: ['nome', 'nomes'], title: ['título', 'títulos'], status: ['situação', 'status'], state: ['estado'],
  type: ['tipo', 'tipos'], kind: ['tipo', 'tipos'], description: ['descrição'], price: ['preço', 'preços', 'custo', 'custa', 'custam', 'valor'],
  'unit price': ['preço unitário', 'preço', 'preços', 'custo', 'custa', 'custam'], cost: ['custo', 'custos', 'custa', 'custam'],
  amount: ['valor', 'valores', 'quantia'], total: ['total', 'totais', 'valor total'], quantity: ['quantidade', 'quantidades'], stock: ['estoque'],
  budget: ['orçamento', 'orçamentos'], owner: ['dono', 'responsável'], email: ['e-mail', 'email'], phone: ['telefone'], city: ['cidade'],
  country: ['país'], address: ['endereço'], date: ['data'], due: ['prazo', 'vencimento', 'vence', 'vencem'], 'due date': ['prazo', 'vencimento', 'vence', 'vencem'],
  created: ['criado', 'criados', 'criada', 'criadas', 'criação'], 'created at': ['criação', 'criado', 'criados', 'criada', 'criadas'],
  updated: ['atualizado', 'atualizados', 'atualizada', 'atualizadas'], 'updated at': ['atualização', 'atualizado', 'atualizados'],
  placed: ['feito', 'feitos', 'realizado', 'realizados'], 'placed at': ['data do pedido', 'feito', 'feitos', 'realizado', 'realizados'],
  start: ['início', 'começa', 'começam'], end: ['fim', 'termina', 'terminam'], priority: ['prioridade'], rating: ['avaliação', 'nota'],
  weight: ['peso'], density: ['densidade', 'densidades'], size: ['tamanho'], color: ['cor'], year: ['ano'], published: ['publicado', 'publicados'],
  copies: ['cópias', 'exemplares'], returned: ['devolvido', 'devolvidos', 'devolvida', 'devolvidas'], done: ['concluído'], open: ['aberto'],
  sku: ['sku'], note: ['nota', 'observação'], notes: ['notas', 'observações'], subject: ['assunto'], body: ['texto'], score: ['pontuação'],
  'receipt email': ['e-mail do recibo'], 'receipt sent at': ['recibo enviado em'], 'receipt sent': ['recibo enviado'],
  'receipt sent to': ['recibo enviado para'], paid: ['pago'], balance: ['saldo'], lines: ['linhas'], 'borrowed on': ['emprestado em'],
  'due on': ['vencimento'], 'returned on': ['devolução'], 'joined on': ['entrada'], 'full name': ['nome completo'], login: ['login'],
  keeper: ['responsável'], 'published year': ['ano de publicação'], internal: ['interno'],
};

/**
 * Portuguese words for the status-like values schemas are written with in English (an enum's
 * `pending`, `paid`), for answers where the host's file gives none. Masculine, as a field label would
 * take them ("situação: pendente").
 */
export const PT_VALUES: Readonly<Record<string, string>> = {
  open: 'aberto', pending: 'pendente', paid: 'pago', cancelled: 'cancelado', canceled: 'cancelado', solved: 'resolvido',
  closed: 'fechado', active: 'ativo', inactive: 'inativo', done: 'concluído', planning: 'em planejamento', urgent: 'urgente',
  low: 'baixa', normal: 'normal', high: 'alta', shipped: 'enviado', delivered: 'entregue', draft: 'rascunho', archived: 'arquivado',
  completed: 'concluído', failed: 'falhou', refunded: 'reembolsado', charged: 'cobrado', sent: 'enviado',
};

/**
 * The Portuguese words of an English identifier phrase (`unit price`, `due date`): the tables' words
 * for the whole phrase, then the lexicon's (`pt-lexicon.ts`); an identity (`order id`) as the id of
 * its thing ("id de pedido"); else none.
 */
export function portugueseWords(phrase: string): readonly string[] {
  const known = [...(PT_WORDS[phrase] ?? PT_MORE_WORDS[phrase] ?? []), ...lexiconWords(phrase)];
  if (known.length > 0) return [...new Set(known)];
  const thing = /^(.+) id$/.exec(phrase)?.[1];
  const label = thing === undefined ? undefined : portugueseWords(thing)[0];
  return label === undefined ? [] : [`id de ${label}`];
}
