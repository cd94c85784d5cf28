import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../core/index.js';
import type { App } from '../../data/index.js';
import { createChatDispatcher, isConfirmationRequired, isToolError } from '../../tools/index.js';
import type { Dispatcher, ToolResult } from '../../tools/index.js';
import { createDemoApp, demoActors } from '../index.js';
import { demoCatalogue } from '../router/index.js';
import { createDemoHostTools, demoToolSettings } from './index.js';

const { alice, bob, anonymous } = demoActors;
const now = new Date('2026-11-30T12:00:00.000Z');
let dir: string;
let app: App;
let dispatcher: Dispatcher;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plumb-demo-tools-'));
  app = await createDemoApp({ path: join(dir, 'demo.sqlite'), now });
  dispatcher = createChatDispatcher({ app, settings: demoToolSettings, hostTools: createDemoHostTools(app), clock: () => now });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (name: string, args: object, actor: Actor = alice) => dispatcher.dispatch({ name, arguments: args }, { actor });

function code(result: ToolResult): string | undefined {
  return isToolError(result) ? result.error.code : undefined;
}

/** Runs a write as Alice through the confirmation gate, approving it. */
async function approved(name: string, args: object): Promise<ToolResult> {
  const held = await call(name, args);
  if (!isConfirmationRequired(held)) return held;
  return dispatcher.confirm(held.confirmation_id, { actor: alice, confirmed: true });
}

