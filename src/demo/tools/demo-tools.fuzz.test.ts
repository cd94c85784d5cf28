import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../data/index.js';
import { createChatDispatcher, isConfirmationRequired, isToolError, toolsErrorCodes } from '../../tools/index.js';
import type { Dispatcher } from '../../tools/index.js';
import { createDemoApp, demoActors } from '../index.js';
import { createDemoHostTools, demoToolSettings } from './index.js';

let dir: string;
let app: App;
let dispatcher: Dispatcher;
const reported: unknown[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plumb-demo-fuzz-'));
  app = await createDemoApp({ path: join(dir, 'demo.sqlite'), now: new Date('2026-11-30T12:00:00.000Z') });
  dispatcher = createChatDispatcher({ app, settings: demoToolSettings, hostTools: createDemoHostTools(app), onError: (error) => reported.push(error) });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('4411', '4412', '1', '0', '40.00', '1e3', '-1', '2026-11-30T00:00:00Z', 'a@b.co', '', null, true));
const keys: Record<string, string[]> = {
  get_order: ['order_id'],
  list_events: ['time_min', 'time_max'],
  charge_card: ['order_id', 'amount'],
  refund_order: ['order_id', 'amount'],
  send_receipt: ['order_id', 'email'],
  create_project: ['name'],
  add_task: ['project_id', 'title', 'due'],
};
const codes = new Set(Object.keys(toolsErrorCodes));

describe('the demo host tools under random arguments', () => {
  for (const [tool, names] of Object.entries(keys)) {
    it(`answer ${tool} with a result or a coded error for 1,000 random argument objects, and confirming never crashes`, async () => {
      const args = fc.dictionary(fc.constantFrom(...names, 'extra'), anyValue, { maxKeys: names.length + 1 });
      await fc.assert(
        fc.asyncProperty(args, fc.constantFrom('alice', 'bob', 'anonymous'), fc.boolean(), async (value, who, approve) => {
          const actor = demoActors[who];
          let result = await dispatcher.dispatch({ name: tool, arguments: value }, { actor });
          if (isConfirmationRequired(result) && approve) result = await dispatcher.confirm(result.confirmation_id, { actor, confirmed: true });
          expect(() => JSON.stringify(result)).not.toThrow();
          if (isToolError(result)) {
            expect(codes.has(result.error.code)).toBe(true);
            expect(result.error.code).not.toBe('tool_failed');
          }
        }),
        { numRuns: 1000, seed: 4411 },
      );
      expect(reported).toEqual([]);
    }, 120_000);
  }
});
