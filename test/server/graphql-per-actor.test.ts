import { buildClientSchema, getIntrospectionQuery, isInputObjectType, isObjectType, printSchema } from 'graphql';
import type { IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './harness.js';
import type { Running } from './harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL answers are checked field by field
type Json = any;

/** The demo's managers anonymous may not read. */
const hidden = ['Customer', 'Order', 'OrderLine', 'Payment', 'CalendarEvent'];

async function graphql(url: string, query: string, user?: string, variables?: Record<string, unknown>): Promise<Json> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(user === undefined ? {} : { 'x-plumb-user': user }) },
    body: JSON.stringify({ query, ...(variables === undefined ? {} : { variables }) }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** Every name a client could learn from a schema: types, fields, arguments, input fields. */
function namesIn(introspection: IntrospectionQuery): string[] {
  const schema = buildClientSchema(introspection);
  const names: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    names.push(type.name);
    if (isObjectType(type)) for (const field of Object.values(type.getFields())) names.push(field.name, ...field.args.map((arg) => arg.name));
    if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) names.push(field.name);
  }
  return names;
}

describe('/graphql shows each actor only what it may read', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startServer(undefined);
  });
  afterAll(async () => running.close());

  it('gives anonymous an introspection with no trace of the managers it may not read', async () => {
    const result = await graphql(running.url, getIntrospectionQuery());
    expect(result.errors).toBeUndefined();
    const names = namesIn(result.data);
    expect(names).toContain('Material');
    expect(names).toContain('materialList');
    expect(names).toContain('material__name');
    const traces = names.filter((name) => hidden.some((manager) => name.toLowerCase().includes(manager.toLowerCase())));
    expect(traces).toEqual([]);
    const sdl = printSchema(buildClientSchema(result.data));
    for (const manager of hidden) expect(sdl).not.toMatch(new RegExp(`\\b${manager}\\b`));
  });

  it('gives staff the whole schema', async () => {
    const result = await graphql(running.url, getIntrospectionQuery(), 'bob');
    const names = namesIn(result.data);
    for (const manager of hidden) expect(names).toContain(manager);
    expect(names).toContain('createPayment');
  });

  it('answers a hidden manager exactly as an unknown one, without suggesting it', async () => {
    const hiddenField = await graphql(running.url, '{ customerList { items { id } } }');
    expect(hiddenField.data).toBeUndefined();
    expect(hiddenField.errors[0].message).toBe('Cannot query field "customerList" on type "Query".');
    expect(hiddenField.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const close = await graphql(running.url, '{ custome { id } }');
    expect(JSON.stringify(close.errors)).not.toMatch(/customer/i);
    const byName = await graphql(running.url, '{ __type(name: "Customer") { name } }');
    expect(byName).toEqual({ data: { __type: null } });
    const through = await graphql(running.url, '{ partList(filter: { orderLines__order__customer__name: "x" }) { items { id } } }');
    expect(through.errors[0].message).toMatch(/not defined by type "PartFilter"/);
  });

  it('still answers data and __typename as the actor', async () => {
    const result = await graphql(running.url, '{ __typename materialList(filter: { name: "Steel" }) { items { name } } }');
    expect(result).toEqual({ data: { __typename: 'Query', materialList: { items: [{ name: 'Steel' }] } } });
    const staff = await graphql(running.url, '{ orderList(filter: { id: 4411 }) { items { total } } }', 'bob');
    expect(staff).toEqual({ data: { orderList: { items: [{ total: '74.00' }] } } });
  });

  it('refuses introspection mixed with data fields for an actor with a partial schema', async () => {
    const result = await graphql(running.url, '{ __schema { types { name } } materialList { items { name } } }');
    expect(result.data).toBeUndefined();
    expect(result.errors[0]).toMatchObject({ message: expect.stringMatching(/operation of its own/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  });
});

describe('graphqlIntrospection: false', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startServer(undefined, { graphqlIntrospection: false });
  });
  afterAll(async () => running.close());

  it('refuses __schema and __type for every actor, and answers data', async () => {
    for (const user of [undefined, 'alice']) {
      const schema = await graphql(running.url, '{ __schema { types { name } } }', user);
      expect(schema.data).toBeUndefined();
      expect(schema.errors[0].message).toMatch(/introspection has been disabled/);
      const type = await graphql(running.url, 'query Q { __type(name: "Material") { name } }', user);
      expect(type.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect((await graphql(running.url, '{ materialList { pageInfo { totalCount } } }', user)).data.materialList.pageInfo.totalCount).toBeGreaterThan(0);
    }
  });
});
