import { describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../providers/index.js';
import type { ScriptedProvider } from '../providers/index.js';
import { calculate, EvidenceStore, executorRole, featuresOf, plannedSettingsSchema, runPlannedTurn, validateDeclaredChildren, validatePlan } from './index.js';
import type { PlannedModels, PlannedTask } from './index.js';
import { managers, plan, port, readOne } from './test-support.js';

type Audit = { plan_attempts: number; plan_problems: string[]; trust_group: string; rounds: { used: number; limit: number }; tasks: { task: string; parent: string | null; declared: boolean; status: string; role: string | null; attempts: { role: string; end: string }[]; features: string[]; requirements: { met: number; total: number }; match_sources: string[]; calls: { call: string; state: string }[]; refused: string[] }[] };

const bounds = { maxRootTasks: 6, maxChildrenPerTask: 2, maxDependencyDepth: 1, maxRoundsPerTask: 6, managers: ['Order', 'Customer'], tools: ['query'] };
const settings = plannedSettingsSchema.parse({ enabled: true });
const script = (completions: unknown[]): ScriptedProvider => createScriptedProvider({ completions } as never);
const answer = (evidence: string[]) => [{ text: plan({ answer: 'Done.', evidence }) }];
const readCustomer = [
  { when: { userTextContains: 'customer', toolName: 'query' }, text: 'Read the customer.' },
  { when: { userTextContains: 'customer' }, toolCalls: [{ id: 'qc', name: 'query', arguments: { manager: 'Customer', fields: ['name'] } }] },
];

/** A role no test step should reach: its requests are counted where that matters. */
const unused = [{ text: 'unused' }];

/** Each role its own script, so a test can see which role took which request. */
function roles(given: Partial<Record<keyof PlannedModels, unknown[]>>): Record<keyof PlannedModels, ScriptedProvider> {
  return {
    planner: script(given.planner ?? [{ text: 'no plan' }]),
    simpleExecutor: script(given.simpleExecutor ?? unused),
    complexExecutor: script(given.complexExecutor ?? unused),
    synthesizer: script(given.synthesizer ?? unused),
    fallback: script(given.fallback ?? unused),
  };
}

describe('routing a task to an executor', () => {
  it('gives the simple executor only a task with no routing feature', () => {
    expect(executorRole(featuresOf({ routing: [], managers: ['Order'], dependsOn: [] }))).toBe('simpleExecutor');
    expect(featuresOf({ routing: ['multiple_queries'], managers: ['Order', 'Customer'], dependsOn: ['t1'] })).toEqual(['has_dependency', 'multiple_queries', 'multiple_managers']);
    expect(executorRole(['requires_calculation'])).toBe('complexExecutor');
  });

  it('runs a simple read on the simple executor and a dependent read on the complex one, and the audit names each role', async () => {
    const chain = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }, { id: 't2', goal: 'its customer', managers: ['Customer'], dependsOn: ['t1'] }] });
    const models = roles({ planner: [{ text: chain }], simpleExecutor: readOne('4411'), complexExecutor: readCustomer, synthesizer: answer(['e1', 'e2']) });
    const given = port();
    expect(await runPlannedTurn(given, { models, settings, managers })).toMatchObject({ kind: 'answer', coverage: { resolved: 2, total: 2 } });
    expect(models.simpleExecutor.requests.map((request) => request.messages[1])).toEqual([{ role: 'user', content: 'orders 4411' }, { role: 'user', content: 'orders 4411' }]);
    expect(models.complexExecutor.requests).toHaveLength(2);
    const audit = given.audits[0] as Audit;
    expect(audit.tasks.map((task) => [task.role, task.features])).toEqual([['simpleExecutor', []], ['complexExecutor', ['has_dependency']]]);
    expect(audit.trust_group).toBe('unchecked');
  });

  it('takes the routing features a planner declares, and counts a calculation as one', () => {
    const checked = validatePlan(plan({ intent: 'read', tasks: [{ id: 't1', goal: 'every order and its lines', managers: ['Order'], routing: ['multiple_queries'] }, { id: 'c1', goal: 'how many', dependsOn: ['t1'], calculation: { operation: 'count', operands: [{ task: 't1' }] } }] }), bounds);
    expect(checked.ok && checked.plan.tasks.map((task) => task.features)).toEqual([['multiple_queries'], ['has_dependency', 'requires_calculation']]);
  });
});

