import { canonicalHash } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { RoundBudget, stageSignal, StageStop } from './budget.js';
import { calculate, CalculationError } from './calculations.js';
import { terminalMessages } from './errors.js';
import type { TerminalReason } from './errors.js';
import { EvidenceStore } from './evidence.js';
import { evidenceListing } from './synthesizer.js';
import { executeTask } from './executor.js';
import type { PlannedTask, ValidatedPlan } from './plan.js';
import { planTurn } from './planner.js';
import type { Coverage, PlannedModels, PlannedOutcome, PlannedPort, PlannedRunner, TaskStatus } from './port.js';
import type { PlannedSettings } from './settings.js';
import { synthesize } from './synthesizer.js';

/** A manager a plan may name, as the planner reads it. */
export interface PlannedManager {
  readonly name: string;
  readonly description: string | undefined;
  readonly catalog?: { readonly domain?: string | undefined; readonly useWhen?: string | undefined; readonly distinguishFrom?: readonly string[] | undefined } | undefined;
}

/** What a planned turn runs with: a model per role, the bounds, and the managers plans may name. */
export interface PlannedStrategy {
  readonly models: PlannedModels;
  readonly settings: PlannedSettings;
  /** The managers the assistant can see, with their descriptions and catalogue metadata. */
  readonly managers: readonly PlannedManager[];
}

/** The engine's planned read strategy (`EngineOptions.planned`). */
export function createPlannedRunner(strategy: PlannedStrategy): PlannedRunner {
  return { run: (port) => runPlannedTurn(port, strategy) };
}

/**
 * A planned read turn: plan (validated before anything runs) → execute the tasks with read tools,
 * dependencies first and a few at once → calculate over the evidence → synthesize an answer that
 * cites only that evidence. Every model request is charged to one ledger; each stage and the turn
 * have deadlines; an answer comes with its coverage, a failure with one stable reason.
 */
export async function runPlannedTurn(port: PlannedPort, strategy: PlannedStrategy): Promise<PlannedOutcome> {
  const { models, settings, managers } = strategy;
  const started = port.clock();
  const budget = new RoundBudget(settings.maxRoundsPerTurn);
  const turnSignal = stageSignal(port.signal, settings.turnTimeoutSeconds);
  const latency: Record<string, number> = {};
  const audit = (terminal: string | null, plan: ValidatedPlan | undefined, statuses: ReadonlyMap<string, TaskStatus>, coverage: Coverage | undefined, evidence: EvidenceStore): void => {
    port.audit?.(auditRecord({ terminal, plan, statuses, coverage, evidence, rounds: budget.used, latency: { ...latency, turn: port.clock() - started } }));
  };
  const failed = (reason: TerminalReason, plan: ValidatedPlan | undefined, statuses: ReadonlyMap<string, TaskStatus>, coverage: Coverage | undefined, evidence: EvidenceStore): PlannedOutcome => {
    audit(reason, plan, statuses, coverage, evidence);
    return { kind: 'failed', code: reason, message: terminalMessages[reason], coverage };
  };

  const evidence = new EvidenceStore();
  const statuses = new Map<string, TaskStatus>();
  const bounds = {
    maxRootTasks: settings.maxRootTasks,
    maxChildrenPerTask: settings.maxChildrenPerTask,
    maxRoundsPerTask: settings.maxRoundsPerTask,
    managers: managers.map((manager) => manager.name),
    tools: port.tools.map((tool) => tool.name),
    descriptions: new Map(managers.map((manager) => [manager.name, describeManager(manager)])),
  };
  let planning;
  const planStarted = port.clock();
  try {
    planning = await planTurn({ planner: models.planner, fallback: models.fallback, bounds, question: port.text, history: port.history, signal: stageSignal(turnSignal, settings.planningTimeoutSeconds), budget, addUsage: (usage) => port.addUsage(usage) });
  } catch (error) {
    if (error instanceof StageStop) return failed(error.reason, undefined, statuses, undefined, evidence);
    throw error;
  } finally {
    latency.planning = port.clock() - planStarted;
  }
  if (!planning.ok) return failed(planning.reason, undefined, statuses, undefined, evidence);
  const plan = planning.plan;
  if (plan.intent === 'mutation') {
    audit('mutation', plan, statuses, undefined, evidence);
    return { kind: 'mutation' };
  }

  const executionStarted = port.clock();
  const stop = await executeTasks(port, models, settings, plan, evidence, statuses, budget, stageSignal(turnSignal, settings.evidenceTimeoutSeconds));
  latency.evidence = port.clock() - executionStarted;
  const coverage = coverageOf(plan, statuses);
  if (coverage.resolved === 0) return failed(stop ?? firstReason(statuses), plan, statuses, coverage, evidence);

  const goals = new Map(plan.tasks.map((task) => [task.id, task.goal]));
  const usable = evidence.all().filter((record) => statuses.get(record.taskId) === 'resolved');
  const synthesisStarted = port.clock();
  let synthesis;
  try {
    synthesis = await synthesize({ synthesizer: models.synthesizer, fallback: models.fallback, question: port.text, evidence: usable, goals, unresolved: coverage.unresolved, signal: stageSignal(turnSignal, settings.synthesisTimeoutSeconds), budget, addUsage: (usage) => port.addUsage(usage) });
  } catch (error) {
    if (error instanceof StageStop) return failed(error.reason, plan, statuses, coverage, evidence);
    throw error;
  } finally {
    latency.synthesis = port.clock() - synthesisStarted;
  }
  if (synthesis === undefined) return failed('synthesis_failed', plan, statuses, coverage, evidence);
  audit(null, plan, statuses, coverage, evidence);
  if (synthesis.kind === 'clarification') return { kind: 'clarification', question: synthesis.question, choices: synthesis.choices, coverage };
  const shown = port.emit({ type: 'text_chunk', content: synthesis.text });
  if (shown !== undefined) await shown;
  return { kind: 'answer', text: synthesis.text, coverage, evidence: synthesis.evidence };
}

