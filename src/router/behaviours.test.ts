import { describe, expect, it } from 'vitest';
import type { Language, TurnPlan } from './index.js';
import { createRouter } from './index.js';
import { demoRouter } from '../../test/support/demo-router.js';

const NOW = { now: '2026-10-19T09:00:00-03:00' };
const tools = (plan: TurnPlan): (string | null)[] => plan.steps.map((s) => s.selection.tool);

function both(name: string, cases: Readonly<Record<Language, string>>, check: (plan: TurnPlan, language: Language) => void, rulebook: Parameters<typeof demoRouter>[0] = {}): void {
  describe(name, () => {
    for (const language of ['en', 'pt-BR'] as const) {
      it(`in ${language}: ${cases[language]}`, () => {
        check(demoRouter(rulebook).plan(cases[language], { language, context: NOW }), language);
      });
    }
  });
}

both('selects the tool its trigger names and fills arguments by cue', { en: 'show me order 4411', 'pt-BR': 'mostre o pedido 4411' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(tools(plan)).toEqual(['get_order']);
  expect(plan.steps[0]?.selection.arguments).toEqual({ order_id: '4411' });
  expect(plan.steps[0]?.selection.sources).toEqual({ order_id: 'turn' });
  expect(plan.steps[0]?.decidedBy).toMatch(/^T1 trigger /);
});

both('asks for a missing value in the turn\'s language', { en: 'charge order 4411', 'pt-BR': 'cobre o pedido 4411' }, (plan, language) => {
  expect(plan.outcome).toBe('ask');
  expect(plan.steps[0]?.kind).toBe('ask');
  expect(plan.steps[0]?.selection.missing).toEqual(['amount']);
  expect(plan.steps[0]?.selection.question).toBe(language === 'en' ? 'To charge card, which amount?' : 'Para cobrar o cartão, qual valor?');
});

both('reads a decimal as typed in the language (40.00, 40,00)', { en: 'charge order 4411 40.00', 'pt-BR': 'cobre o pedido 4411 no valor de 40,00' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(plan.steps[0]?.selection.arguments).toEqual({ amount: '40.00', order_id: '4411' });
  expect(plan.steps[0]?.confirmation).toMatch(/40\.00/);
});

both('makes a read step per value and asks which for a write', { en: 'show orders 4411 and 4412', 'pt-BR': 'mostre os pedidos 4411 e 4412' }, (plan) => {
  expect(plan.steps.map((s) => s.selection.arguments['order_id'])).toEqual(['4411', '4412']);
  expect(plan.steps.every((s) => s.decidedBy === 'M1 each order_id')).toBe(true);
});

both('asks which value a write takes', { en: 'charge orders 4411 and 4412 40.00', 'pt-BR': 'cobre os pedidos 4411 e 4412 no valor de 40,00' }, (plan) => {
  expect(plan.outcome).toBe('ask');
  expect(plan.steps[0]?.decidedBy).toBe('Q2 several order_id: 4411, 4412');
});

both('runs one write per value where the rulebook allows batch writes', { en: 'charge orders 4411 and 4412 40.00', 'pt-BR': 'cobre os pedidos 4411 e 4412 no valor de 40,00' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(plan.steps.map((s) => s.selection.arguments['order_id'])).toEqual(['4411', '4412']);
}, { batchWrites: true });

both('names the thing made in supplied', { en: 'create a project called Alpha and then add a task "Draft" to it', 'pt-BR': 'crie um projeto chamado Alpha e depois adicione uma tarefa "Rascunho" nele' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(tools(plan)).toEqual(['create_project', 'add_task']);
  expect(plan.steps[0]?.selection.arguments).toEqual({ name: 'Alpha' });
  expect(plan.steps[1]?.supplied).toEqual({ project_id: 0 });
  expect(plan.steps[1]?.dependsOn).toEqual([0]);
});

both('declines a calculation where compute is off', { en: 'what is the average total of orders 4411 and 4412', 'pt-BR': 'qual é a média do total dos pedidos 4411 e 4412' }, (plan, language) => {
  expect(plan.outcome).toBe('declined');
  expect(plan.declinedBecause).toBe(language === 'en' ? 'compute off: average, total is a calculation, and this host runs none' : 'compute off: média, total is a calculation, and this host runs none');
  expect(plan.toModel).toEqual([]);
});

