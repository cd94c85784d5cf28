import { readFileSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous } from '../core/index.js';
import { admin, carol, dataOf, errorOf, openShop, sales } from '../../test/support/data/shop-fixture.js';
import type { ShopHandle } from '../../test/support/data/shop-fixture.js';

let shop: ShopHandle;
beforeAll(async () => {
  shop = await openShop({ settings: { maxPageSize: 3 } });
});
afterAll(async () => {
  await shop.dispose();
});

describe('the generated schema', () => {
  it('matches the committed SDL (set UPDATE_SDL=1 to rewrite it after an intended change)', () => {
    const path = new URL('../../test/support/data/shop.graphql', import.meta.url);
    const sdl = `${printSchema(shop.app.schema)}\n`;
    if (process.env.UPDATE_SDL === '1') writeFileSync(path, sdl);
    expect(sdl).toBe(readFileSync(path, 'utf8'));
  });

  it('has a list root, a by-id root and three mutations per manager', () => {
    const query = shop.app.schema.getQueryType()!.getFields();
    const mutation = shop.app.schema.getMutationType()!.getFields();
    for (const name of ['material', 'part', 'project', 'customer', 'order', 'orderLine']) {
      expect(query).toHaveProperty(name);
      expect(query).toHaveProperty(`${name}List`);
    }
    expect(Object.keys(mutation)).toEqual(expect.arrayContaining(['createPart', 'updatePart', 'deletePart', 'createOrderLine']));
    expect(String(query.partList!.type)).toBe('PartPage!');
    expect(query.partList!.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual(['filter: PartFilter', 'exclude: PartFilter', 'page: Int', 'pageSize: Int']);
  });
});

describe('reading', () => {
  it('returns decimals as strings, dates, datetimes in UTC, json as values and ids as ID', async () => {
    const data = await dataOf(shop.app, admin, '{ part(id: 1) { id unitPrice releasedOn checkedAt specs active kind weight notes } }');
    expect(data.part).toEqual({
      id: '1', unitPrice: '0.25', releasedOn: '2024-01-15', checkedAt: '2026-01-10T08:00:00.000Z', specs: { thread: 'M6' }, active: true, kind: 'fastener', weight: 0.01, notes: null,
    });
  });

  it('answers null for a missing id', async () => {
    expect(await dataOf(shop.app, admin, '{ part(id: 999) { id } }')).toEqual({ part: null });
  });

  it('navigates one, many and manyToMany relations in both directions', async () => {
    const data = await dataOf(shop.app, admin, `{
      part(id: 3) { material { name } projects { name } orderLines { order { id } } }
      material(id: 1) { parts { name } }
      project(id: 1) { parts { name } }
      order(id: 4411) { lines { quantity part { name } } customer { orders { id } } }
    }`);
    expect(data.part).toEqual({ material: { name: 'Cobalt' }, projects: [{ name: 'Apollo' }], orderLines: [{ order: { id: '4411' } }, { order: { id: '4412' } }] });
    expect(data.material.parts).toEqual([{ name: 'Bolt' }, { name: 'Bracket' }]);
    expect(data.project.parts).toEqual([{ name: 'Bolt' }, { name: 'Gear' }]);
    expect(data.order.lines).toEqual([{ quantity: 1, part: { name: 'Bolt' } }, { quantity: 1, part: { name: 'Gear' } }]);
    expect(data.order.customer.orders).toEqual([{ id: '4411' }, { id: '4414' }]);
  });

  it('filters and excludes on many relation fields', async () => {
    const data = await dataOf(shop.app, admin, '{ material(id: 1) { active: parts(filter: {active: true}) { name } others: parts(exclude: {name: "Bolt"}) { name } } }');
    expect(data.material).toEqual({ active: [{ name: 'Bolt' }], others: [{ name: 'Bracket' }] });
  });

  it('answers the example query of the issue', async () => {
    const data = await dataOf(shop.app, admin, '{ orderList(filter: {id__in: [4411, 4412]}) { items { id total } pageInfo { totalCount } } }');
    expect(data.orderList).toEqual({ items: [{ id: '4411', total: '25.25' }, { id: '4412', total: '48.00' }], pageInfo: { totalCount: 2 } });
  });
});

describe('pagination', () => {
  const page = (args: string) => dataOf(shop.app, admin, `{ partList(${args}) { items { id } pageInfo { totalCount page pageSize hasNextPage } } }`);

  it('defaults pageSize to the maximum and says when there is a next page', async () => {
    expect((await page('page: 1')).partList).toEqual({ items: [{ id: '1' }, { id: '2' }, { id: '3' }], pageInfo: { totalCount: 5, page: 1, pageSize: 3, hasNextPage: true } });
  });

  it('serves the last, partial page', async () => {
    expect((await page('page: 2')).partList).toEqual({ items: [{ id: '4' }, { id: '5' }], pageInfo: { totalCount: 5, page: 2, pageSize: 3, hasNextPage: false } });
  });

  it('serves an empty page past the end with the true total', async () => {
    expect((await page('page: 9, pageSize: 2')).partList).toEqual({ items: [], pageInfo: { totalCount: 5, page: 9, pageSize: 2, hasNextPage: false } });
  });

  it('serves an exactly full last page without a next page', async () => {
    expect((await page('pageSize: 1, filter: {id__lte: 2}, page: 2')).partList.pageInfo).toEqual({ totalCount: 2, page: 2, pageSize: 1, hasNextPage: false });
  });

  it.each([
    ['page: 0', /page must be 1 or more, got 0/],
    ['pageSize: 0', /pageSize must be from 1 to 3, got 0/],
    ['pageSize: 4', /pageSize must be from 1 to 3, got 4/],
    ['page: -1', /page must be 1 or more/],
  ])('refuses %s', async (args, message) => {
    const error = await errorOf(shop.app, admin, `{ partList(${args}) { items { id } } }`);
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', plumbCode: 'invalid_page' });
    expect(error.message).toMatch(message);
  });
});

describe('permissions', () => {
  it('hides rows from lists and counts', async () => {
    const bob = await dataOf(shop.app, sales, '{ orderList { items { id } pageInfo { totalCount } } customerList { items { name } pageInfo { totalCount } } }');
    expect(bob.orderList).toEqual({ items: [{ id: '4411' }, { id: '4412' }, { id: '4414' }], pageInfo: { totalCount: 3 } });
    expect(bob.customerList).toEqual({ items: [{ name: 'Acme' }, { name: 'Globex' }], pageInfo: { totalCount: 2 } });
    const nobody = await dataOf(shop.app, anonymous, '{ orderList { items { id } pageInfo { totalCount } } }');
    expect(nobody.orderList).toEqual({ items: [], pageInfo: { totalCount: 0 } });
  });

  it('answers null by id for a hidden row, exactly as for a missing one', async () => {
    expect(await dataOf(shop.app, sales, '{ hidden: order(id: 4413) { id } missing: order(id: 1) { id } }')).toEqual({ hidden: null, missing: null });
    expect(await dataOf(shop.app, carol, '{ order(id: 4413) { id } }')).toEqual({ order: { id: '4413' } });
  });

  it('hides rows behind relation fields in both directions', async () => {
    const data = await dataOf(shop.app, sales, '{ part(id: 2) { orderLines { order { id } } } orderLine(id: 4) { order { id } } }');
    expect(data.part.orderLines).toEqual([{ order: null }]);
    expect(data.orderLine).toEqual({ order: null });
    const customer = await dataOf(shop.app, carol, '{ customerList { items { orders { id } } } }');
    expect(customer.customerList.items).toEqual([{ orders: [{ id: '4413' }] }]);
  });

  it('does not let a filter probe hidden rows through a relation', async () => {
    const probe = await dataOf(shop.app, sales, '{ partList(filter: {orderLines__order__customer__name: "Initech"}) { items { name } pageInfo { totalCount } } }');
    expect(probe.partList).toEqual({ items: [], pageInfo: { totalCount: 0 } });
    const own = await dataOf(shop.app, carol, '{ partList(filter: {orderLines__order__customer__name: "Initech"}) { items { name } } }');
    expect(own.partList.items).toEqual([{ name: 'Bearing' }]);
  });

  it('refuses mutations the actor may not perform', async () => {
    expect(await errorOf(shop.app, sales, 'mutation { createPart(input: {name: "Nut", sku: "N"}) { id } }')).toMatchObject({ code: 'FORBIDDEN', message: 'You may not create Part rows.' });
    expect(await errorOf(shop.app, sales, 'mutation { updatePart(id: 1, input: {stock: 1}) { id } }')).toMatchObject({ code: 'FORBIDDEN' });
    expect(await errorOf(shop.app, sales, 'mutation { deletePart(id: 1) { id } }')).toMatchObject({ code: 'FORBIDDEN' });
    expect(await errorOf(shop.app, anonymous, 'mutation { createMaterial(input: {name: "Tin", density: 7.3}) { id } }')).toMatchObject({ code: 'FORBIDDEN' });
    expect(await errorOf(shop.app, sales, 'mutation { updateOrder(id: 4413, input: {status: paid}) { id } }')).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
    expect(await errorOf(shop.app, sales, 'mutation { updateOrder(id: 4413, input: {status: "paid"}) { id } }')).toMatchObject({ code: 'NOT_FOUND', message: 'No Order with id 4413.' });
    expect((await dataOf(shop.app, carol, '{ order(id: 4413) { status } }')).order.status).toBe('shipped');
  });
});

describe('writing', () => {
  it('creates, updates and deletes rows, with defaults and many-to-many links', async () => {
    const created = await dataOf(shop.app, admin, 'mutation { createPart(input: {name: "Nut", sku: "N-6", material: 1, projects: [2]}) { id name unitPrice stock active kind material { name } projects { name } } }');
    expect(created.createPart).toMatchObject({ name: 'Nut', unitPrice: '0.00', stock: 0, active: true, kind: 'fastener', material: { name: 'Steel' }, projects: [{ name: 'Mercury' }] });
    const id = created.createPart.id as string;
    const updated = await dataOf(shop.app, admin, 'mutation($id: ID!) { updatePart(id: $id, input: {unitPrice: "1.5", material: null, projects: [1, 2], notes: "zinc"}) { unitPrice material { name } projects { name } notes } }', { id });
    expect(updated.updatePart).toEqual({ unitPrice: '1.50', material: null, projects: [{ name: 'Apollo' }, { name: 'Mercury' }], notes: 'zinc' });
    const deleted = await dataOf(shop.app, admin, 'mutation($id: ID!) { deletePart(id: $id) { name } }', { id });
    expect(deleted.deletePart).toEqual({ name: 'Nut' });
    expect(await dataOf(shop.app, admin, 'query($id: ID!) { part(id: $id) { id } project(id: 2) { parts { name } } }', { id })).toEqual({ part: null, project: { parts: [{ name: 'Bearing' }] } });
  });

  it.each([
    ['a value of the wrong kind', 'createPart(input: {name: "X", sku: "X", unitPrice: "1.234"})', /Part\.unitPrice: expected at most 2 decimal places, got "1\.234"/],
    ['an enum value not declared', 'createPart(input: {name: "X", sku: "X", kind: "gizmo"})', /Part\.kind: expected one of fastener, motion, structure, got "gizmo"/],
    ['an impossible date', 'createPart(input: {name: "X", sku: "X", releasedOn: "2025-02-30"})', /Part\.releasedOn: expected a date/],
    ['a date-time without offset', 'createPart(input: {name: "X", sku: "X", checkedAt: "2026-01-01T10:00:00"})', /DateTime expects/],
    ['a reference to a missing row', 'createPart(input: {name: "X", sku: "X", material: 99})', /Part\.material: no Material with id 99/],
    ['a null for a required field', 'updatePart(id: 1, input: {name: null})', /Part\.name: may not be null/],
    ['a link to a missing row', 'updatePart(id: 1, input: {projects: [1, 77]})', /Part\.projects: no Project with id 77/],
  ])('refuses %s, naming the field', async (_title, call, message) => {
    const error = await errorOf(shop.app, admin, `mutation { ${call} { id } }`);
    expect(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED']).toContain(error.code);
    expect(error.message).toMatch(message);
  });

  it('keeps concurrent writes and reads consistent', async () => {
    const before = (await dataOf(shop.app, admin, '{ materialList { pageInfo { totalCount } } }')).materialList.pageInfo.totalCount as number;
    const writes = Array.from({ length: 10 }, (_, i) => dataOf(shop.app, admin, `mutation { createMaterial(input: {name: "Alloy ${i}", density: ${i + 1}}) { id } }`));
    const reads = Array.from({ length: 10 }, () => dataOf(shop.app, admin, '{ materialList { pageInfo { totalCount } } }'));
    const [created, counted] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    expect(new Set(created.map((data) => data.createMaterial.id)).size).toBe(10);
    for (const data of counted) expect(data.materialList.pageInfo.totalCount).toBeGreaterThanOrEqual(before);
    expect((await dataOf(shop.app, admin, '{ materialList(filter: {name__startswith: "Alloy"}) { pageInfo { totalCount } } }')).materialList.pageInfo.totalCount).toBe(10);
  });

  it('names a missing required field', async () => {
    const error = await errorOf(shop.app, admin, 'mutation { createPart(input: {name: "X"}) { id } }');
    expect(error.message).toMatch(/PartCreateInput\.sku/);
  });

  it('answers NOT_FOUND when updating or deleting a missing row', async () => {
    expect(await errorOf(shop.app, admin, 'mutation { updatePart(id: 404, input: {stock: 1}) { id } }')).toMatchObject({ code: 'NOT_FOUND', message: 'No Part with id 404.' });
    expect(await errorOf(shop.app, admin, 'mutation { deletePart(id: 404) { id } }')).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses to delete a row other rows refer to', async () => {
    const error = await errorOf(shop.app, admin, 'mutation { deleteMaterial(id: 1) { id } }');
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', plumbCode: 'row_referenced' });
    expect(error.message).toMatch(/Part\.material/);
  });
});

describe('bad input', () => {
  it('lists the valid keys when a filter key is unknown', async () => {
    const error = await errorOf(shop.app, admin, '{ partList(filter: {colour: "red"}) { items { id } } }');
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', plumbCode: 'unknown_filter_key' });
    expect(error.message).toMatch(/^Unknown filter key 'colour' on Part\. Keys: id, id__in, .*name__icontains.*; through relations: material__<Material key>/);
  });

  it('says the same for an unknown key in variables', async () => {
    const error = await errorOf(shop.app, admin, 'query($f: PartFilter) { partList(filter: $f) { items { id } } }', { f: { colour: 'red' } });
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', plumbCode: 'unknown_filter_key' });
  });

  it('names the operators a field supports', async () => {
    const error = await errorOf(shop.app, admin, '{ partList(filter: {active__gt: true}) { items { id } } }');
    expect(error).toMatchObject({ plumbCode: 'unsupported_operator', message: "Lookup 'active__gt': Part.active (boolean) does not support 'gt'. Operators: exact." });
  });

  it('refuses a value of the wrong type', async () => {
    expect(await errorOf(shop.app, admin, '{ partList(filter: {stock__gt: "many"}) { items { id } } }')).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
    expect(await errorOf(shop.app, admin, 'query($v: Int) { partList(filter: {stock__gt: $v}) { items { id } } }', { v: 'many' })).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await errorOf(shop.app, admin, '{ partList(filter: {unitPrice__gt: "cheap"}) { items { id } } }')).toMatchObject({ plumbCode: 'invalid_filter_value' });
  });

  it('answers malformed documents with a parse error', async () => {
    expect(await errorOf(shop.app, admin, '{ partList(filter: { items { id } }')).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED' });
  });

  it('keeps SQL-looking strings inert', async () => {
    for (const attack of ["x' OR '1'='1", 'Bolt"; DROP TABLE part; --', "%' --", 'Robert\'); DELETE FROM "order";--']) {
      const data = await dataOf(shop.app, admin, 'query($v: String) { a: partList(filter: {name: $v}) { items { id } } b: partList(filter: {name__icontains: $v}) { items { id } } c: partList(filter: {material__name__startswith: $v}) { items { id } } }', { v: attack });
      expect(data).toEqual({ a: { items: [] }, b: { items: [] }, c: { items: [] } });
    }
    expect((await dataOf(shop.app, admin, '{ partList { pageInfo { totalCount } } orderList { pageInfo { totalCount } } }'))).toEqual({ partList: { pageInfo: { totalCount: 5 } }, orderList: { pageInfo: { totalCount: 4 } } });
    const attackText = shop.statements.filter((text) => /1'='1|DROP TABLE|DELETE FROM "order"|Robert/.test(text));
    expect(attackText).toEqual([]);
  });

  it('stops between statements once the signal aborts', async () => {
    const controller = new AbortController();
    const statements: string[] = [];
    const aborting = await openShop({ seed: true });
    try {
      const { app } = aborting;
      const before = aborting.statements.length;
      const pending = app.graphql({ actor: admin, document: '{ projectList { items { parts { material { name } } } } }', signal: controller.signal });
      controller.abort(new Error('deadline passed'));
      const result = await pending;
      statements.push(...aborting.statements.slice(before));
      expect(result.errors?.[0]?.extensions.code).toBe('TIMEOUT');
      expect(statements.length).toBeLessThan(3);
    } finally {
      await aborting.dispose();
    }
  });

  it('answers TIMEOUT when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('took too long'));
    const result = await shop.app.graphql({ actor: admin, document: '{ partList { items { id } } }', signal: controller.signal });
    expect(result.errors?.[0]?.extensions.code).toBe('TIMEOUT');
    expect(result.errors?.[0]?.message).toMatch(/took too long/);
  });
});