describe('the fallback retrying a failed executor', () => {
  const single = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }] });

  it('retries a task whose executor read nothing, once, with the fallback', async () => {
    const models = roles({ planner: [{ text: single }], simpleExecutor: [{ text: 'I know it already.' }], fallback: readOne('4411'), synthesizer: answer(['e1']) });
    const given = port();
    expect(await runPlannedTurn(given, { models, settings, managers })).toMatchObject({ kind: 'answer', coverage: { resolved: 1, total: 1 } });
    expect((given.audits[0] as Audit).tasks[0]).toMatchObject({ status: 'resolved', role: 'fallback', attempts: [{ role: 'simpleExecutor', end: 'failed' }, { role: 'fallback', end: 'resolved' }] });
  });

  it('retries a task whose executor\'s model failed, and fails the stage only when the fallback fails too', async () => {
    const down = [{ error: { status: 500, message: 'down' } }];
    const rescued = roles({ planner: [{ text: single }], simpleExecutor: down, fallback: readOne('4411'), synthesizer: answer(['e1']) });
    expect(await runPlannedTurn(port(), { models: rescued, settings, managers })).toMatchObject({ kind: 'answer' });
    const given = port();
    const lost = roles({ planner: [{ text: single }], simpleExecutor: down, fallback: down });
    expect(await runPlannedTurn(given, { models: lost, settings, managers })).toMatchObject({ kind: 'failed', code: 'provider_failed' });
    expect((given.audits[0] as Audit).tasks[0]!.attempts).toEqual([{ role: 'simpleExecutor', end: 'provider_failed' }, { role: 'fallback', end: 'provider_failed' }]);
  });

  it('does not retry a task that used its own rounds', async () => {
    const looping = { repeat: true, toolCalls: [{ name: 'query', arguments: { manager: 'Order', fields: ['id'] } }] };
    const capped = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'], maxRounds: 2 }] });
    const models = roles({ planner: [{ text: capped }], simpleExecutor: [looping], synthesizer: answer(['e1']) });
    const given = port();
    await runPlannedTurn(given, { models, settings, managers });
    expect(models.fallback.requests).toHaveLength(0);
    // The second call repeats the first: not run again, and the audit says so.
    expect((given.audits[0] as Audit).tasks[0]).toMatchObject({ status: 'budget_exhausted', calls: [{ state: 'new' }, { state: 'duplicate' }] });
    expect(given.calls).toHaveLength(1);
  });
});

describe('bounded dependsOn depth', () => {
  const chain = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'a', managers: ['Order'] }, { id: 't2', goal: 'b', managers: ['Order'], dependsOn: ['t1'] }, { id: 't3', goal: 'c', managers: ['Order'], dependsOn: ['t2'] }] });

  it('refuses a chain deeper than maxDependencyDepth with dependency_too_deep, and takes it within a larger bound', () => {
    const refused = validatePlan(chain, bounds);
    expect(refused).toMatchObject({ ok: false, problems: [{ code: 'dependency_too_deep', message: expect.stringContaining('task t3: its dependsOn chain is 2 deep; at most 1') }] });
    expect(validatePlan(chain, { ...bounds, maxDependencyDepth: 2 }).ok).toBe(true);
    expect(() => plannedSettingsSchema.parse({ maxDependencyDepth: 6 })).toThrow();
  });

  it('gives every problem a code', () => {
    const checked = validatePlan(plan({ intent: 'read', tasks: [{ id: 't1', goal: 'a', managers: ['Invoice'], tools: ['mutate'], requires: [{ kind: 'query', manager: 'Customer' }] }, { id: 't1', goal: 'b', dependsOn: ['t9'] }] }), bounds);
    expect(checked.ok === false && checked.problems.map((problem) => problem.code)).toEqual(['unknown_manager', 'unknown_tool', 'bad_requirement', 'bad_dependency', 'duplicate_task_id', 'no_manager']);
  });
});

