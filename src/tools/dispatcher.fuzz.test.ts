import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous } from '../core/index.js';
import { createChatDispatcher, isToolError, toolsErrorCodes } from './index.js';
import type { Dispatcher } from './index.js';
import { openFixtureApp, staff } from './test-app.js';
import type { FixtureApp } from './test-app.js';

let fixture: FixtureApp;
let dispatcher: Dispatcher;
const reported: unknown[] = [];

beforeAll(async () => {
  fixture = await openFixtureApp();
  dispatcher = createChatDispatcher({
    app: fixture.app,
    settings: { allowedMutations: ['createTask', 'updateTask'], confirmMutations: ['updateTask'], maxResultBytes: 4096 },
    onError: (error) => reported.push(error),
  });
});

afterAll(async () => {
  await fixture.close();
});

const names = ['Part', 'Material', 'Project', 'Task', 'Note', 'Supplier', 'Nope', '', '*'];
const fieldNames = ['id', 'name', 'sku', 'unitPrice', 'stock', 'title', 'text', 'material', 'parts', 'projects', 'tasks', '*', 'colour', ''];
const filterKeys = ['name', 'name__icontains', 'material__name', 'materialName', 'stock__gt', 'id__in', 'supplier__name', 'parts__projects__name', 'x__y__z', 'isnull'];

const selection = fc.letrec((tie) => ({
  item: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...fieldNames),
    fc.dictionary(fc.constantFrom('material', 'parts', 'projects', 'tasks', 'supplier', 'bogus'), fc.array(tie('item'), { maxLength: 3 }), { maxKeys: 2 }),
  ),
}));

const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(true, 0, -1, 2.5, 1e9, 'NaN', null));

const byTool: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  search_managers: fc.record({ query: fc.oneof(fc.string(), fc.constantFrom('parts', 'material of parts', 'Supplier')) }, { requiredKeys: [] }),
  get_manager_schema: fc.record({ manager: fc.oneof(fc.constantFrom(...names), anyValue) }, { requiredKeys: [] }),
  find_path: fc.record({ from_manager: fc.constantFrom(...names), to_manager: fc.oneof(fc.constantFrom(...names), anyValue) }, { requiredKeys: [] }),
  query: fc.record(
    {
      manager: fc.oneof(fc.constantFrom(...names), anyValue),
      fields: fc.oneof(fc.array(selection.item, { maxLength: 4 }), anyValue),
      filters: fc.oneof(fc.dictionary(fc.constantFrom(...filterKeys), anyValue, { maxKeys: 3 }), anyValue),
      exclude: fc.dictionary(fc.constantFrom(...filterKeys), anyValue, { maxKeys: 2 }),
      limit: fc.oneof(fc.integer({ min: -5, max: 500 }), anyValue),
      offset: fc.oneof(fc.integer({ min: -5, max: 100 }), anyValue),
    },
    { requiredKeys: [] },
  ),
  mutate: fc.record(
    {
      mutation: fc.oneof(fc.constantFrom('createTask', 'updateTask', 'deleteTask', 'createPart', ''), anyValue),
      input: fc.oneof(fc.dictionary(fc.constantFrom('id', 'title', 'project', 'done', 'colour'), anyValue, { maxKeys: 4 }), anyValue),
    },
    { requiredKeys: [] },
  ),
};

const codes = new Set(Object.keys(toolsErrorCodes));

describe('the dispatcher under random arguments', () => {
  for (const [tool, args] of Object.entries(byTool)) {
    it(`answers ${tool} with a result or a coded error for 1,000 random argument objects`, async () => {
      const extra = fc.dictionary(fc.string({ maxLength: 6 }), anyValue, { maxKeys: 2 });
      const call = fc.oneof(
        { weight: 6, arbitrary: args },
        { weight: 1, arbitrary: fc.tuple(args, extra).map(([a, b]) => ({ ...b, ...a })) },
        { weight: 1, arbitrary: fc.oneof(fc.string(), fc.jsonValue().map((value) => JSON.stringify(value))) },
      );
      await fc.assert(
        fc.asyncProperty(call, fc.boolean(), async (argumentsValue, signedIn) => {
          const result = await dispatcher.dispatch({ name: tool, arguments: argumentsValue }, { actor: signedIn ? staff : anonymous });
          expect(() => JSON.stringify(result)).not.toThrow();
          if (isToolError(result)) {
            expect(codes.has(result.error.code)).toBe(true);
            expect(result.error.message.length).toBeGreaterThan(0);
            expect(result.error.code).not.toBe('tool_failed');
          }
        }),
        { numRuns: 1000, seed: 20261130 },
      );
      expect(reported).toEqual([]);
    }, 120_000);
  }
});
