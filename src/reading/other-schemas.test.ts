/**
 * The reading families over schemas that are not the demo's: the library of docs/your-app.md, the
 * helpdesk of examples/helpdesk and the app `plumb init` writes. No rule may lean on the demo's names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedApp } from '../config/index.js';
import type { JsonValue } from '../core/index.js';
import { userActor } from '../core/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import { runCompute } from '../router/index.js';
import { createDispatcher } from '../tools/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { helpdeskHost, libraryHost, openInMemory, templateHost } from './test-support/host-apps.js';

const SECRET = 'other-schemas-secret-0123456789';
const NOW = { now: '2026-12-01T09:00:00Z' };

interface Opened {
  readonly opened: OpenedApp;
  readonly reader: AppReader;
  readonly remove: () => void;
}

async function open(made: { host: OpenedApp['host']; vocabulary?: string; remove: () => void }): Promise<Opened> {
  const opened = await openInMemory(made.host);
  const reader = await createAppReader({
    app: opened.app,
    hostTools: opened.tools,
    ...(made.vocabulary === undefined ? {} : { vocabulary: made.vocabulary }),
    rulebook: { compute: true },
    secret: SECRET,
  });
  return { opened, reader, remove: made.remove };
}

function plan(app: Opened, turn: string, language: Language = 'en'): TurnPlan {
  return app.reader.router().plan(turn, { language, context: NOW });
}

/** The read steps' tool and arguments, and the calculation after them. */
function read(app: Opened, turn: string, language: Language = 'en'): { tool: string | null; arguments: unknown; compute?: unknown }[] {
  const p = plan(app, turn, language);
  expect(p.outcome, turn).toBe('run');
  return p.steps.map((s) => (s.kind === 'compute' ? { tool: null, arguments: {}, compute: s.compute } : { tool: s.selection.tool, arguments: s.selection.arguments }));
}

function filters(app: Opened, turn: string, language: Language = 'en'): unknown {
  const [first] = read(app, turn, language);
  return (first?.arguments as { filters?: unknown } | undefined)?.filters;
}

/** Runs a plan's read and compute steps as a user with these roles (and this id: row permissions go by it). */
async function results(app: Opened, turn: string, roles: readonly string[], id = 'tester'): Promise<JsonValue[]> {
  const p = plan(app, turn);
  const dispatcher = createDispatcher({ tools: [...app.reader.readTools], app: app.opened.app });
  const out: JsonValue[] = [];
  for (const step of p.steps) {
    if (step.kind === 'tool' && step.selection.tool !== null) out.push((await dispatcher.dispatch({ name: step.selection.tool, arguments: step.selection.arguments }, { actor: userActor(id, roles) })) as JsonValue);
    else if (step.kind === 'compute') {
      const computed = runCompute(step, out);
      out.push('value' in computed ? computed.value : computed.error);
    }
  }
  return out;
}

function ids(result: JsonValue | undefined): string[] {
  return ((result as { data?: { id: string }[] } | undefined)?.data ?? []).map((row) => String(row.id)).sort();
}

