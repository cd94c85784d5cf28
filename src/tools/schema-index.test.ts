import { describe, expect, it } from 'vitest';
import { anonymous, canonicalHash } from '../core/index.js';
import { buildSchemaIndex, createChatDispatcher, findPath, searchManagers } from './index.js';
import type { ChatApp, ChatManager } from './index.js';

function manager(name: string, extra: Partial<ChatManager> = {}): ChatManager {
  return {
    name,
    description: extra.description ?? `${name} records.`,
    fields: extra.fields ?? [
      { name: 'id', type: 'integer', primaryKey: true },
      { name: 'name', type: 'string' },
    ],
    relations: extra.relations ?? [],
    chatExposed: extra.chatExposed ?? true,
  };
}

const shop: ChatManager[] = [
  manager('Customer', { relations: [{ name: 'orders', target: 'Order', kind: 'many', reverseName: 'customer' }] }),
  manager('Order', {
    fields: [
      { name: 'id', type: 'integer', primaryKey: true },
      { name: 'placedAt', type: 'datetime' },
    ],
    relations: [
      { name: 'customer', target: 'Customer', kind: 'one', reverseName: 'orders' },
      { name: 'lines', target: 'OrderLine', kind: 'many', reverseName: 'order' },
      { name: 'auditLog', target: 'AuditLog', kind: 'one', reverseName: 'orders' },
    ],
  }),
  manager('OrderLine', {
    relations: [
      { name: 'order', target: 'Order', kind: 'one', reverseName: 'lines' },
      // Declared on this side only: the path back from Part walks it in reverse.
      { name: 'part', target: 'Part', kind: 'one', reverseName: 'orderLines' },
    ],
  }),
  manager('Part', { description: 'A part made of one material.', relations: [{ name: 'material', target: 'Material', kind: 'one', reverseName: 'parts' }] }),
  manager('Material', { relations: [{ name: 'parts', target: 'Part', kind: 'many', reverseName: 'material' }] }),
  manager('AuditLog', { chatExposed: false, relations: [{ name: 'orders', target: 'Order', kind: 'many' }] }),
  manager('Island'),
];

const noGraphql: ChatApp['graphql'] = () => Promise.reject(new Error('not used'));