/**
 * Runs the tasks: each once every task it depends on is resolved (blocked when one is not), at
 * most `maxConcurrentTasks` at once. Returns the reason the stage stopped early, if it did.
 */
async function executeTasks(
  port: PlannedPort,
  models: PlannedModels,
  settings: PlannedSettings,
  plan: ValidatedPlan,
  evidence: EvidenceStore,
  statuses: Map<string, TaskStatus>,
  budget: RoundBudget,
  signal: AbortSignal,
): Promise<'budget_exhausted' | 'deadline_exceeded' | 'provider_failed' | undefined> {
  const goals = new Map(plan.tasks.map((task) => [task.id, task.goal]));
  const set = async (task: PlannedTask, status: TaskStatus): Promise<void> => {
    statuses.set(task.id, status);
    const waiting = port.emit({ type: 'task_status', task_id: task.id, status, ...(status === 'pending' ? { goal: task.goal } : {}) });
    if (waiting !== undefined) await waiting;
  };
  for (const task of plan.tasks) await set(task, 'pending');
  let stopped: 'budget_exhausted' | 'deadline_exceeded' | 'provider_failed' | undefined;
  const running = new Map<string, Promise<void>>();
  const runOne = async (task: PlannedTask): Promise<void> => {
    await set(task, 'running');
    if (task.calculation !== undefined) {
      try {
        const value = calculate(task.calculation.operation, task.calculation.operands, evidence);
        evidence.add({ id: task.id, taskId: task.id, kind: 'calculation', source: { operation: task.calculation.operation, operands: task.calculation.operands as unknown as JsonValue }, rows: [value], value, truncated: false });
        await set(task, 'resolved');
      } catch (error) {
        if (!(error instanceof CalculationError)) throw error;
        await set(task, 'failed');
      }
      return;
    }
    const before = evidenceListing(task.dependsOn.flatMap((id) => evidence.forTask(id)), goals);
    try {
      const end = await executeTask({ task, provider: models.executor, port, tools: port.tools, evidence, before, maxEvidenceRows: settings.maxEvidenceRows, signal, budget });
      // A task whose executor read nothing has no evidence to stand on.
      await set(task, end === 'resolved' && evidence.forTask(task.id).length > 0 ? 'resolved' : end === 'resolved' ? 'failed' : 'budget_exhausted');
    } catch (error) {
      if (!(error instanceof StageStop)) throw error;
      stopped ??= error.reason;
      await set(task, error.reason === 'budget_exhausted' ? 'budget_exhausted' : 'failed');
    }
  };
  for (;;) {
    for (const task of plan.tasks) {
      if (statuses.get(task.id) !== 'pending') continue;
      const dependencies = task.dependsOn.map((id) => statuses.get(id));
      if (stopped !== undefined) await set(task, stopped === 'budget_exhausted' ? 'budget_exhausted' : 'failed');
      else if (dependencies.some((status) => status !== undefined && status !== 'pending' && status !== 'running' && status !== 'resolved')) await set(task, 'blocked');
      else if (dependencies.every((status) => status === 'resolved') && running.size < settings.maxConcurrentTasks) {
        const work = runOne(task).finally(() => running.delete(task.id));
        running.set(task.id, work);
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  return stopped;
}

/** A manager's line in the planner's prompt: its description, then its catalogue metadata. */
function describeManager(manager: PlannedManager): string | undefined {
  const { domain, useWhen, distinguishFrom } = manager.catalog ?? {};
  const notes = [domain === undefined ? '' : `domain: ${domain}`, useWhen === undefined ? '' : `use when ${useWhen}`, (distinguishFrom ?? []).length === 0 ? '' : `not to be confused with ${distinguishFrom!.join(', ')}`].filter((note) => note !== '');
  const parts = [manager.description, notes.length === 0 ? undefined : `(${notes.join('; ')})`].filter((part) => part !== undefined && part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}

function coverageOf(plan: ValidatedPlan, statuses: ReadonlyMap<string, TaskStatus>): Coverage {
  const unresolved = plan.tasks.filter((task) => statuses.get(task.id) !== 'resolved').map((task) => task.id);
  return { resolved: plan.tasks.length - unresolved.length, total: plan.tasks.length, unresolved };
}

/** Why no task came through, from how the tasks ended. */
function firstReason(statuses: ReadonlyMap<string, TaskStatus>): TerminalReason {
  const ended = [...statuses.values()];
  if (ended.includes('budget_exhausted')) return 'budget_exhausted';
  if (ended.includes('blocked')) return 'dependency_blocked';
  return 'synthesis_failed';
}

/**
 * The planned turn's audit record, allow-listed: opaque hashes of the plan, its tasks and every
 * call's canonical identity, statuses, round and latency counts, evidence kinds, coverage and the
 * terminal reason. Never a manager name, a goal, an argument value, a result or a profile.
 */
function auditRecord(input: {
  readonly terminal: string | null;
  readonly plan: ValidatedPlan | undefined;
  readonly statuses: ReadonlyMap<string, TaskStatus>;
  readonly coverage: Coverage | undefined;
  readonly evidence: EvidenceStore;
  readonly rounds: number;
  readonly latency: Readonly<Record<string, number>>;
}): Record<string, JsonValue> {
  const kinds: Record<string, number> = {};
  for (const record of input.evidence.all()) kinds[record.kind] = (kinds[record.kind] ?? 0) + 1;
  const tasks = (input.plan?.tasks ?? []).map((task) => ({
    task: canonicalHash(['task', task.id]).slice(0, 16),
    status: input.statuses.get(task.id) ?? 'pending',
    calls: input.evidence.forTask(task.id).flatMap((record) => ('tool' in record.source ? [canonicalHash([record.source.tool, record.source.arguments]).slice(0, 32)] : [])),
  }));
  return {
    event: 'planned_turn',
    plan: input.plan === undefined ? null : canonicalHash(input.plan.tasks.map((task) => [task.id, task.dependsOn])).slice(0, 16),
    tasks,
    rounds: input.rounds,
    latency_ms: { ...input.latency },
    evidence: kinds,
    coverage: input.coverage === undefined ? null : { resolved: input.coverage.resolved, total: input.coverage.total },
    terminal: input.terminal,
  };
}
