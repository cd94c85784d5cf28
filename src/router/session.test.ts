import { describe, expect, it } from 'vitest';
import { demoCatalogue, demoRulebookYaml, demoVocabularyYaml } from '../demo/router/index.js';
import type { CatalogueEntry, ToolCheck } from './index.js';
import { catalogueFromTools, createRouter, resultIdentity, sessionFromJSON } from './index.js';
import { demoRouter, SECRET } from '../../test/support/demo-router.js';

function confirmedCharge() {
  const router = demoRouter();
  const chat = router.session();
  const plan = chat.read('charge order 4411 40.00');
  const token = chat.confirm(plan);
  return { router, chat, plan, token };
}

describe('a session in JSON', () => {
  it('round-trips byte for byte and goes on after a restore', () => {
    const router = demoRouter();
    const chat = router.session({ agent: 'desk', context: { now: '2026-10-19T09:00:00+01:00', customer: 'c-7' } });
    chat.read('zork');
    const plan = chat.read('charge order 4411 40.00');
    const check = chat.checkToolCall({ tool: 'charge_card', arguments: plan.steps[0]!.selection.arguments, token: chat.confirm(plan) });
    chat.ran(check, 'ran');
    chat.thumbs(plan, { up: true });
    chat.read('charge order 4412');
    const saved = chat.toJSON();
    const restored = sessionFromJSON(router, saved);
    expect(restored.toJSON()).toBe(saved);
    const next = restored.read('40.00');
    expect(next.outcome).toBe('run');
    expect(next.steps[0]?.selection.sources).toEqual({ amount: 'reply', order_id: 'turn' });
  });

  it('holds no machine time: two sessions fed the same turns write the same JSON', () => {
    const write = (): string => {
      const chat = demoRouter().session({ sessionId: 'fixed' });
      chat.read('show me order 4411');
      return chat.toJSON();
    };
    expect(write()).toBe(write());
  });

  it('refuses a session saved against another catalogue', () => {
    const saved = demoRouter().session().toJSON();
    const other = createRouter({ catalogue: demoCatalogue.slice(1), rulebook: demoRulebookYaml, vocabulary: demoVocabularyYaml, secret: SECRET });
    expect(() => sessionFromJSON(other, saved)).toThrow(expect.objectContaining({ code: 'router_session_catalogue_mismatch' }));
  });

  it('refuses text that is not a saved session', () => {
    expect(() => sessionFromJSON(demoRouter(), '{"format":9}')).toThrow(expect.objectContaining({ code: 'router_invalid_session' }));
    expect(() => sessionFromJSON(demoRouter(), 'nope')).toThrow(expect.objectContaining({ code: 'router_invalid_session' }));
  });
});

describe('rephrasing and unread turns', () => {
  it('asks to rephrase once by default, then defers', () => {
    const chat = demoRouter().session();
    expect(chat.read('zork').guidance?.next).toBe('Rephrase');
    const second = chat.read('zork');
    expect(second.guidance?.next).toBe('Defer');
    expect(second.toModel).toEqual([]);
    expect(second.guidance?.render).toMatch(/no model/);
  });

  it('bounds the requests by maxRephrase and skips them with askToRephrase false', () => {
    const twice = demoRouter({ maxRephrase: 2 }).session();
    expect([twice.read('zork'), twice.read('zork'), twice.read('zork')].map((p) => p.guidance?.next)).toEqual(['Rephrase', 'Rephrase', 'Defer']);
    const never = demoRouter({ askToRephrase: false }).session({ onUnread: 'model' });
    const plan = never.read('zork');
    expect(plan.guidance?.next).toBe('Defer');
    expect(plan.toModel).toEqual([0]);
  });

  it('reads "estou livre" with no calendar as unread, asking to say it again', () => {
    const catalogue = demoCatalogue.filter((t) => t.name !== 'list_events');
    const router = createRouter({ catalogue, rulebook: demoRulebookYaml, vocabulary: demoVocabularyYaml, secret: SECRET });
    const plan = router.plan('estou livre quinta à tarde?', { language: 'pt-BR', context: { now: '2026-10-19T09:00:00-03:00' } });
    expect(plan.outcome).toBe('unread');
    expect(plan.steps[0]?.decidedBy).toBe('U3 availability');
    expect(plan.guidance?.render).toMatch(/^Não sei em que lista procurar/);
  });
});