describe('the schema index', () => {
  const index = buildSchemaIndex(shop);

  it('holds one sorted entry per exposed manager and leaves hidden managers out', () => {
    expect(index.entries.map((entry) => entry.manager)).toEqual(['Customer', 'Island', 'Material', 'Order', 'OrderLine', 'Part']);
    expect(index.entry('AuditLog')).toBeUndefined();
  });

  it('drops relations and filters that would reach a hidden manager', () => {
    const order = index.entry('Order')!;
    expect(order.relations.map((relation) => relation.name)).toEqual(['customer', 'lines']);
    expect(order.filters).toContain('customer');
    expect(order.filters).not.toContain('auditLog');
    expect(order.filters).toContain('placedAt__gte');
  });

  it('has a stable SHA-256 fingerprint that changes with the exposed schema', () => {
    expect(index.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(buildSchemaIndex([...shop].reverse()).fingerprint).toBe(index.fingerprint);
    expect(buildSchemaIndex(shop.filter((item) => item.name !== 'Island')).fingerprint).not.toBe(index.fingerprint);
  });
});

describe('search_managers', () => {
  const index = buildSchemaIndex(shop);

  it('answers [] for a blank query or no match', () => {
    expect(searchManagers(index, '   ')).toEqual([]);
    expect(searchManagers(index, 'zebra')).toEqual([]);
  });

  it('matches plural query terms in their singular form', () => {
    expect(searchManagers(index, 'customers')[0]?.manager).toBe('Customer');
    expect(searchManagers(index, 'categories').length).toBe(0);
  });

  it('keeps only managers that match every term when some do, those reaching a term through relations ranked after', () => {
    expect(searchManagers(index, 'part material').map((entry) => entry.manager)).toEqual(['Part', 'Material', 'OrderLine', 'Order']);
    // Order reaches material only in three relations (lines__part__material): within the depth, not past it.
    expect(searchManagers(index, 'part material', 2).map((entry) => entry.manager)).toEqual(['Part', 'Material', 'OrderLine']);
  });

  it('finds the manager that reaches a term through a relation path (a chained filter key), up to maxRelationDepth', () => {
    const works: ChatManager[] = [
      manager('Building', { relations: [{ name: 'floors', target: 'Floor', kind: 'many', reverseName: 'building' }] }),
      manager('Floor', { relations: [{ name: 'building', target: 'Building', kind: 'one', reverseName: 'floors' }, { name: 'rooms', target: 'Room', kind: 'many', reverseName: 'floor' }] }),
      manager('Room', { relations: [{ name: 'floor', target: 'Floor', kind: 'one', reverseName: 'rooms' }, { name: 'heater', target: 'Heater', kind: 'one' }] }),
      manager('Heater'),
    ];
    const building = buildSchemaIndex(works);
    // Building reaches heaters in three relations (floors__rooms__heater), Floor in two, Room by its own relation; Heater, named, follows.
    expect(searchManagers(building, 'floors heater').map((entry) => entry.manager)).toEqual(['Floor', 'Room', 'Building', 'Heater']);
    // Past the depth the path is not searched: two relations leave Building without heaters.
    expect(searchManagers(building, 'floors heater', 2).map((entry) => entry.manager)).toEqual(['Floor', 'Room', 'Heater']);
    // With no relation paths only Room holds both words; the managers named follow it.
    expect(searchManagers(building, 'floors heater', 1).map((entry) => entry.manager)).toEqual(['Room', 'Floor', 'Heater']);
    // Every manager a query names stays, whatever the others reach.
    expect(searchManagers(building, 'building floor room heater').map((entry) => entry.manager).sort()).toEqual(['Building', 'Floor', 'Heater', 'Room']);
  });

  it('never finds a hidden manager', () => {
    expect(searchManagers(index, 'audit log').map((entry) => entry.manager)).not.toContain('AuditLog');
  });

  it('puts the exact manager first over 25 near-duplicates and answers exactly 10', () => {
    const crowd = [
      ...Array.from({ length: 25 }, (_, i) => manager(`Invoice${String.fromCharCode(65 + i)}Archive`, { description: 'An invoice archive.' })),
      manager('Invoice', { description: 'A bill sent to a customer.' }),
    ];
    const results = searchManagers(buildSchemaIndex(crowd), 'invoices');
    expect(results).toHaveLength(10);
    expect(results[0]?.manager).toBe('Invoice');
  });

  it('ranks name matches above field matches', () => {
    const items = [
      manager('Widget', { fields: [{ name: 'colour', type: 'string' }] }),
      manager('Colour'),
    ];
    expect(searchManagers(buildSchemaIndex(items), 'colour').map((entry) => entry.manager)).toEqual(['Colour', 'Widget']);
  });
});

describe('find_path', () => {
  const index = buildSchemaIndex(shop);

  it('answers [] from a manager to itself', () => {
    expect(findPath(index, 'Part', 'Part')).toEqual([]);
  });

  it('follows several hops', () => {
    expect(findPath(index, 'Customer', 'Material')).toEqual(['orders', 'lines', 'part', 'material']);
  });

  it('walks relations backwards, including one declared on one side only', () => {
    expect(findPath(index, 'Material', 'Customer')).toEqual(['parts', 'orderLines', 'order', 'customer']);
  });

  it('answers null for unknown, hidden or unconnected managers', () => {
    expect(findPath(index, 'Nope', 'Part')).toBeNull();
    expect(findPath(index, 'Order', 'AuditLog')).toBeNull();
    expect(findPath(index, 'Island', 'Part')).toBeNull();
  });
});

describe('hidden is indistinguishable from unknown', () => {
  const dispatcher = createChatDispatcher({ app: { managers: shop, graphql: noGraphql } });
  const ask = (name: string, args: object) => dispatcher.dispatch({ name, arguments: args }, { actor: anonymous });

  it('for get_manager_schema', async () => {
    expect(await ask('get_manager_schema', { manager: 'AuditLog' })).toBeNull();
    expect(await ask('get_manager_schema', { manager: 'Nope' })).toBeNull();
    expect(await ask('get_manager_schema', { manager: 'Part' })).toMatchObject({ manager: 'Part' });
  });

  it('for find_path', async () => {
    expect(await ask('find_path', { from_manager: 'AuditLog', to_manager: 'Order' })).toEqual(await ask('find_path', { from_manager: 'Nope', to_manager: 'Order' }));
  });

  it('for query', async () => {
    const hidden = (await ask('query', { manager: 'AuditLog', fields: ['name'] })) as { error: { code: string; message: string } };
    const unknown = (await ask('query', { manager: 'Nope', fields: ['name'] })) as { error: { code: string; message: string } };
    expect(hidden.error.code).toBe('not_exposed');
    expect(hidden.error.message.replace('AuditLog', 'X')).toBe(unknown.error.message.replace('Nope', 'X'));
  });

  it('for search_managers', async () => {
    expect(await ask('search_managers', { query: 'AuditLog' })).toEqual([]);
  });
});

describe('tool sets', () => {
  it('offers exactly the five discovery tools, in order, by default', () => {
    const dispatcher = createChatDispatcher({ app: { managers: shop, graphql: noGraphql } });
    expect(dispatcher.definitions().map((tool) => tool.name)).toEqual(['search_managers', 'get_manager_schema', 'find_path', 'query', 'mutate']);
  });

  it('offers one query tool per exposed manager under the direct strategy, mutate only when allowed', () => {
    const app = { managers: shop, graphql: noGraphql };
    const names = createChatDispatcher({ app, settings: { toolStrategy: 'direct' } }).definitions().map((tool) => tool.name);
    expect(names).toEqual(['query_customer', 'query_island', 'query_material', 'query_order', 'query_order_line', 'query_part']);
    const withMutate = createChatDispatcher({ app, settings: { toolStrategy: 'direct', allowedMutations: ['createPart'] } });
    expect(withMutate.definitions().map((tool) => tool.name).at(-1)).toBe('mutate');
  });

  it('refuses settings naming unknown mutations or confirming unallowed ones at startup', () => {
    const app = { managers: shop, graphql: noGraphql };
    expect(() => createChatDispatcher({ app, settings: { allowedMutations: ['dropTables'] } })).toThrow(expect.objectContaining({ code: 'unknown_allowed_mutation' }) as Error);
    expect(() => createChatDispatcher({ app, settings: { allowedMutations: ['createPart'], confirmMutations: ['deletePart'] } })).toThrow(
      expect.objectContaining({ code: 'confirm_mutation_not_allowed' }) as Error,
    );
    expect(() => createChatDispatcher({ app, settings: { maxResults: 0 } })).toThrow(expect.objectContaining({ code: 'invalid_tool_settings' }) as Error);
    expect(() => createChatDispatcher({ app, settings: { colour: 'red' } as never })).toThrow(expect.objectContaining({ code: 'invalid_tool_settings' }) as Error);
  });
});

describe('the fingerprint', () => {
  it('is the SHA-256 of the entries in RFC 8785 canonical JSON', () => {
    const index = buildSchemaIndex(shop);
    expect(index.fingerprint).toBe(canonicalHash(index.entries));
  });
});

describe('catalogue metadata', () => {
  const catalogued: ChatManager[] = [
    { ...manager('Part', { description: 'A part.' }), catalog: { domain: 'manufacturing', useWhen: 'the question concerns designed or purchased components', distinguishFrom: ['Material', 'AuditLog'] } },
    manager('Material'),
    manager('Component', { description: 'A catalogue component of a supplier.' }),
    manager('AuditLog', { chatExposed: false }),
  ];
  const index = buildSchemaIndex(catalogued);

  it('shows on the entry, telling it only from managers that are exposed, and enters the fingerprint', () => {
    expect(index.entry('Part')!.catalog).toEqual({ domain: 'manufacturing', useWhen: 'the question concerns designed or purchased components', distinguishFrom: ['Material'] });
    expect(index.entry('Material')).not.toHaveProperty('catalog');
    expect(index.fingerprint).toBe(canonicalHash(index.entries));
    expect(index.fingerprint).not.toBe(buildSchemaIndex(catalogued.map((item) => ({ ...item, catalog: undefined }))).fingerprint);
  });

  it('ranks by domain and use-when words, which the names and fields alone do not hold', () => {
    expect(searchManagers(index, 'manufacturing').map((entry) => entry.manager)).toEqual(['Part']);
    expect(searchManagers(index, 'purchased components').map((entry) => entry.manager)[0]).toBe('Part');
  });
  it('folds aliases, ranks an alias word as the name (above a description that holds it) and returns the aliases', () => {
    const aliased = buildSchemaIndex([{ ...catalogued[0]!, catalog: { aliases: [' Widget ', 'widget', 'Bill  of Materials'] } }, ...catalogued.slice(1)]);
    expect(aliased.entry('Part')!.catalog).toEqual({ aliases: ['widget', 'bill of materials'] });
    expect(aliased.fingerprint).toBe(canonicalHash(aliased.entries));
    expect(searchManagers(aliased, 'widgets').map((entry) => entry.manager)).toEqual(['Part']);
    expect(searchManagers(aliased, 'widgets')[0]!.catalog?.aliases).toEqual(['widget', 'bill of materials']);
    expect(searchManagers(aliased, 'component').map((entry) => entry.manager)).toEqual(['Component']);
    const both = buildSchemaIndex([{ ...catalogued[0]!, catalog: { aliases: ['supplier'] } }, ...catalogued.slice(1)]);
    expect(searchManagers(both, 'supplier').map((entry) => entry.manager)).toEqual(['Part', 'Component']);
  });
});
