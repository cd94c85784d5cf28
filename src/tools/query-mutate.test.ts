import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous } from '../core/index.js';
import { createChatDispatcher, isConfirmationRequired, isToolError } from './index.js';
import type { Dispatcher, ToolResult } from './index.js';
import { openFixtureApp, other, staff } from './test-app.js';
import type { FixtureApp } from './test-app.js';

let fixture: FixtureApp;
let dispatcher: Dispatcher;

beforeAll(async () => {
  fixture = await openFixtureApp();
  dispatcher = createChatDispatcher({
    app: fixture.app,
    settings: { allowedMutations: ['createTask', 'updateTask', 'createMaterial'], confirmMutations: ['updateTask'], maxResults: 10 },
  });
});

afterAll(async () => {
  await fixture.close();
});

type Page = { data: Record<string, unknown>[]; total_count: number; has_more: boolean };

const query = (args: object, actor = staff) => dispatcher.dispatch({ name: 'query', arguments: args }, { actor });
const mutate = (args: object, actor = staff) => dispatcher.dispatch({ name: 'mutate', arguments: args }, { actor });

function failure(result: ToolResult): { code: string; message: string } {
  if (!isToolError(result)) throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  return result.error;
}

describe('query', () => {
  it('reads fields and nested relations as { data, total_count, has_more }', async () => {
    const page = (await query({ manager: 'Part', fields: ['name', { material: ['name'] }], filters: { sku: 'SKU-001' } })) as Page;
    expect(page).toEqual({ data: [{ name: 'Hex bolt', material: { name: 'Steel' } }], total_count: 1, has_more: false });
  });

  it('answers each selection with its own fields when queries of different shapes alternate', async () => {
    const shapes = [['name'], ['sku', 'name'], ['name', { material: ['name'] }], ['name']];
    for (const fields of shapes) {
      const page = (await query({ manager: 'Part', fields, filters: { sku: 'SKU-001' } })) as Page;
      expect(Object.keys(page.data[0]!).sort()).toEqual(fields.map((field) => (typeof field === 'string' ? field : Object.keys(field)[0]!)).sort());
    }
    const second = (await query({ manager: 'Part', fields: ['sku'], limit: 2, offset: 1 })) as Page;
    const first = (await query({ manager: 'Part', fields: ['sku'], limit: 2, offset: 0 })) as Page;
    expect(second.data[0]).toEqual(first.data[1]);
  });

  it('expands "*" to the scalar fields at the top level', async () => {
    const page = (await query({ manager: 'Material', fields: ['*'], filters: { name: 'Steel' } })) as Page;
    expect(Object.keys(page.data[0]!).sort()).toEqual(['density', 'id', 'name']);
  });

  it('reads every scalar field when fields is absent, as "*" does', async () => {
    const omitted = (await query({ manager: 'Part', filters: { sku: 'SKU-001' } })) as Page;
    const star = (await query({ manager: 'Part', fields: ['*'], filters: { sku: 'SKU-001' } })) as Page;
    expect(omitted).toEqual(star);
    expect(Object.keys(omitted.data[0]!).sort()).toEqual(['id', 'name', 'sku', 'stock', 'unitPrice']);
  });

  it('offers fields as optional in the tool schema, for the direct strategy too', () => {
    const direct = createChatDispatcher({ app: fixture.app, settings: { toolStrategy: 'direct' } });
    for (const definition of [...dispatcher.definitions(), ...direct.definitions()].filter((tool) => tool.name.startsWith('query'))) {
      const parameters = definition.parameters as { properties: Record<string, unknown>; required?: string[] };
      expect(parameters.properties, definition.name).toHaveProperty('fields');
      expect(parameters.required ?? [], definition.name).not.toContain('fields');
    }
  });

  it('still refuses an empty fields list, saying that at least one is needed', async () => {
    const error = failure(await query({ manager: 'Part', fields: [] }));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toBe("Invalid arguments for 'query': $.fields: Too small: expected array to have >=1 items.");
  });

  it('refuses "*" inside a nested selection', async () => {
    expect(failure(await query({ manager: 'Part', fields: ['name', { material: ['*'] }] })).code).toBe('invalid_arguments');
  });

  it('names the valid fields when one is unknown', async () => {
    const error = failure(await query({ manager: 'Part', fields: ['colour'] }));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toBe("Unknown field 'colour' on Part. Fields: id, name, sku, unitPrice, stock.");
  });

  it('refuses a relation to a hidden manager as an unknown relation', async () => {
    const error = failure(await query({ manager: 'Part', fields: ['name', { supplier: ['name'] }] }));
    expect(error.message).toContain("Unknown relation 'supplier' on Part. Relations: material, projects");
  });

  it('refuses unknown filter keys and traversals through hidden managers, naming the keys', async () => {
    const unknown = failure(await query({ manager: 'Part', fields: ['name'], filters: { colour: 'red' } }));
    expect(unknown.code).toBe('invalid_arguments');
    expect(unknown.message).toContain("Unknown filter key 'colour' in filters on Part. Filters: id, id__in");
    expect(failure(await query({ manager: 'Part', fields: ['name'], exclude: { supplier__name: 'Acme' } })).code).toBe('invalid_arguments');
  });

  it('normalizes camelCase and single-underscore spellings of a lookup key', async () => {
    for (const key of ['material_name', 'materialName', 'material__name']) {
      const page = (await query({ manager: 'Part', fields: ['id'], filters: { [key]: 'Aluminium' } })) as Page;
      expect(page.total_count).toBe(15);
    }
    const page = (await query({ manager: 'Part', fields: ['name'], filters: { name_icontains: 'HEX' } })) as Page;
    expect(page.data).toEqual([{ name: 'Hex bolt' }]);
  });

  it('filters through several relations and excludes', async () => {
    const page = (await query({ manager: 'Material', fields: ['name'], filters: { parts__projects__name: 'Mercury' }, exclude: { name: 'Aluminium' } })) as Page;
    expect(page.data).toEqual([{ name: 'Steel' }]);
  });

  it('defaults limit to maxResults and clamps larger limits to it', async () => {
    const defaulted = (await query({ manager: 'Part', fields: ['id'] })) as Page;
    expect(defaulted.data).toHaveLength(10);
    expect(defaulted).toMatchObject({ total_count: 30, has_more: true });
    const clamped = (await query({ manager: 'Part', fields: ['id'], limit: 500 })) as Page;
    expect(clamped.data).toHaveLength(10);
  });

  it('pages with limit and offset, also when the offset is not a multiple of the limit', async () => {
    const page = (await query({ manager: 'Part', fields: ['id'], limit: 4, offset: 6 })) as Page;
    expect(page.data.map((row) => row.id)).toEqual(['7', '8', '9', '10']);
    const tail = (await query({ manager: 'Part', fields: ['id'], limit: 4, offset: 28 })) as Page;
    expect(tail).toEqual({ data: [{ id: '29' }, { id: '30' }], total_count: 30, has_more: false });
  });

  it('rejects booleans, zero and fractions as limit and negative offsets', async () => {
    for (const bad of [{ limit: true }, { limit: 0 }, { limit: 2.5 }, { offset: -1 }]) {
      expect(failure(await query({ manager: 'Part', fields: ['id'], ...bad })).code).toBe('invalid_arguments');
    }
  });

  it('runs as the actor, so row permissions apply', async () => {
    const mine = (await query({ manager: 'Note', fields: ['text'] }, staff)) as Page;
    const theirs = (await query({ manager: 'Note', fields: ['text'] }, other)) as Page;
    const nobody = (await query({ manager: 'Note', fields: ['text'] }, anonymous as never)) as Page;
    expect(mine.data.map((row) => row.text)).toEqual(['alice one', 'alice two']);
    expect(theirs.data.map((row) => row.text)).toEqual(['bob one']);
    expect(nobody.total_count).toBe(0);
  });

  it('answers a bad filter value as invalid_arguments', async () => {
    expect(failure(await query({ manager: 'Part', fields: ['id'], filters: { stock__gt: 'many' } })).code).toBe('invalid_arguments');
  });
});