describe('answers in a session', () => {
  it('reads the reply that picks one of two candidates', () => {
    const chat = demoRouter().session();
    expect(chat.read('refund or charge order 4411').outcome).toBe('ask');
    const plan = chat.read('charge');
    expect(plan.steps[0]?.selection.tool).toBe('charge_card');
    expect(plan.steps[0]?.selection.question).toBe('To charge card, which amount?');
  });

  it('reads the reply that picks one of several values', () => {
    const chat = demoRouter().session({ language: 'pt-BR' });
    expect(chat.read('cobre os pedidos 4411 e 4412 no valor de 40,00').outcome).toBe('ask');
    const plan = chat.read('o 4412');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.arguments).toEqual({ amount: '40.00', order_id: '4412' });
  });

  it('takes a free-text answer whole', () => {
    const chat = demoRouter().session();
    expect(chat.read('create a project called Alpha and then add a task to it').outcome).toBe('ask');
    const plan = chat.read('Write the brief');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[1]?.selection.arguments).toEqual({ title: 'Write the brief' });
    expect(plan.steps[1]?.supplied).toEqual({ project_id: 0 });
  });

  it('reads a turn that answers nothing on its own', () => {
    const chat = demoRouter().session();
    chat.read('charge order 4411');
    expect(chat.read('show me order 4412').steps[0]?.selection.tool).toBe('get_order');
  });

  const withFinder: CatalogueEntry[] = [
    ...demoCatalogue,
    {
      name: 'find_project',
      description: 'Find a project by name.',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      effect: 'read',
      outputs: { identity: 'id' },
    },
  ];

  it('completes an ask through lookUp when another call gives the missing identity', async () => {
    const router = createRouter({ catalogue: withFinder, rulebook: demoRulebookYaml, vocabulary: demoVocabularyYaml, secret: SECRET });
    const chat = router.session();
    const plan = chat.read('add a task "Draft" to the project named Alpha');
    expect(plan.outcome).toBe('ask');
    expect(plan.chain).toEqual([{ step: 0, parameter: 'project_id', tool: 'find_project', arguments: { name: 'Alpha' }, identity: 'id', round: 0, supplied: {}, feeds: null }]);
    const calls: string[] = [];
    const done = await chat.lookUp(plan, (tool, args) => {
      calls.push(`${tool} ${JSON.stringify(args)}`);
      return [{ id: '12', name: 'Alpha' }];
    });
    expect(calls).toEqual(['find_project {"name":"Alpha"}']);
    expect(done?.outcome).toBe('run');
    expect(done?.steps[0]?.selection.arguments).toEqual({ project_id: '12', title: 'Draft' });
  });

  it('completes the same ask through answered, and keeps asking when the result is ambiguous', () => {
    const router = createRouter({ catalogue: withFinder, rulebook: demoRulebookYaml, vocabulary: demoVocabularyYaml, secret: SECRET });
    const chat = router.session();
    const plan = chat.read('add a task "Draft" to the project named Alpha');
    const ambiguous = chat.answered(plan, [[{ id: '1' }, { id: '2' }]]);
    expect(ambiguous?.outcome).toBe('ask');
    expect(ambiguous?.steps[0]?.selection.arguments['project_id']).toBeUndefined();
    expect(ambiguous?.steps[0]?.selection.question).toMatch(/^Looking up find project \(name Alpha\) found several: 1 and 2\. /);
    expect(chat.answered(plan, [{ id: '12' }])?.steps[0]?.selection.arguments['project_id']).toBe('12');
  });
});

