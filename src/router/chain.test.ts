import { describe, expect, it } from 'vitest';
import { demoRulebookYaml } from '../demo/router/index.js';
import type { CatalogueEntry, JsonSchema } from './index.js';
import { createRouter } from './index.js';
import { SECRET } from '../../test/support/demo-router.js';

const idOf = (name: string): JsonSchema => ({ type: 'object', properties: { [name]: { type: 'string' } }, required: [name] });

/** A shop where cancelling "the latest order of the customer named Ana Lima" takes two lookups first. */
const shop: CatalogueEntry[] = [
  { name: 'find_customer', description: 'Find a customer by name.', parameters: idOf('name'), effect: 'read', outputs: { identity: 'id' } },
  { name: 'latest_order', description: "A customer's latest order.", parameters: idOf('customer_id'), effect: 'read', outputs: { identity: 'id' } },
  { name: 'cancel_order', description: 'Cancel an order.', parameters: idOf('order_id'), effect: 'write' },
];

/** The same shop where a customer is found through an account, found through a login: four rounds. */
const deep: CatalogueEntry[] = [
  { name: 'find_login', description: 'Find a login by name.', parameters: idOf('name'), effect: 'read', outputs: { identity: 'id' } },
  { name: 'login_account', description: "A login's account.", parameters: idOf('login_id'), effect: 'read', outputs: { identity: 'id' } },
  { name: 'account_customer', description: "An account's customer.", parameters: idOf('account_id'), effect: 'read', outputs: { identity: 'id' } },
  { name: 'latest_order', description: "A customer's latest order.", parameters: idOf('customer_id'), effect: 'read', outputs: { identity: 'id' } },
  { name: 'cancel_order', description: 'Cancel an order.', parameters: idOf('order_id'), effect: 'write' },
];

const vocabulary = `settings:
  language: en
languages:
  en:
    tools:
      cancel_order: { triggers: [cancel the order, cancel order, cancel], label: cancel the order }
    parameters:
      order_id: { cues: [order number, order no], label: order }
      name: { cues: [named, called], label: name }
  pt-BR:
    tools:
      cancel_order: { triggers: [cancele o pedido, cancelar o pedido, cancele], label: cancelar o pedido }
    parameters:
      order_id: { cues: [pedido numero, pedido no], label: pedido }
      name: { cues: [chamado, chamada, de nome], label: nome }
`;

const routerOver = (catalogue: readonly CatalogueEntry[]) => createRouter({ catalogue, rulebook: demoRulebookYaml, vocabulary, secret: SECRET });

const turns = {
  en: { turn: 'cancel the latest order of the customer named Ana Lima', none: 'Looking up find customer (name Ana Lima) found nothing. To cancel the order, which order?', several: 'Looking up latest order (customer id c-7) found several: o-1 and o-2. To cancel the order, which order?' },
  'pt-BR': { turn: 'cancele o último pedido da cliente chamada Ana Lima', none: 'A consulta find customer (name Ana Lima) não encontrou nada. Para cancelar o pedido, qual pedido?', several: 'A consulta latest order (customer id c-7) encontrou vários: o-1 e o-2. Para cancelar o pedido, qual pedido?' },
} as const;