describe('children declared during execution', () => {
  const single = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }] });
  const declare = (children: unknown[]) => ({ when: { userTextContains: 'orders 4411' }, text: plan({ children }) });

  it('runs the children a root declares in its place, hands their evidence back, and counts them in coverage', async () => {
    const models = roles({
      planner: [{ text: single }],
      simpleExecutor: [
        declare([{ id: 't1a', goal: 'the customer', managers: ['Customer'] }]),
        ...readCustomer,
        { when: { userTextContains: 'children ended' }, text: 'Read the order through its customer.' },
      ],
      synthesizer: answer(['e1']),
    });
    const given = port();
    expect(await runPlannedTurn(given, { models, settings, managers })).toMatchObject({ kind: 'answer', coverage: { resolved: 2, total: 2, unresolved: [] } });
    const back = models.simpleExecutor.requests.at(-1)!.messages.at(-1)!;
    expect(back.role === 'user' ? back.content : '').toMatch(/t1a: resolved[\s\S]*\[e1\] task t1a/);
    const audit = given.audits[0] as Audit;
    expect(audit.tasks.map((task) => [task.declared, task.status])).toEqual([[true, 'resolved'], [false, 'resolved']]);
    expect(audit.tasks[0]!.parent).toBe(audit.tasks[1]!.task);
  });

  it('refuses a declaration past the bounds with its code, and the executor goes on', async () => {
    const three = [1, 2, 3].map((index) => ({ id: `k${index}`, goal: 'x', managers: ['Customer'] }));
    const models = roles({ planner: [{ text: single }], simpleExecutor: [declare(three), { when: { userTextContains: 'cannot run' }, toolCalls: [{ id: 'q', name: 'query', arguments: { manager: 'Order' } }] }, { when: { toolName: 'query' }, text: 'Read it myself.' }], synthesizer: answer(['e1']) });
    const given = port();
    expect(await runPlannedTurn(given, { models, settings, managers })).toMatchObject({ kind: 'answer', coverage: { resolved: 1, total: 1 } });
    const told = models.simpleExecutor.requests[1]!.messages.find((message) => message.role === 'user' && message.content.startsWith('Those children'));
    expect(told?.role === 'user' ? told.content : '').toContain('[children_exceeded] task t1 holds 0 children and declares 3; a task has at most 2.');
    expect((given.audits[0] as Audit).tasks[0]!.refused).toEqual(['children_exceeded']);
  });

  it('checks declared children against the root\'s own, the turn\'s ids and the managers', () => {
    const root: PlannedTask = { id: 't1', goal: 'x', managers: ['Order'], tools: undefined, maxRounds: 6, dependsOn: ['t1a'], root: 't1', declared: false, features: [], requirements: [], calculation: undefined };
    const child: PlannedTask = { ...root, id: 't1a', dependsOn: [], declared: false };
    const two = plan({ children: [{ id: 't1b', goal: 'y', managers: ['Customer'] }, { id: 't1c', goal: 'z', managers: ['Customer'] }] });
    expect(validateDeclaredChildren(root, two, [child, root], bounds)).toMatchObject({ ok: false, problems: [{ code: 'children_exceeded', message: 'task t1 holds 1 children and declares 2; a task has at most 2.' }] });
    expect(validateDeclaredChildren(child, plan({ children: [{ id: 'g1', goal: 'y', managers: ['Order'] }] }), [child, root], bounds)).toMatchObject({ ok: false, problems: [{ code: 'children_exceeded' }] });
    const clash = validateDeclaredChildren(root, plan({ children: [{ id: 't1a', goal: 'y', managers: ['Invoice'] }] }), [child, root], bounds);
    expect(clash.ok === false && clash.problems.map((problem) => problem.code)).toEqual(['duplicate_task_id', 'unknown_manager']);
    const fine = validateDeclaredChildren(root, plan({ children: [{ id: 't1b', goal: 'y', managers: ['Customer'] }] }), [child, root], bounds);
    expect(fine).toMatchObject({ ok: true, children: [{ id: 't1b', root: 't1', declared: true, dependsOn: [] }] });
  });
});

