import { describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../providers/index.js';
import { calculate, CalculationError, checkTrustGroups, EvidenceStore, matchSources, plannedSettingsSchema, roleProfiles, runPlannedTurn, validatePlan } from './index.js';
import { managers, models, plan, port, readOne, scripted, settings } from './test-support.js';

const bounds = { maxRootTasks: 6, maxChildrenPerTask: 2, maxDependencyDepth: 1, maxRoundsPerTask: 6, managers: ['Order', 'Customer'], tools: ['query', 'search_managers'] };

describe('validatePlan', () => {
  it('accepts a read plan with dependencies, children and a calculation, dependencies first', () => {
    const checked = validatePlan(
      plan({
        intent: 'read',
        tasks: [
          { id: 't1', goal: 'order 4411', managers: ['Order'], children: [{ id: 't1a', goal: 'its customer', managers: ['Customer'] }] },
          { id: 't2', goal: 'order 4412', managers: ['Order'] },
          { id: 'c1', goal: 'the difference', dependsOn: ['t1', 't2'], calculation: { operation: 'difference', operands: [{ task: 't1', field: 'total' }, { task: 't2', field: 'total' }] } },
        ],
      }),
      bounds,
    );
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.plan.tasks.map((task) => [task.id, task.dependsOn])).toEqual([['t1a', []], ['t1', ['t1a']], ['t2', []], ['c1', ['t1', 't2']]]);
    expect(checked.plan.roots).toBe(3);
  });

  it.each([
    ['not JSON', 'here is a plan', /not one JSON object/],
    ['seven roots', plan({ intent: 'read', tasks: Array.from({ length: 7 }, (_, i) => ({ id: `t${i}`, goal: 'x', managers: ['Order'] })) }), /at most 6 root tasks/],
    ['three children', plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Order'], children: [1, 2, 3].map((i) => ({ id: `c${i}`, goal: 'y', managers: ['Order'] })) }] }), /at most 2/],
    ['a grandchild', plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Order'], children: [{ id: 'c1', goal: 'y', managers: ['Order'], children: [] }] }] }), /Unrecognized key/],
    ['an unknown tool', plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Order'], tools: ['mutate'] }] }), /'mutate' is not a read tool/],
    ['a later dependency', plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Order'], dependsOn: ['t2'] }, { id: 't2', goal: 'y', managers: ['Order'] }] }), /not a root task listed before it/],
    ['an operand outside its dependencies', plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Order'] }, { id: 'c1', goal: 'sum', calculation: { operation: 'sum', operands: [{ task: 't1', field: 'total' }] } }] }), /must be in its dependsOn/],
    ['too many rounds', plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Order'], maxRounds: 99 }] }), /maxRounds is at most 6/],
    ['a mutation with tasks', plan({ intent: 'mutation', tasks: [{ id: 't1', goal: 'x', managers: ['Order'] }] }), /holds no tasks/],
  ])('refuses %s, saying why', (_name, text, problem) => {
    const checked = validatePlan(text, bounds);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.map((found) => found.message).join(' ')).toMatch(problem);
  });

  it('names the managers it cannot resolve', () => {
    const checked = validatePlan(plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Invoice'] }] }), bounds);
    expect(checked).toMatchObject({ ok: false, unresolvedManagers: ['Invoice'] });
  });
});

describe('calculate', () => {
  const store = new EvidenceStore();
  store.add({ id: 'e1', taskId: 't1', kind: 'query', source: { tool: 'query', arguments: {}, callId: 'a' }, rows: [{ total: '0.10' }, { total: '0.20' }, { total: 3 }], truncated: false });
  store.add({ id: 'e2', taskId: 't2', kind: 'query', source: { tool: 'query', arguments: {}, callId: 'b' }, rows: [{ total: '10.00' }], truncated: false });
  store.add({ id: 'c9', taskId: 'c9', kind: 'calculation', source: { operation: 'sum', operands: [] }, rows: ['4'], value: '4', truncated: false });

  it.each([
    ['count', [{ task: 't1' }], '3'],
    ['sum', [{ task: 't1', field: 'total' }], '3.3'],
    ['average', [{ task: 't1', field: 'total' }], '1.1'],
    ['minimum', [{ task: 't1', field: 'total' }], '0.1'],
    ['maximum', [{ task: 't1', field: 'total' }], '3'],
    ['difference', [{ task: 't2', field: 'total' }, { task: 'c9' }], '6'],
    ['ratio', [{ task: 't2', field: 'total' }, { task: 'c9' }], '2.5'],
    ['percentage', [{ task: 'c9' }, { task: 't2', field: 'total' }], '40'],
  ] as const)('%s in decimal arithmetic', (operation, operands, expected) => {
    expect(calculate(operation, operands, store)).toBe(expected);
  });

  it('refuses a two-operand operation over several values, and a division by zero', () => {
    expect(() => calculate('difference', [{ task: 't1', field: 'total' }, { task: 't2', field: 'total' }], store)).toThrow(CalculationError);
    store.add({ id: 'e3', taskId: 't3', kind: 'query', source: { tool: 'query', arguments: {}, callId: 'c' }, rows: [{ total: 0 }], truncated: false });
    expect(() => calculate('ratio', [{ task: 't2', field: 'total' }, { task: 't3', field: 'total' }], store)).toThrow(/by zero/);
  });
});

describe('provider profiles', () => {
  const settings = plannedSettingsSchema.parse({ enabled: true, roles: { planner: 'strong', simpleExecutor: 'fast', complexExecutor: 'strong', synthesizer: 'strong', fallback: 'strong' } });
  it('pins each role to a profile, and refuses roles across trust groups naming them', () => {
    const roles = roleProfiles(settings, { profiles: { strong: { provider: 'openai', providerConfig: {}, trustGroup: 'cloud' }, fast: { provider: 'ollama', providerConfig: {}, trustGroup: 'local' } }, provider: null, providerConfig: {} });
    expect(() => checkTrustGroups(roles)).toThrow(expect.objectContaining({ code: 'trust_group_mismatch', message: expect.stringContaining("planner, complexExecutor, synthesizer, fallback in 'cloud'; simpleExecutor in 'local'") }));
  });
  it('refuses a role that names no profile', () => {
    expect(() => roleProfiles(settings, { profiles: {}, provider: 'openai', providerConfig: {} })).toThrow(expect.objectContaining({ code: 'unknown_profile' }));
  });
});

describe('runPlannedTurn', () => {
  it('plans, reads with task ids, calculates exactly, and answers citing its evidence, with full coverage', async () => {
    // The query rows are the same for both reads: each task keeps only its own.
    const given = port({
      dispatch: (call) => {
        const id = ((call.arguments as { filters?: { id?: string } }).filters?.id) ?? '';
        return Promise.resolve({ data: [{ id, total: id === '4411' ? '54.00' : '121.50' }], total_count: 1, has_more: false });
      },
    });
    const outcome = await runPlannedTurn(given, { models: models({ executor: [...readOne('4411'), ...readOne('4412')], synthesizer: [{ text: plan({ answer: 'Order 4412 is 67.5 more than order 4411.', evidence: ['e1', 'e2', 'c1'] }) }] }), settings: settings, managers });
    expect(outcome).toEqual({ kind: 'answer', text: 'Order 4412 is 67.5 more than order 4411.', coverage: { resolved: 3, total: 3, unresolved: [] }, evidence: ['e1', 'e2', 'c1'] });
    // The two reads run at once: each call and result carries the task it belongs to.
    const tools = given.events.filter((event) => event.type === 'tool_call' || event.type === 'tool_result');
    expect(tools.map((event) => `${event.type}:${'task_id' in event ? event.task_id : ''}:${'id' in event ? event.id : ''}`).sort()).toEqual(['tool_call:t1:t1-q4411', 'tool_call:t2:t2-q4412', 'tool_result:t1:t1-q4411', 'tool_result:t2:t2-q4412']);
    expect(given.events.filter((event) => event.type === 'task_status' && event.status === 'resolved').map((event) => (event as { task_id: string }).task_id)).toEqual(['t1', 't2', 'c1']);
    expect(given.events.at(-1)).toEqual({ type: 'text_chunk', content: 'Order 4412 is 67.5 more than order 4411.' });
    const audit = JSON.stringify(given.audits);
    expect(audit).toContain('"terminal":null');
    for (const secret of ['Order', '4411', 'the total of', 'difference']) expect(audit).not.toContain(secret);
  });

  it('never offers a write: an executor call outside the read tools is refused without running', async () => {
    const given = port();
    const single = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }] });
    await runPlannedTurn(given, { models: models({ planner: [{ text: single }], executor: [{ toolCalls: [{ id: 'm', name: 'mutate', arguments: { mutation: 'deleteOrder' } }] }, ...readOne('4411')], synthesizer: [{ text: plan({ answer: 'ok', evidence: ['e1'] }) }] }), settings: settings, managers });
    expect(given.calls.map((call) => call.name)).toEqual(['query']);
    expect(given.events.find((event) => event.type === 'tool_result' && event.name === 'mutate')).toMatchObject({ result: { error: { code: 'not_allowed' } } });
  });

  it('asks the fallback for a plan once, then ends invalid_plan or manager_unresolved', async () => {
    const fixed = await runPlannedTurn(port(), { models: models({ planner: [{ text: 'a plan in words' }], fallback: [{ text: plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }] }) }, { text: plan({ answer: 'x', evidence: ['e1'] }) }], executor: readOne('4411'), synthesizer: [{ text: plan({ answer: 'Two orders.', evidence: ['e1'] }) }] }), settings: settings, managers });
    expect(fixed).toMatchObject({ kind: 'answer', text: 'Two orders.' });
    expect(await runPlannedTurn(port(), { models: models({ planner: [{ text: '{}' }], fallback: [{ text: 'still no' }] }), settings: settings, managers })).toMatchObject({ kind: 'failed', code: 'invalid_plan', message: 'I could not prepare a safe plan for that request.' });
    const unknown = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'x', managers: ['Invoice'] }] });
    expect(await runPlannedTurn(port(), { models: models({ planner: [{ text: unknown }], fallback: [{ text: unknown }] }), settings: settings, managers })).toMatchObject({ kind: 'failed', code: 'manager_unresolved' });
  });

  it('refuses a synthesis citing evidence that does not exist, once, then ends synthesis_failed', async () => {
    const single = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }] });
    const outcome = await runPlannedTurn(port(), { models: models({ planner: [{ text: single }], executor: readOne('4411'), synthesizer: [{ text: plan({ answer: 'Made up.', evidence: ['e7'] }) }], fallback: [{ text: plan({ answer: 'Still made up.', evidence: ['e8'] }) }] }), settings: settings, managers });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'synthesis_failed', coverage: { resolved: 1, total: 1 } });
  });

  it('blocks the tasks that depend on one that gathered nothing, and says so', async () => {
    const chain = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'a', managers: ['Order'] }, { id: 't2', goal: 'b', managers: ['Order'], dependsOn: ['t1'] }] });
    const given = port();
    const outcome = await runPlannedTurn(given, { models: models({ planner: [{ text: chain }], executor: [{ text: 'I know it already.' }] }), settings: settings, managers });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'dependency_blocked', coverage: { resolved: 0, total: 2, unresolved: ['t1', 't2'] } });
    expect(given.events.filter((event) => event.type === 'task_status').map((event) => `${(event as { task_id: string }).task_id}:${(event as { status: string }).status}`)).toEqual(['t1:pending', 't2:pending', 't1:running', 't1:failed', 't2:blocked']);
  });

  it('ends budget_exhausted when the turn runs out of model rounds', async () => {
    const tight = plannedSettingsSchema.parse({ enabled: true, maxRoundsPerTurn: 3 });
    const outcome = await runPlannedTurn(port(), { models: models({ executor: [...readOne('4411'), ...readOne('4412')] }), settings: tight, managers });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'budget_exhausted' });
  });

  it('ends deadline_exceeded when the executors run past the evidence deadline', async () => {
    const quick = plannedSettingsSchema.parse({ enabled: true, evidenceTimeoutSeconds: 0.05 });
    const single = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }] });
    const outcome = await runPlannedTurn(port(), { models: models({ planner: [{ text: single }], executor: [{ delayMs: 2000, text: 'late' }] }), settings: quick, managers });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'deadline_exceeded' });
  });

  it('ends provider_failed when the planner and its fallback both fail', async () => {
    const failing = [{ error: { status: 500, message: 'down' } }];
    const outcome = await runPlannedTurn(port(), { models: { ...models({}), planner: scripted(failing), fallback: scripted(failing) }, settings: plannedSettingsSchema.parse({ enabled: true }), managers });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'provider_failed', message: 'The language model could not complete the request.' });
  });

  it('hands a change to the plain tool loop', async () => {
    expect(await runPlannedTurn(port(), { models: models({ planner: [{ text: plan({ intent: 'mutation', tasks: [] }) }] }), settings: settings, managers })).toEqual({ kind: 'mutation' });
  });

  it('returns the synthesizer\'s clarifying question', async () => {
    const single = plan({ intent: 'read', tasks: [{ id: 't1', goal: 'orders 4411', managers: ['Order'] }] });
    const outcome = await runPlannedTurn(port(), { models: models({ planner: [{ text: single }], executor: readOne('4411'), synthesizer: [{ text: plan({ clarification: { question: 'Which customer?', choices: ['Acme', 'Globex'] } }) }] }), settings: settings, managers });
    expect(outcome).toMatchObject({ kind: 'clarification', question: 'Which customer?', choices: ['Acme', 'Globex'] });
  });
});