describe.each(['en', 'pt-BR'] as const)('a lookup that takes two rounds (%s)', (language) => {
  const { turn, none, several } = turns[language];

  it('names both calls, the second taking the first one\'s value', () => {
    const plan = routerOver(shop).session({ language }).read(turn);
    expect(plan.outcome).toBe('ask');
    expect(plan.chain).toEqual([
      { step: 0, parameter: 'customer_id', tool: 'find_customer', arguments: { name: 'Ana Lima' }, identity: 'id', round: 0, supplied: {}, feeds: 1 },
      { step: 0, parameter: 'order_id', tool: 'latest_order', arguments: {}, identity: 'id', round: 1, supplied: { customer_id: 0 }, feeds: null },
    ]);
  });

  it('makes the calls a round at a time through lookUp, and the write is ready to confirm', async () => {
    const chat = routerOver(shop).session({ language });
    const plan = chat.read(turn);
    const calls: string[] = [];
    const done = await chat.lookUp(plan, (tool, args) => {
      calls.push(`${tool} ${JSON.stringify(args)}`);
      return tool === 'find_customer' ? [{ id: 'c-7', name: 'Ana Lima' }] : { id: 'o-9', total: '40.00' };
    });
    expect(calls).toEqual(['find_customer {"name":"Ana Lima"}', 'latest_order {"customer_id":"c-7"}']);
    expect(done?.outcome).toBe('run');
    expect(done?.steps[0]?.selection.arguments).toEqual({ order_id: 'o-9' });
    expect(done?.steps[0]?.selection.sources).toEqual({ order_id: 'reply' });
    expect(chat.confirm(done!).arguments).toEqual({ order_id: 'o-9' });
  });

  it('takes the results a round at a time through answered, or all at once', () => {
    const chat = routerOver(shop).session({ language });
    const plan = chat.read(turn);
    const half = chat.answered(plan, [{ id: 'c-7' }]);
    expect(half?.outcome).toBe('ask');
    expect(half?.chain).toEqual([{ step: 0, parameter: 'order_id', tool: 'latest_order', arguments: { customer_id: 'c-7' }, identity: 'id', round: 0, supplied: {}, feeds: null }]);
    expect(chat.answered(half!, [{ id: 'o-9' }])?.steps[0]?.selection.arguments).toEqual({ order_id: 'o-9' });
    expect(chat.answered(plan, [{ id: 'c-7' }, [{ id: 'o-9' }]])?.outcome).toBe('run');
    expect(chat.answered(plan, [])).toBeNull();
  });

  it('stays asking, and says why, when a round finds nothing', async () => {
    const chat = routerOver(shop).session({ language });
    const calls: string[] = [];
    const stuck = await chat.lookUp(chat.read(turn), (tool) => {
      calls.push(tool);
      return [];
    });
    expect(calls).toEqual(['find_customer']);
    expect(stuck?.outcome).toBe('ask');
    expect(stuck?.chain).toEqual([]);
    expect(stuck?.steps[0]?.selection.arguments).toEqual({});
    expect(stuck?.steps[0]?.selection.question).toBe(none);
    expect(chat.read('4411').steps[0]?.selection.arguments).toEqual({ order_id: '4411' });
  });

  it('stays asking, guessing none, when a round finds several', async () => {
    const chat = routerOver(shop).session({ language });
    const stuck = await chat.lookUp(chat.read(turn), (tool) => (tool === 'find_customer' ? { id: 'c-7' } : [{ id: 'o-1' }, { id: 'o-2' }]));
    expect(stuck?.outcome).toBe('ask');
    expect(stuck?.steps[0]?.selection.arguments).toEqual({});
    expect(stuck?.steps[0]?.selection.question).toBe(several);
  });

  it('names no calls when the chain would take more rounds than allowed', async () => {
    const chat = routerOver(deep).session({ language });
    const plan = chat.read(turn);
    expect(plan.outcome).toBe('ask');
    expect(plan.chain).toEqual([]);
    let called = 0;
    expect(
      await chat.lookUp(plan, () => {
        called++;
        return { id: 'x' };
      }),
    ).toBeNull();
    expect(called).toBe(0);
  });
});

describe('a chain within the bound', () => {
  it('takes three rounds when each round gives one value', async () => {
    const chat = routerOver(deep.filter((t) => t.name !== 'find_login').map((t) => (t.name === 'login_account' ? { ...t, name: 'find_account', description: 'Find an account by name.', parameters: idOf('name') } : t))).session();
    const plan = chat.read('cancel the latest order of the customer named Ana Lima');
    expect(plan.chain.map((l) => [l.tool, l.round])).toEqual([
      ['find_account', 0],
      ['account_customer', 1],
      ['latest_order', 2],
    ]);
    const calls: string[] = [];
    const done = await chat.lookUp(plan, (tool, args) => {
      calls.push(`${tool} ${JSON.stringify(args)}`);
      return { id: `${tool}-1` };
    });
    expect(calls).toEqual(['find_account {"name":"Ana Lima"}', 'account_customer {"account_id":"find_account-1"}', 'latest_order {"customer_id":"account_customer-1"}']);
    expect(done?.steps[0]?.selection.arguments).toEqual({ order_id: 'latest_order-1' });
  });
});