describe('the demo host tools', () => {
  it('join the chat tools behind one dispatcher', () => {
    expect(dispatcher.definitions().map((tool) => tool.name)).toEqual([
      'search_managers', 'get_manager_schema', 'find_path', 'query', 'mutate',
      'get_order', 'list_events', 'charge_card', 'refund_order', 'send_receipt', 'create_project', 'add_task',
    ]);
  });

  it('search_managers finds the project manager that reaches materials through its parts', async () => {
    const found = (await call('search_managers', { query: 'projects parts material' })) as { manager: string }[];
    expect(found.map((entry) => entry.manager).slice(0, 3)).toEqual(['Part', 'Material', 'Project']);
  });

  it('get_order answers status, total, email and the unpaid balance', async () => {
    const order = (await call('get_order', { order_id: '4411' }, bob)) as Record<string, unknown>;
    expect(order).toMatchObject({ order_id: '4411', status: 'pending', paid: '20.00' });
    expect(typeof order.email).toBe('string');
    expect(Number(order.balance)).toBeCloseTo(Number(order.total) - 20, 2);
  });

  it('get_order refuses a non-digit order number and hides orders from anonymous visitors', async () => {
    expect(code(await call('get_order', { order_id: '#4411' }))).toBe('invalid_arguments');
    expect(code(await call('get_order', { order_id: 4411 }))).toBe('invalid_arguments');
    expect(code(await call('get_order', { order_id: '4411' }, anonymous))).toBe('invalid_arguments');
  });

  it('list_events answers the overlapping events and refuses an empty period', async () => {
    const events = (await call('list_events', { time_min: '2026-11-23T00:00:00Z', time_max: '2026-12-14T00:00:00+00:00' }, bob)) as { start: string }[];
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((event) => event.start)).toEqual([...events.map((event) => event.start)].sort());
    expect(code(await call('list_events', { time_min: '2026-12-01T00:00:00Z', time_max: '2026-11-01T00:00:00Z' }, bob))).toBe('invalid_arguments');
    expect(code(await call('list_events', { time_min: 'tomorrow', time_max: '2026-11-01T00:00:00Z' }, bob))).toBe('invalid_arguments');
  });

  it('list_events refuses a visitor instead of answering an empty calendar', async () => {
    expect(code(await call('list_events', { time_min: '2026-11-23T00:00:00Z', time_max: '2026-12-14T00:00:00Z' }, anonymous))).toBe('forbidden');
  });

  it('charge_card is held for confirmation, refuses more than the unpaid balance and charges the rest', async () => {
    const order = (await call('get_order', { order_id: '4411' })) as { balance: string };
    expect(isConfirmationRequired(await call('charge_card', { order_id: '4411', amount: '1.00' }))).toBe(true);
    const tooMuch = await approved('charge_card', { order_id: '4411', amount: (Number(order.balance) + 0.01).toFixed(2) });
    expect(code(tooMuch)).toBe('invalid_arguments');
    expect((tooMuch as { error: { message: string } }).error.message).toContain(`the unpaid balance is ${order.balance}`);
    const charged = await approved('charge_card', { order_id: '4411', amount: '40.00' });
    expect(charged).toMatchObject({ status: 'charged', order_id: '4411', payment: { kind: 'charge', amount: '40.00' } });
    expect((await call('get_order', { order_id: '4411' }) as { balance: string }).balance).toBe((Number(order.balance) - 40).toFixed(2));
  });

  it('charge_card and refund_order validate decimal amounts', async () => {
    for (const amount of ['40', '40.5', '40.50']) expect(isConfirmationRequired(await call('charge_card', { order_id: '4411', amount }))).toBe(true);
    for (const amount of ['40.001', 'abc', '-1.00', '0.00', '1e3', 40]) expect(code(await call('refund_order', { order_id: '4411', amount }))).toBe('invalid_arguments');
  });

  it('refund_order refuses more than was paid', async () => {
    expect(code(await approved('refund_order', { order_id: '4411', amount: '1000000.00' }))).toBe('invalid_arguments');
    expect(await approved('refund_order', { order_id: '4411', amount: '5.00' })).toMatchObject({ status: 'refunded', payment: { kind: 'refund', amount: '5.00' } });
  });

  it('send_receipt validates the email and records the receipt as sent', async () => {
    expect(code(await call('send_receipt', { order_id: '4412', email: 'not-an-email' }))).toBe('invalid_arguments');
    expect(await approved('send_receipt', { order_id: '4412', email: 'ana@example.com' })).toMatchObject({ status: 'sent', email: 'ana@example.com', sent_at: now.toISOString() });
    expect(await call('get_order', { order_id: '4412' })).toMatchObject({ receipt_sent_to: 'ana@example.com' });
  });

  it('create_project answers the new project with its id, and add_task adds to it', async () => {
    const project = (await approved('create_project', { name: 'Gemini' })) as { id: string; name: string };
    expect(project).toMatchObject({ name: 'Gemini' });
    expect(project.id).toMatch(/^[0-9]+$/);
    const task = await approved('add_task', { project_id: project.id, title: 'Kick-off', due: '2026-12-05' });
    expect(task).toMatchObject({ title: 'Kick-off', due: '2026-12-05', project_id: project.id });
    expect(code(await call('add_task', { project_id: 'Gemini', title: 'x' }))).toBe('invalid_arguments');
    expect(code(await call('add_task', { project_id: project.id, title: 'x', due: '05/12/2026' }))).toBe('invalid_arguments');
  });

  it('refuses writes from anonymous visitors and the shop permissions refuse Bob', async () => {
    expect(code(await call('create_project', { name: 'x' }, anonymous))).toBe('authentication_required');
    const held = await call('create_project', { name: 'Bob project' }, bob);
    const result = isConfirmationRequired(held) ? await dispatcher.confirm(held.confirmation_id, { actor: bob, confirmed: true }) : held;
    expect(code(result)).toBe('forbidden');
  });

  it('confirms createTask and updateTask through mutate', async () => {
    const held = await call('mutate', { mutation: 'createTask', input: { title: 'Via mutate', project: '1' } });
    expect(isConfirmationRequired(held)).toBe(true);
    expect(code(await call('mutate', { mutation: 'deleteTask', input: { id: '1' } }))).toBe('not_allowed');
  });
});

describe('the demo host tools and the router catalogue', () => {
  it('agree on every tool name, effect, parameter and required parameter', () => {
    const definitions = new Map(dispatcher.definitions().map((definition) => [definition.name, definition]));
    for (const entry of demoCatalogue) {
      const definition = definitions.get(entry.name);
      expect(definition, entry.name).toBeDefined();
      const parameters = definition!.parameters as { properties: Record<string, unknown>; required?: string[] };
      const expected = entry.parameters as { properties: Record<string, unknown>; required?: string[] };
      expect(Object.keys(parameters.properties).sort(), entry.name).toEqual(Object.keys(expected.properties).sort());
      expect([...(parameters.required ?? [])].sort(), entry.name).toEqual([...(expected.required ?? [])].sort());
      expect(dispatcher.tool(entry.name)?.effect, entry.name).toBe(entry.effect);
    }
  });
});