describe('the tool check', () => {
  it('allows a read and records it', () => {
    const chat = demoRouter().session();
    const check = chat.checkToolCall({ tool: 'get_order', arguments: { order_id: '4411' } });
    expect(check).toMatchObject({ allowed: true, code: 'allowed', effect: 'read' });
    chat.ran(check, 'ran');
    expect(chat.state().history.map((e) => e.kind)).toEqual(['check', 'ran']);
  });

  it('refuses an unknown tool, even one named like an object property', () => {
    const chat = demoRouter().session();
    expect(chat.checkToolCall({ tool: 'drop_tables', arguments: {} }).code).toBe('unknown_tool');
    expect(chat.checkToolCall({ tool: 'constructor', arguments: {} }).code).toBe('unknown_tool');
  });

  it('refuses arguments that do not validate', () => {
    const chat = demoRouter().session();
    const check = chat.checkToolCall({ tool: 'get_order', arguments: { order_id: 'abc' } });
    expect(check.code).toBe('invalid_arguments');
    expect(check.reason).toMatch(/order_id/);
    expect(chat.checkToolCall({ tool: 'get_order', arguments: { order_id: '1', extra: true } }).code).toBe('invalid_arguments');
  });

  it('refuses a write without its confirmation token', () => {
    const chat = demoRouter().session();
    expect(chat.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '40.00' } }).code).toBe('confirmation_required');
  });

  it('allows the confirmed write once, with exactly its arguments', () => {
    const { chat, token } = confirmedCharge();
    expect(token.arguments).toEqual({ amount: '40.00', order_id: '4411' });
    const ok = chat.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '40.00' }, token });
    expect(ok.allowed).toBe(true);
    chat.ran(ok, 'ran');
    expect(chat.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '40.00' }, token }).code).toBe('confirmation_used');
  });

  it('refuses a token for a changed argument', () => {
    const { chat, token } = confirmedCharge();
    expect(chat.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '400.00' }, token }).code).toBe('confirmation_mismatch');
    expect(chat.checkToolCall({ tool: 'refund_order', arguments: { order_id: '4411', amount: '40.00' }, token }).code).toBe('confirmation_mismatch');
  });

  it('refuses a token from another session', () => {
    const { router, token } = confirmedCharge();
    const other = router.session();
    expect(other.sessionId).not.toBe(token.sessionId);
    expect(other.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '40.00' }, token }).code).toBe('confirmation_mismatch');
  });

  it('refuses a forged token', () => {
    const { chat, token } = confirmedCharge();
    const forged = { ...token, arguments: { order_id: '4411', amount: '400.00' } };
    expect(chat.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '400.00' }, token: forged }).code).toBe('confirmation_mismatch');
  });

  it('refuses every call once the stored history was edited', () => {
    const { router, chat, token } = confirmedCharge();
    const check = chat.checkToolCall({ tool: 'get_order', arguments: { order_id: '4411' } });
    chat.ran(check, 'ran');
    const edited = chat.toJSON().replace('"outcome":"ran"', '"outcome":"failed"');
    const restored = sessionFromJSON(router, edited);
    expect(restored.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '40.00' }, token }).code).toBe('history_edited');
    const dropped = JSON.parse(chat.toJSON()) as { history: unknown[] };
    dropped.history = dropped.history.slice(1);
    expect(sessionFromJSON(router, JSON.stringify(dropped)).checkToolCall({ tool: 'get_order', arguments: { order_id: '1' } }).code).toBe('history_edited');
  });

  it('refuses a destination the parameter does not take or the person never named', () => {
    const chat = demoRouter().session();
    chat.read('send the receipt for order 4411 to ana@example.com');
    const plan = chat.read('send the receipt for order 4411 to ana@example.com');
    const token = chat.confirm(plan);
    expect(chat.checkToolCall({ tool: 'send_receipt', arguments: { order_id: '4411', email: 'evil@attacker.invalid' }, token }).code).toBe('destination');
    expect(chat.checkToolCall({ tool: 'send_receipt', arguments: { order_id: '4411', email: 'ana@example.com' }, token }).allowed).toBe(true);
  });

  it('records what became of a call, and refuses to record one it never allowed', () => {
    const chat = demoRouter().session();
    const refused = chat.checkToolCall({ tool: 'nope', arguments: {} });
    expect(() => chat.ran(refused, 'ran')).toThrow(expect.objectContaining({ code: 'router_plan_mismatch' }));
    const check: ToolCheck = chat.checkToolCall({ tool: 'get_order', arguments: { order_id: '1' } });
    for (const outcome of ['failed', 'outcome_unknown', 'compensated'] as const) chat.ran(check, outcome);
    expect(chat.state().history.filter((e) => e.kind === 'ran').map((e) => e.outcome)).toEqual(['failed', 'outcome_unknown', 'compensated']);
  });

  it('refuses to make again a write whose outcome is unknown, until the host records what happened', () => {
    const chat = demoRouter().session();
    const plan = chat.read('charge order 4411 40.00');
    const first = chat.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '40.00' }, token: chat.confirm(plan) });
    chat.ran(first, 'outcome_unknown');
    const again = chat.read('charge order 4411 40.00');
    const second = chat.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '40.00' }, token: chat.confirm(again) });
    expect(second.code).toBe('outcome_unknown');
    chat.ran(first, 'failed');
    const third = chat.read('charge order 4411 40.00');
    expect(chat.checkToolCall({ tool: 'charge_card', arguments: { order_id: '4411', amount: '40.00' }, token: chat.confirm(third) }).allowed).toBe(true);
  });

  it('confirms only a run plan with a write', () => {
    const chat = demoRouter().session();
    expect(() => chat.confirm(chat.read('show me order 4411'))).toThrow(expect.objectContaining({ code: 'router_plan_mismatch' }));
    expect(() => chat.confirm(chat.read('charge order 4411'))).toThrow(expect.objectContaining({ code: 'router_plan_mismatch' }));
  });

  it('binds a supplied identity given at confirmation', () => {
    const chat = demoRouter().session();
    const plan = chat.read('create a project called Alpha and then add a task "Draft" to it');
    const token = chat.confirm(plan, { step: 1, arguments: { project_id: '12' } });
    expect(token.arguments).toEqual({ project_id: '12', title: 'Draft' });
    expect(chat.checkToolCall({ tool: 'add_task', arguments: { project_id: '12', title: 'Draft' }, token }).allowed).toBe(true);
  });
});