describe('calculation operands by path', () => {
  const store = new EvidenceStore();
  store.add({ id: 'e1', taskId: 't1', kind: 'query', source: { tool: 'query', arguments: {}, callId: 'a' }, rows: [{ id: 1, customer: { balance: '12.50' }, lines: [{ price: '1.10' }, { price: '2.20' }] }, { id: 2, customer: { balance: '7.25' }, lines: [{ price: 3 }] }], truncated: false });
  store.add({ id: 'e2', taskId: 't2', kind: 'query', source: { tool: 'query', arguments: {}, callId: 'b' }, rows: [{ customer: { balance: '2.50' } }], truncated: false });

  it.each([
    ['sum', [{ task: 't1', field: 'customer.balance' }], '19.75'],
    ['sum', [{ task: 't1', field: 'lines.price' }], '6.3'],
    ['count', [{ task: 't1', field: 'lines.price' }], '3'],
    ['maximum', [{ task: 't1', field: 'lines.0.price' }], '3'],
    ['difference', [{ task: 't2', field: 'customer.balance' }, { task: 't2', field: 'customer.balance' }], '0'],
  ] as const)('%s over %j', (operation, operands, expected) => {
    expect(calculate(operation, operands, store)).toBe(expected);
  });

  it('finds no value at a path that is not there, and refuses a path that is not one', () => {
    expect(() => calculate('sum', [{ task: 't1', field: 'customer.missing' }], store)).toThrow(/no numeric/);
    expect(validatePlan(plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Order'] }, { id: 'c1', goal: 'y', dependsOn: ['t1'], calculation: { operation: 'sum', operands: [{ task: 't1', field: 'a..b' }] } }] }), bounds)).toMatchObject({ ok: false, problems: [{ code: 'plan_shape' }] });
  });
});

describe('evidence requirements', () => {
  const needsCustomer = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'the customer of order 4411', managers: ['Order', 'Customer'], requires: [{ kind: 'query', manager: 'Order' }, { kind: 'query', manager: 'Customer' }] }] });

  it('resolves a task only once each requirement is linked to evidence about its manager', async () => {
    const orderOnly = readOne('4411').map((completion) => ({ ...completion, when: { ...completion.when, userTextContains: 'order 4411' } }));
    const both = [
      { when: { userTextContains: 'order 4411', toolName: 'query' }, text: 'Read both.' },
      { when: { userTextContains: 'order 4411' }, toolCalls: [{ id: 'a', name: 'query', arguments: { manager: 'Order', filters: { id: '4411' } } }, { id: 'b', name: 'query', arguments: { manager: 'Customer' } }] },
    ];
    const models = roles({ planner: [{ text: needsCustomer }], complexExecutor: orderOnly, fallback: both, synthesizer: answer(['e2', 'e3']) });
    const given = port();
    expect(await runPlannedTurn(given, { models, settings, managers })).toMatchObject({ kind: 'answer', coverage: { resolved: 1, total: 1 } });
    // The fallback's repeat of the order read is not run again: the customer read links the second requirement.
    expect((given.audits[0] as Audit).tasks[0]).toMatchObject({ role: 'fallback', requirements: { met: 2, total: 2 }, attempts: [{ role: 'complexExecutor', end: 'failed' }, { role: 'fallback', end: 'resolved' }] });
  });

  it('links a calculation to its own value', async () => {
    const models = roles({ planner: [{ text: plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }, { id: 'c1', goal: 'how many', dependsOn: ['t1'], calculation: { operation: 'count', operands: [{ task: 't1' }] } }] }) }], simpleExecutor: readOne('4411'), synthesizer: answer(['c1']) });
    const given = port();
    await runPlannedTurn(given, { models, settings, managers });
    expect((given.audits[0] as Audit).tasks[1]).toMatchObject({ role: 'calculation', requirements: { met: 1, total: 1 }, status: 'resolved' });
  });
});

