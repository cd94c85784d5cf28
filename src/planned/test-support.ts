import type { JsonValue } from '../core/index.js';
import { createScriptedProvider } from '../providers/index.js';
import type { Provider } from '../providers/index.js';
import { plannedSettingsSchema } from './index.js';
import type { PlannedEvent, PlannedModels, PlannedPort } from './index.js';

/** What the planned tests share: a port over two managers, scripted roles, a plan of two reads and a difference. */
export const plan = (value: unknown): string => JSON.stringify(value);

export const managers = [{ name: 'Order', description: 'An order.' }, { name: 'Customer', description: undefined }];

/** A port over two managers whose `query` tool answers from fixed rows. */
export function port(overrides: Partial<PlannedPort> = {}): PlannedPort & { events: PlannedEvent[]; calls: { name: string; arguments: JsonValue }[]; audits: unknown[] } {
  const events: PlannedEvent[] = [];
  const calls: { name: string; arguments: JsonValue }[] = [];
  const audits: unknown[] = [];
  const rows: Record<string, JsonValue> = { Order: { data: [{ id: '4411', total: '54.00' }, { id: '4412', total: '121.50' }], total_count: 2, has_more: false }, Customer: { data: [{ name: 'Acme' }], total_count: 1, has_more: false } };
  let clock = 0;
  return {
    actor: { kind: 'user', id: 'alice', roles: ['admin'] },
    text: 'how much more is order 4412 than order 4411?',
    history: [],
    signal: new AbortController().signal,
    clock: () => (clock += 1),
    tools: [{ name: 'query', description: 'Read rows.', parameters: { type: 'object' } }, { name: 'search_managers', description: 'Find managers.', parameters: { type: 'object' } }],
    dispatch: (call) => {
      calls.push({ name: call.name, arguments: call.arguments });
      const manager = (call.arguments as { manager?: string }).manager ?? 'Order';
      return Promise.resolve(rows[manager] ?? { error: { code: 'not_found', message: 'no such manager' } });
    },
    emit: (event) => {
      events.push(event);
      return undefined;
    },
    recordTool: () => Promise.resolve(),
    addUsage: () => undefined,
    audit: (record) => audits.push(record),
    events,
    calls,
    audits,
    ...overrides,
  };
}

export const scripted = (completions: unknown[]): Provider => createScriptedProvider({ completions } as never);
export const settings = plannedSettingsSchema.parse({ enabled: true });
export const twoReadsAndADifference = plan({
  intent: 'read',
  tasks: [
    { id: 't1', goal: 'the total of order 4411', managers: ['Order'] },
    { id: 't2', goal: 'the total of order 4412', managers: ['Order'] },
    { id: 'c1', goal: 'how much more', dependsOn: ['t1', 't2'], calculation: { operation: 'difference', operands: [{ task: 't2', field: 'total' }, { task: 't1', field: 'total' }] } },
  ],
});
/** An executor's two rounds for the task about order `id`: tasks run at once, so each answers only its own. */
export const readOne = (id: string) => [
  { when: { userTextContains: id, toolName: 'query' }, text: `Order ${id} read.` },
  { when: { userTextContains: id }, toolCalls: [{ id: `q${id}`, name: 'query', arguments: { manager: 'Order', fields: ['id', 'total'], filters: { id } } }] },
];

/** The roles' scripts; `executor` is one script both executors share. */
export function models(overrides: Partial<Record<keyof PlannedModels | 'executor', unknown[]>>): PlannedModels {
  const executor = scripted(overrides.executor ?? [{ text: 'unused' }]);
  return {
    planner: scripted(overrides.planner ?? [{ text: twoReadsAndADifference }]),
    simpleExecutor: overrides.simpleExecutor === undefined ? executor : scripted(overrides.simpleExecutor),
    complexExecutor: overrides.complexExecutor === undefined ? executor : scripted(overrides.complexExecutor),
    synthesizer: scripted(overrides.synthesizer ?? [{ text: 'unused' }]),
    fallback: scripted(overrides.fallback ?? [{ text: 'no' }]),
  };
}