describe('mutate', () => {
  it('answers not_allowed for a mutation missing from allowedMutations, generated or not', async () => {
    expect(failure(await mutate({ mutation: 'deleteTask', input: { id: '1' } })).code).toBe('not_allowed');
    expect(failure(await mutate({ mutation: 'dropEverything', input: {} })).code).toBe('not_allowed');
  });

  it('answers authentication_required for an anonymous actor', async () => {
    expect(failure(await mutate({ mutation: 'createTask', input: { title: 'x', project: '1' } }, anonymous as never)).code).toBe('authentication_required');
  });

  it('executes an allowed mutation that needs no confirmation', async () => {
    const result = await mutate({ mutation: 'createTask', input: { title: 'Check stock', project: '1' } });
    expect(result).toMatchObject({ status: 'executed', mutation: 'createTask', data: { title: 'Check stock', done: false } });
  });

  it('answers forbidden when the data layer denies the write', async () => {
    expect(failure(await mutate({ mutation: 'createTask', input: { title: 'x', project: '1' } }, other)).code).toBe('forbidden');
  });

  it('answers invalid_arguments for input the mutation rejects', async () => {
    expect(failure(await mutate({ mutation: 'createTask', input: { colour: 'red' } })).code).toBe('invalid_arguments');
    expect(failure(await mutate({ mutation: 'updateTask', input: { done: true } })).code).toBe('invalid_arguments');
  });

  it('holds a confirmed mutation, then executes it once on approval', async () => {
    const held = await mutate({ mutation: 'updateTask', input: { id: '1', done: true } });
    expect(isConfirmationRequired(held)).toBe(true);
    const id = (held as { confirmation_id: string }).confirmation_id;
    const before = (await query({ manager: 'Task', fields: ['done'], filters: { id: '1' } })) as Page;
    expect(before.data).toEqual([{ done: false }]);
    expect(await dispatcher.confirm(id, { actor: staff, confirmed: true })).toMatchObject({ status: 'executed', data: { id: '1', done: true } });
    expect(failure(await dispatcher.confirm(id, { actor: staff, confirmed: true })).code).toBe('confirmation_invalid');
  });

  it('records a rejected mutation and leaves the row alone', async () => {
    const held = await mutate({ mutation: 'updateTask', input: { id: '1', title: 'Renamed' } });
    const id = (held as { confirmation_id: string }).confirmation_id;
    expect(await dispatcher.confirm(id, { actor: staff, confirmed: false })).toEqual({ status: 'cancelled', reason: 'user_rejected' });
    const page = (await query({ manager: 'Task', fields: ['title'], filters: { id: '1' } })) as Page;
    expect(page.data).toEqual([{ title: 'Order bolts' }]);
  });

  it('executes a confirmed mutation exactly once under 50 concurrent approvals', async () => {
    const held = await mutate({ mutation: 'updateTask', input: { id: '1', title: 'Once' } });
    const id = (held as { confirmation_id: string }).confirmation_id;
    const results = await Promise.all(Array.from({ length: 50 }, () => dispatcher.confirm(id, { actor: staff, confirmed: true })));
    expect(results.filter((result) => !isToolError(result))).toHaveLength(1);
    expect(results.filter((result) => isToolError(result) && result.error.code === 'confirmation_invalid')).toHaveLength(49);
  });
});