describe('batching', () => {
  const statementsFor = async (document: string): Promise<number> => {
    const before = shop.app.stats.statements;
    await dataOf(shop.app, admin, document);
    return shop.app.stats.statements - before;
  };

  it('runs one statement per relation level, whatever the number of rows', async () => {
    const nested = '{ projectList { items { parts { material { name parts { name } } } } } }';
    const perLevel = await statementsFor(nested);
    expect(perLevel).toBe(4);
    const onePart = await statementsFor('{ projectList(filter: {name: "Mercury"}) { items { parts { material { name parts { name } } } } } }');
    expect(onePart).toBe(perLevel);
    const lines = await statementsFor('{ orderLineList(pageSize: 3) { items { order { customer { name } } part { material { name } } } } }');
    expect(lines).toBe(5);
  });
});

describe('row budget', () => {
  it('fails a request that reads more rows than maxRowsPerRequest', async () => {
    const small = await openShop({ settings: { maxRowsPerRequest: 6 } });
    try {
      expect(await dataOf(small.app, admin, '{ partList { items { id } } }')).toMatchObject({ partList: { items: { length: 5 } } });
      const error = await errorOf(small.app, admin, '{ partList { items { id material { name } } } }');
      expect(error).toMatchObject({ code: 'BAD_USER_INPUT', plumbCode: 'result_too_large' });
    } finally {
      await small.dispose();
    }
  });
});

describe('relation row cap', () => {
  it('returns at most maxRelationRows rows per parent, the first by id', async () => {
    const capped = await openShop({ settings: { maxRelationRows: 1 } });
    try {
      await capped.app.load('Material', [{ name: 'Tin', density: 7.3 }]);
      const one = await dataOf(capped.app, admin, '{ material(id: 1) { parts { name } } }');
      expect(one.material.parts).toEqual([{ name: 'Bolt' }]);
      const all = await dataOf(capped.app, admin, '{ materialList { items { name parts { name } } } }');
      expect(all.materialList.items).toEqual([
        { name: 'Steel', parts: [{ name: 'Bolt' }] },
        { name: 'Aluminum', parts: [{ name: 'Bearing' }] },
        { name: 'Cobalt', parts: [{ name: 'Gear' }] },
        { name: 'Tin', parts: [] },
      ]);
      const few = await dataOf(capped.app, admin, '{ materialList(filter: {id__in: [1, 2]}) { items { parts { name } } } }');
      expect(few.materialList.items).toEqual([{ parts: [{ name: 'Bolt' }] }, { parts: [{ name: 'Bearing' }] }]);
    } finally {
      await capped.dispose();
    }
  });
});