describe('the library of docs/your-app.md', () => {
  let library: Opened;
  beforeAll(async () => {
    library = await open({ host: libraryHost(), remove: () => undefined });
  });
  afterAll(async () => {
    await library.opened.close();
  });

  it('reads the turns the guide says came back unread', async () => {
    expect(filters(library, 'books by Kazuo Ishiguro')).toEqual({ author: 'Kazuo Ishiguro' });
    expect(filters(library, 'which loans are not returned?')).toEqual({ returnedOn__isnull: true });
    expect(filters(library, 'loans due before 2026-12-05')).toEqual({ dueOn__lt: '2026-12-05' });
    expect(filters(library, 'which books have more than 1 copies?')).toEqual({ copies__gt: 1 });
    expect(filters(library, 'show loan 2')).toEqual({ id: 2 });
    expect(filters(library, 'Kazuo Ishiguro books')).toEqual({ author: 'Kazuo Ishiguro' });
    expect(filters(library, 'books with copies above 1')).toEqual({ copies__gt: 1 });
    expect(ids((await results(library, 'which loans are not returned?', ['librarian']))[0])).toEqual(['2', '3']);
    expect(ids((await results(library, 'show loan 2', ['librarian']))[0])).toEqual(['2']);
  });

  it('reads a field that may be empty as a state: not returned, returned', () => {
    expect(filters(library, 'which loans are returned?')).toEqual({ returnedOn__isnull: false });
    expect(filters(library, 'quais empréstimos não foram devolvidos?', 'pt-BR')).toEqual({ returnedOn__isnull: true });
    expect(read(library, 'how many loans are not returned?')[1]?.compute).toEqual({ operation: 'count', field: null });
    // Said with "when", the same word asks for the date.
    expect(read(library, 'when was loan 2 returned?')[0]?.arguments).toEqual({ fields: ['id', 'returnedOn'], filters: { id: 2 } });
  });

  it('reads rows by number after their noun, one or several', () => {
    expect(filters(library, 'show loans 2 and 3')).toEqual({ id__in: [2, 3] });
    expect(filters(library, 'mostre o empréstimo 2', 'pt-BR')).toEqual({ id: 2 });
    expect(read(library, 'is loan 2 returned?')[1]?.compute).toEqual({ operation: 'exists', field: null });
  });

  it('reads totals and averages of a quantity, with or without "number of"', async () => {
    expect(read(library, 'how many copies are there?')[1]?.compute).toEqual({ operation: 'sum', field: 'copies' });
    expect(read(library, 'what is the average number of copies?')[1]?.compute).toEqual({ operation: 'average', field: 'copies' });
    expect(read(library, 'quantas cópias há no total?', 'pt-BR')[1]?.compute).toEqual({ operation: 'sum', field: 'copies' });
    expect((await results(library, 'how many copies are there?', []))[1]).toBe('7');
    // Of one named row, the count of a quantity is that row's quantity.
    expect(read(library, 'how many copies does Middlemarch have?')[0]?.arguments).toEqual({ fields: ['id', 'title', 'copies'], filters: { title: 'Middlemarch' } });
  });

  it('reads years on a year field and on a date field', () => {
    expect(filters(library, 'books published after 2000')).toEqual({ publishedYear__gt: 2000 });
    expect(filters(library, 'books published in 1989')).toEqual({ publishedYear: 1989 });
    expect(filters(library, 'livros publicados depois de 2000', 'pt-BR')).toEqual({ publishedYear__gt: 2000 });
    expect(filters(library, 'which members joined in 2026?')).toEqual({ joinedOn__gte: '2026-01-01', joinedOn__lt: '2027-01-01' });
    expect(filters(library, 'members who joined before 2026')).toEqual({ joinedOn__lt: '2026-01-01' });
  });

  it('reads yes/no, one attribute, a superlative and a typo in a name of two words', () => {
    expect(read(library, 'do you have Middlemarch?')[1]?.compute).toEqual({ operation: 'exists', field: null });
    expect(read(library, 'when was Never Let Me Go published?')[0]?.arguments).toEqual({ fields: ['id', 'title', 'publishedYear'], filters: { title: 'Never Let Me Go' } });
    expect(read(library, 'which book has the most copies?')[1]?.compute).toEqual({ operation: 'top', field: 'copies', rows: 1 });
    const typo = plan(library, 'books by Kazuo Ishigro');
    expect(typo.steps[0]?.selection.arguments).toMatchObject({ filters: { author: 'Kazuo Ishiguro' } });
    expect(typo.steps[0]?.readAs).toEqual({ Ishigro: 'ishiguro' });
  });

  it('asks to rephrase with what it can read, the library having no tools of its own', () => {
    const unread = plan(library, 'zork the frobnicator');
    expect(unread.guidance?.render).toBe('I could not read that. I can answer questions about books, loans and members; ask, for example: "show me all books".');
  });

  it('reads the verb of an agent-noun field: the field asked of a row, or its value', () => {
    expect(read(library, 'who wrote Dom Casmurro?')[0]?.arguments).toEqual({ fields: ['id', 'title', 'author'], filters: { title: 'Dom Casmurro' } });
    expect(filters(library, 'livros escritos por Machado de Assis', 'pt-BR')).toEqual({ author: 'Machado de Assis' });
    expect(filters(library, 'which books did Kazuo Ishiguro write?')).toEqual({ author: 'Kazuo Ishiguro' });
  });

  it('leaves unread what its words do not say', () => {
    for (const turn of ['who wrote Machado de Assis?', 'books by Kazuo', 'is Never Let Me Go out?', 'compare copies of Middlemarch and Dom Casmurro']) expect(plan(library, turn).outcome, turn).toBe('unread');
  });
});