both('adds a compute step over the reads it depends on where compute is on', { en: 'what is the average total of orders 4411 and 4412', 'pt-BR': 'qual é a média do total dos pedidos 4411 e 4412' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(plan.steps.map((s) => s.kind)).toEqual(['tool', 'tool', 'compute']);
  expect(plan.steps[2]?.compute).toEqual({ operation: 'average', field: 'total' });
  expect(plan.steps[2]?.dependsOn).toEqual([0, 1]);
}, { compute: true });

both('declines a destination no parameter takes, and runs nothing', { en: 'send the receipt for order 4411 to https://receipts.invalid/drop', 'pt-BR': 'envie o recibo do pedido 4411 para https://receipts.invalid/drop' }, (plan) => {
  expect(plan.outcome).toBe('declined');
  expect(plan.declinedBecause).toBe('S2 destination: https://receipts.invalid/drop');
  expect(plan.toModel).toEqual([]);
});

both('takes a destination its parameter takes', { en: 'send the receipt for order 4411 to ana@example.com', 'pt-BR': 'envie o recibo do pedido 4411 para ana@example.com' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(plan.steps[0]?.selection.arguments).toEqual({ email: 'ana@example.com', order_id: '4411' });
});

both('reads an availability question as listing the period', { en: 'am I free on Thursday afternoon?', 'pt-BR': 'estou livre quinta à tarde?' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(plan.steps[0]?.decidedBy).toBe('D1 availability');
  expect(plan.steps[0]?.selection.arguments).toEqual({ time_min: '2026-10-22T12:00:00-03:00', time_max: '2026-10-22T18:00:00-03:00' });
});

both('gives a tool with one date parameter the period\'s start', { en: 'add a task "Call Bob" to project 12 due tomorrow', 'pt-BR': 'adicione uma tarefa "Ligar" ao projeto 12 para amanhã' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(plan.steps[0]?.selection.arguments['due']).toBe('2026-10-20');
  expect(plan.steps[0]?.selection.arguments['project_id']).toBe('12');
});

both('cuts free text at the next parameter\'s cue', { en: 'add a task called Write docs to project 12', 'pt-BR': 'adicione uma tarefa chamada Escrever a documentação ao projeto 12' }, (plan, language) => {
  expect(plan.outcome).toBe('run');
  expect(plan.steps[0]?.selection.arguments).toEqual({ project_id: '12', title: language === 'en' ? 'Write docs' : 'Escrever a documentação' });
});

both('asks which of two tools a turn names', { en: 'refund or charge order 4411', 'pt-BR': 'cobrar ou reembolsar o pedido 4411' }, (plan) => {
  expect(plan.outcome).toBe('ask');
  expect([...(plan.steps[0]?.selection.candidates ?? [])].sort()).toEqual(['charge_card', 'refund_order']);
  expect(plan.steps[0]?.decidedBy).toBe('Q3 candidates');
});

both('says unread rather than guessing, and suggests a phrasing', { en: 'zork the frobnicator', 'pt-BR': 'zork o frobnicador' }, (plan, language) => {
  expect(plan.outcome).toBe('unread');
  expect(plan.guidance?.next).toBe('Rephrase');
  expect(plan.guidance?.render).toMatch(language === 'en' ? /^I could not read that/ : /^Não consegui entender/);
});

both('refuses a read verb for a write tool', { en: 'what was charged on order 4411', 'pt-BR': 'qual foi a cobrança do pedido 4411' }, (plan) => {
  expect(tools(plan)).not.toContain('charge_card');
});

both('names the saga in an irreversible step followed by a write', { en: 'charge order 4411 40.00 and then send the receipt to ana@example.com', 'pt-BR': 'cobre o pedido 4411 no valor de 40,00 e depois envie o recibo para ana@example.com' }, (plan, language) => {
  expect(plan.outcome).toBe('run');
  expect(plan.saga).toEqual([{ irreversible: 0, writes: [1] }]);
  expect(plan.steps[1]?.selection.arguments).toEqual({ email: 'ana@example.com', order_id: '4411' });
  expect(plan.steps[0]?.confirmation).toContain(language === 'en' ? 'cannot be undone' : 'Não pode ser desfeito');
});