describe('the planner prompt', () => {
  it('lists each manager with its description and catalogue metadata', async () => {
    const planner = createScriptedProvider({ completions: [{ text: plan({ intent: 'mutation', tasks: [] }) }] });
    const catalogued = [{ name: 'Payment', description: 'Money received.', catalog: { domain: 'billing', useWhen: 'the question is about money received or given back', distinguishFrom: ['Order'] } }, { name: 'Order', description: undefined }];
    await runPlannedTurn(port(), { models: { ...models({}), planner }, settings, managers: catalogued });
    const system = planner.requests[0]!.messages[0]!;
    expect(system.role === 'system' ? system.content : '').toContain('- Payment: Money received. (domain: billing; use when the question is about money received or given back; not to be confused with Order)\n- Order');
  });

  it("names a manager's catalogue aliases first, and the audit finds an alias said in the question", async () => {
    const planner = createScriptedProvider({ completions: [{ text: plan({ intent: 'mutation', tasks: [] }) }] });
    const payment = { name: 'Payment', description: 'Money received.', catalog: { aliases: ['receipt', 'cash in'], domain: 'billing' } };
    await runPlannedTurn(port(), { models: { ...models({}), planner }, settings, managers: [payment] });
    const system = planner.requests[0]!.messages[0]!;
    expect(system.role === 'system' ? system.content : '').toContain('- Payment: Money received. (also called receipt, cash in; domain: billing)');
    expect(matchSources(payment, 'How much cash in last week?')).toEqual(['exact_alias']);
    expect(matchSources(payment, 'List the receipts')).toEqual(['exact_alias']);
    expect(matchSources(payment, 'How much cash was there?')).toEqual(['planner_only']);
  });
});