describe('values from the context and from earlier steps', () => {
  it('fills a context parameter from the session context, and lets the check take its destination', () => {
    const chat = demoRouter({ contextParameters: { 'send_receipt.email': 'customer_email' } }).session({ context: { customer_email: 'ana@example.com' } });
    const plan = chat.read('send the receipt for order 4411');
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0]?.selection.sources).toEqual({ email: 'context', order_id: 'turn' });
    const token = chat.confirm(plan);
    expect(chat.checkToolCall({ tool: 'send_receipt', arguments: plan.steps[0]!.selection.arguments, token }).allowed).toBe(true);
  });

  it('gives the identity a later step needs from the earlier result', () => {
    expect(resultIdentity({ project_id: '7', id: '1' }, 'project_id')).toBe('7');
    expect(resultIdentity({ code: 'A-1', name: 'x' }, 'country_code')).toBe('A-1');
    expect(resultIdentity([{ id: '12', name: 'Alpha' }], 'project_id')).toBe('12');
    expect(resultIdentity([{ id: '1' }, { id: '2' }], 'project_id')).toBeNull();
    expect(resultIdentity({ name: 'Alpha' }, 'project_id')).toBeNull();
  });
});

describe('catalogueFromTools', () => {
  it('reads Plumb tool definitions as catalogue entries the router plans with', () => {
    const entries = catalogueFromTools([{ name: 'get_weather', description: 'Weather for a city', effect: 'read', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }]);
    const router = createRouter({ catalogue: entries, secret: SECRET, vocabulary: { languages: { en: { tools: { get_weather: { triggers: ['weather'] } } } } } });
    expect(router.plan('weather for "Lisbon"').steps[0]?.selection.arguments).toEqual({ city: 'Lisbon' });
  });

  it('refuses a malformed entry with a message that says what to fix', () => {
    expect(() => createRouter({ catalogue: [{ name: 'x', description: 'd', effect: 'destroy' as 'read', parameters: {} }], secret: SECRET })).toThrow(/Effects: read, write, irreversible/);
    expect(() => createRouter({ catalogue: [], secret: 'short' })).toThrow(expect.objectContaining({ code: 'router_missing_secret' }));
  });

  it('refuses a session saved against another vocabulary', () => {
    const saved = demoRouter().session().toJSON();
    const other = createRouter({ catalogue: demoCatalogue, rulebook: demoRulebookYaml, vocabulary: `${demoVocabularyYaml}\n`.replace('language: en', 'language: pt-BR'), secret: SECRET });
    expect(() => sessionFromJSON(other, saved)).toThrow(/vocabulary digest/);
  });
});

describe('thumbs', () => {
  it('records the person\'s verdict in the session', () => {
    const chat = demoRouter().session();
    const plan = chat.read('show me order 4411');
    chat.thumbs(plan, { up: false });
    expect(chat.state().answered.thumbs).toEqual([{ plan: 1, up: false, outcome: 'run', turn: 'show me order 4411' }]);
  });
});

describe("a session's language", () => {
  it('is chosen, never guessed: a Portuguese turn in an English session is unread', () => {
    const chat = demoRouter().session();
    const plan = chat.read('mostre os pedidos 4411 e 4412');
    expect(plan).toMatchObject({ outcome: 'unread', language: 'en' });
  });

  it('reads a turn in the language the request names, and goes on in it through a reply', () => {
    const chat = demoRouter().session();
    expect(chat.read('mostre os pedidos 4411 e 4412', { language: 'pt-BR' })).toMatchObject({ outcome: 'run', language: 'pt-BR' });
    expect(chat.read('cobre o pedido 4411')).toMatchObject({ outcome: 'ask', language: 'pt-BR' });
    expect(chat.read('40,00')).toMatchObject({ outcome: 'run', language: 'pt-BR' });
    expect(chat.state().answerSettings.language).toBe('pt-BR');
    expect(chat.read('show me order 4411', { language: 'en' })).toMatchObject({ outcome: 'run', language: 'en' });
  });

  it('refuses a language it has no grammar for', () => {
    expect(() => demoRouter().session().read('mostra-me a encomenda', { language: 'pt-PT' })).toThrow(/pt-PT/);
  });
});