describe('the helpdesk of examples/helpdesk', () => {
  let helpdesk: Opened;
  beforeAll(async () => {
    helpdesk = await open(await helpdeskHost());
  });
  afterAll(async () => {
    await helpdesk.opened.close();
    helpdesk.remove();
  });

  it('reads its own words for statuses and priorities, and sets through relations', () => {
    expect(filters(helpdesk, 'which cases are closed?')).toEqual({ status: 'solved' });
    expect(filters(helpdesk, 'open tickets of the Hardware team')).toEqual({ status: 'open', team__name: 'Hardware' });
    expect(filters(helpdesk, 'tickets of Nordlicht GmbH')).toEqual({ customer__company: 'Nordlicht GmbH' });
    expect(filters(helpdesk, 'which agents are in Billing?')).toEqual({ team__name: 'Billing' });
  });

  it('reads rows of another manager by number through the relation to it', async () => {
    expect(filters(helpdesk, 'comments of ticket 1001')).toEqual({ ticket__id: 1001 });
    expect(read(helpdesk, 'how many comments does ticket 1001 have?')[1]?.compute).toEqual({ operation: 'count', field: null });
    expect((await results(helpdesk, 'how many comments does ticket 1001 have?', ['agent'], 'maya'))[1]).toBe('2');
    expect(read(helpdesk, 'what is the status of ticket 1004?')[0]?.arguments).toEqual({ fields: ['id', 'status'], filters: { id: 1004 } });
  });

  it('reads dates, a ranking by the date said next to it, yes/no and a follow-up', () => {
    expect(filters(helpdesk, 'tickets opened in November')).toEqual({ openedAt__gte: '2026-11-01T00:00:00+00:00', openedAt__lt: '2026-12-01T00:00:00+00:00' });
    expect(read(helpdesk, 'which ticket was opened most recently?')[1]?.compute).toEqual({ operation: 'top', field: 'openedAt', rows: 1 });
    expect(read(helpdesk, 'the oldest open ticket')[1]?.compute).toEqual({ operation: 'bottom', field: 'openedAt', rows: 1 });
    expect(read(helpdesk, 'is ticket 1001 urgent?')[0]?.arguments).toMatchObject({ filters: { id: 1001, priority: 'urgent' } });
    const session = helpdesk.reader.router().session();
    session.read('tickets of Lena Berg', { context: NOW });
    expect(session.read('and Tom Okafor?', { context: NOW }).steps[0]?.selection.arguments).toMatchObject({ filters: { customer__fullName: 'Tom Okafor' } });
  });

  it('leaves the write to its tool, and a typo of its noun read', () => {
    expect(plan(helpdesk, 'assign ticket 1002 to "ines"').steps[0]?.selection.tool).toBe('assign_ticket');
    expect(filters(helpdesk, 'tickts that are open')).toEqual({ status: 'open' });
    expect(plan(helpdesk, 'which team handles ticket 1003?').outcome).toBe('unread');
  });
});

describe('the app plumb init writes', () => {
  let template: Opened;
  beforeAll(async () => {
    template = await open(await templateHost());
  });
  afterAll(async () => {
    await template.opened.close();
    template.remove();
  });

  it('reads its examples and the families over warehouses and items', () => {
    expect(read(template, 'list the warehouses')[0]?.tool).toBe('query_warehouse');
    expect(read(template, 'how many items are there?')[1]?.compute).toEqual({ operation: 'count', field: null });
    expect(plan(template, 'restock item 3 with 20 units').steps[0]?.selection).toMatchObject({ tool: 'restock_item', arguments: { item_id: '3', quantity: 20 } });
    expect(filters(template, 'items in Lisbon Central')).toEqual({ warehouse__name: 'Lisbon Central' });
    expect(filters(template, 'items with quantity below 10')).toEqual({ quantity__lt: 10 });
    expect(read(template, 'total quantity of items in Lisbon Central')[1]?.compute).toEqual({ operation: 'sum', field: 'quantity' });
    expect(read(template, 'the most expensive item')[1]?.compute).toEqual({ operation: 'top', field: 'price', rows: 1 });
    expect(read(template, 'what is the price of Shrink wrap?')[0]?.arguments).toEqual({ fields: ['id', 'name', 'price'], filters: { name: 'Shrink wrap' } });
    expect(filters(template, 'show item 2')).toEqual({ id: 2 });
  });

  it('reads a field named before its own value, a code with digits in it, and Portuguese', () => {
    expect(filters(template, 'is there an item with sku PJ-01?')).toEqual({ sku: 'PJ-01' });
    expect(filters(template, 'quantos itens há no Porto Docks?', 'pt-BR')).toEqual({ warehouse__name: 'Porto Docks' });
    expect(filters(template, 'itens com quantidade abaixo de 10', 'pt-BR')).toEqual({ quantity__lt: 10 });
    expect(read(template, 'qual o preço do Shrink wrap?', 'pt-BR')[0]?.arguments).toEqual({ fields: ['id', 'name', 'price'], filters: { name: 'Shrink wrap' } });
  });
});