describe('attempts, as many as the seed gives', () => {
  const single = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }] });

  it('asks the planner to correct its plan once before the fallback, and the fallback once', async () => {
    const corrected = roles({ planner: [{ text: 'in words' }, { text: single }], simpleExecutor: readOne('4411'), synthesizer: answer(['e1']) });
    const given = port();
    expect(await runPlannedTurn(given, { models: corrected, settings, managers })).toMatchObject({ kind: 'answer' });
    expect(corrected.fallback.requests).toHaveLength(0);
    const correction = corrected.planner.requests[1]!.messages.at(-1)!;
    expect(correction.role === 'user' ? correction.content : '').toContain('[plan_shape]');
    expect(given.audits[0]).toMatchObject({ plan_attempts: 2, plan_problems: ['plan_shape'] });

    const refused = roles({ planner: [{ text: 'in words' }, { text: '{}' }], fallback: [{ text: 'still words' }] });
    const after = port();
    expect(await runPlannedTurn(after, { models: refused, settings, managers })).toMatchObject({ kind: 'failed', code: 'invalid_plan' });
    expect([refused.planner.requests.length, refused.fallback.requests.length]).toEqual([2, 1]);
    expect(after.audits[0]).toMatchObject({ plan_attempts: 3 });
  });

  it('goes straight to the fallback when the planner\'s model fails', async () => {
    const models = roles({ planner: [{ error: { status: 500, message: 'down' } }], fallback: [{ text: single }], simpleExecutor: readOne('4411'), synthesizer: answer(['e1']) });
    const given = port();
    expect(await runPlannedTurn(given, { models, settings, managers })).toMatchObject({ kind: 'answer' });
    expect(given.audits[0]).toMatchObject({ plan_attempts: 2 });
  });

  it('asks the fallback for a synthesis exactly once', async () => {
    const models = roles({ planner: [{ text: single }], simpleExecutor: readOne('4411'), synthesizer: answer(['e9']), fallback: [...answer(['e8']), ...answer(['e1'])] });
    expect(await runPlannedTurn(port(), { models, settings, managers })).toMatchObject({ kind: 'failed', code: 'synthesis_failed' });
    expect(models.fallback.requests).toHaveLength(1);
  });
});

describe('the planned audit record', () => {
  it('keeps roles, match sources, call states, rounds and the trust-group check, and nothing it must not', async () => {
    const single = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'the order', managers: ['Order'] }, { id: 't2', goal: 'the buyer', managers: ['Customer'] }] });
    const models = roles({
      planner: [{ text: single }],
      simpleExecutor: [
        { when: { userTextContains: 'the order', toolName: 'query' }, text: 'Read.' },
        { when: { userTextContains: 'the order' }, toolCalls: [{ id: 'o', name: 'query', arguments: { manager: 'Order', filters: { id: '4411' } } }] },
        { when: { userTextContains: 'the buyer', toolName: 'query' }, text: 'Read.' },
        { when: { userTextContains: 'the buyer' }, toolCalls: [{ id: 'c', name: 'query', arguments: { manager: 'Customer' } }] },
      ],
      synthesizer: answer(['e1', 'e2']),
    });
    const given = port({ text: 'who bought order 4411?' });
    await runPlannedTurn(given, { models, settings, managers, trustGroupChecked: true });
    const audit = given.audits[0] as Audit;
    // "order" is the Order manager's name; nothing in the question meets Customer.
    expect(audit.tasks.map((task) => task.match_sources)).toEqual([['exact_name', 'schema_description'], ['planner_only']]);
    expect(audit).toMatchObject({ trust_group: 'checked', plan_attempts: 1, rounds: { used: 6, limit: 24 } });
    expect(audit.tasks.every((task) => /^[0-9a-f]{32}$/.test(task.calls[0]!.call) && task.calls[0]!.state === 'new')).toBe(true);
    const text = JSON.stringify(audit);
    for (const secret of ['Order', 'Customer', '4411', 'the buyer', 'bought']) expect(text).not.toContain(secret);
  });
});