describe('a route between two places', () => {
  const router = createRouter({
    secret: 'route-secret-0123456789',
    catalogue: [{ name: 'get_directions', description: 'Driving directions between two places.', effect: 'read', parameters: { type: 'object', properties: { start: { type: 'string' }, end: { type: 'string' } }, required: ['start', 'end'] } }],
    vocabulary: { languages: { en: { tools: { get_directions: { triggers: ['directions'] } } }, 'pt-BR': { tools: { get_directions: { triggers: ['rota', 'caminho'] } } } } },
  });

  it('in en: fills the start and the end from "from X to Y"', () => {
    expect(router.plan('directions from New York to Los Angeles').steps[0]?.selection.arguments).toEqual({ end: 'Los Angeles', start: 'New York' });
  });

  it('in pt-BR: fills them from "de X para Y"', () => {
    expect(router.plan('qual a rota de São Paulo para Belo Horizonte', { language: 'pt-BR' }).steps[0]?.selection.arguments).toEqual({ end: 'Belo Horizonte', start: 'São Paulo' });
  });
});

describe('language', () => {
  it('is chosen, never guessed: a Portuguese turn read as English is unread', () => {
    expect(demoRouter().plan('mostre o pedido 4411').outcome).toBe('unread');
    expect(demoRouter().plan('mostre o pedido 4411', { language: 'pt-BR' }).outcome).toBe('run');
  });

  it('reads Portuguese with or without accents', () => {
    const a = demoRouter().plan('estou livre quinta à tarde?', { language: 'pt-BR', context: NOW });
    const b = demoRouter().plan('estou livre quinta a tarde?', { language: 'pt-BR', context: NOW });
    expect(b.steps[0]?.selection.arguments).toEqual(a.steps[0]?.selection.arguments);
  });

  it('leaves European Portuguese forms and other languages unread', () => {
    expect(demoRouter().plan('estou a procurar o pedido 4411', { language: 'pt-BR' }).steps[0]?.decidedBy).toBe('U2 language');
    expect(demoRouter().plan('muéstrame el pedido 4411', { language: 'pt-BR' }).outcome).toBe('unread');
  });

  it('refuses a language it does not read', () => {
    expect(() => demoRouter().plan('hallo', { language: 'de' })).toThrow(/Languages: en, pt-BR/);
  });
});

describe('dates without a clock', () => {
  it('keeps a date as typed where the context has no now', () => {
    const plan = demoRouter().plan('what is on my calendar on Thursday afternoon');
    expect(plan.steps[0]?.selection.arguments['time_min']).toBe('Thursday afternoon');
  });

  it('asks to say it again when no read tool takes a start and an end', () => {
    const router = demoRouter();
    const plan = router.plan('am I free tomorrow?', { context: NOW });
    expect(plan.outcome).toBe('run');
    const noCalendar = demoRouter({}).plan('zork', { context: NOW });
    expect(noCalendar.outcome).toBe('unread');
  });
});

// A second question after ", and" is a clause of its own: a tool that reads one part never answers the whole.
both(
  'leaves a turn unread whose second question, after a comma and "and", is read but whose first is not',
  { en: 'what portion of Apollo tasks is late, and how does that compare with order 4411?', 'pt-BR': 'qual parte das tarefas do Apollo está atrasada, e como isso se compara com o pedido 4411?' },
  (plan) => {
    expect(plan.outcome).toBe('unread');
    expect(plan.steps.filter((s) => s.kind === 'tool')).toEqual([]);
  },
);

both(
  'cuts before a yes/no or where question after ", and" too',
  { en: "what share of Apollo's budget is spent, and is order 4411 paid?", 'pt-BR': 'quanto do orçamento do Apollo foi gasto, e cadê o pedido 4411?' },
  (plan) => {
    expect(plan.outcome).toBe('unread');
    expect(plan.steps.filter((s) => s.kind === 'tool')).toEqual([]);
  },
);

both('keeps one clause where "and" joins values, not questions', { en: 'show orders 4411 and 4412', 'pt-BR': 'mostre os pedidos 4411 e 4412' }, (plan) => {
  expect(plan.outcome).toBe('run');
  expect(tools(plan)).toEqual(['get_order', 'get_order']);
});

both(
  'leaves a total of one row read by its identifier unread: the words name no field of it',
  { en: 'tell me, in a roundabout way, the sum order 4411 came to', 'pt-BR': 'me diga, de um jeito indireto, a soma a que o pedido 4411 chegou' },
  (plan) => {
    expect(plan.outcome).toBe('unread');
    expect(plan.steps.some((s) => s.decidedBy.startsWith('U12 one row'))).toBe(true);
  },
  { compute: true },
);

both(
  'cuts before how, who or where after "and" even without a comma: the first question alone is not the whole',
  { en: 'show me order 4411 and who placed it', 'pt-BR': 'mostre o pedido 4411 e quem fez ele' },
  (plan) => {
    expect(plan.outcome).toBe('unread');
  },
);
