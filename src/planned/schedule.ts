import type { JsonValue } from '../core/index.js';
import type { RoundBudget } from './budget.js';
import { StageStop } from './budget.js';
import { calculate, CalculationError } from './calculations.js';
import type { EvidenceStore } from './evidence.js';
import type { CallNote, TaskCalls } from './executor.js';
import { executeTask } from './executor.js';
import type { PlanBounds, PlannedTask } from './plan.js';
import { validateDeclaredChildren } from './plan.js';
import type { PlanProblemCode } from './plan-problems.js';
import type { PlannedModels, PlannedPort, TaskStatus } from './port.js';
import { executorRole } from './routing.js';
import type { ExecutorRole } from './routing.js';
import type { PlannedSettings } from './settings.js';
import { evidenceListing } from './synthesizer.js';

/** One model's go at a task, and how it ended. */
export interface TaskAttempt {
  readonly role: ExecutorRole | 'fallback';
  readonly end: TaskStatus | 'provider_failed';
}

/** What the audit keeps of a task's execution. */
export interface TaskTrace {
  readonly attempts: TaskAttempt[];
  readonly calls: CallNote[];
  /** Requirements linked to evidence, of those the task has. */
  met: number;
  /** The codes of children declarations refused. */
  readonly refused: PlanProblemCode[];
}

export interface Execution {
  /** The plan's tasks and the children declared while running, dependencies first. */
  readonly tasks: readonly PlannedTask[];
  readonly traces: ReadonlyMap<string, TaskTrace>;
  /** Why the stage stopped early, if it did. */
  readonly stopped: 'budget_exhausted' | 'deadline_exceeded' | 'provider_failed' | undefined;
}

/** How a task ends when the stage stopped for `reason`. */
function stoppedStatus(reason: StageStop['reason']): TaskStatus {
  return reason === 'budget_exhausted' ? 'budget_exhausted' : 'failed';
}

/**
 * Runs the tasks: each once every task it depends on is resolved (blocked when one is not), at
 * most `maxConcurrentTasks` at once, on the executor its routing features choose; a read task that
 * fails (or whose model fails) is tried once more by the fallback. A root's executor may declare
 * children within the bounds; they run in its place, and their evidence goes back to it.
 */
export async function executeTasks(input: {
  readonly port: PlannedPort;
  readonly models: PlannedModels;
  readonly settings: PlannedSettings;
  readonly bounds: PlanBounds;
  readonly planned: readonly PlannedTask[];
  readonly evidence: EvidenceStore;
  readonly statuses: Map<string, TaskStatus>;
  readonly budget: RoundBudget;
  readonly signal: AbortSignal;
}): Promise<Execution> {
  const { port, models, settings, evidence, statuses } = input;
  const tasks = [...input.planned];
  const traces = new Map<string, TaskTrace>();
  const goals = new Map(tasks.map((task) => [task.id, task.goal]));
  const set = async (task: PlannedTask, status: TaskStatus): Promise<void> => {
    statuses.set(task.id, status);
    const waiting = port.emit({ type: 'task_status', task_id: task.id, status, ...(status === 'pending' ? { goal: task.goal } : {}) });
    if (waiting !== undefined) await waiting;
  };
  /** A root's evidence is its own and its resolved children's. */
  const gatheredBy = (task: PlannedTask) => [task, ...tasks.filter((item) => item.root === task.id && item.id !== task.id && statuses.get(item.id) === 'resolved')].flatMap((item) => evidence.forTask(item.id));
  let stopped: Execution['stopped'];

  const declareFor = (task: PlannedTask, trace: TaskTrace) => async (text: string): Promise<string> => {
    const checked = validateDeclaredChildren(task, text, tasks, input.bounds);
    if (!checked.ok) {
      trace.refused.push(...checked.problems.map((problem) => problem.code));
      return `Those children cannot run: ${checked.problems.map((problem) => `[${problem.code}] ${problem.message}`).join(' ')} Declare them again corrected, or read the rest yourself.`;
    }
    tasks.splice(tasks.indexOf(task), 0, ...checked.children);
    for (const child of checked.children) {
      goals.set(child.id, child.goal);
      await set(child, 'pending');
    }
    // In the root's place: the turn never runs more than maxConcurrentTasks at once.
    for (const child of checked.children) {
      if (stopped === undefined) await runOne(child);
      else await set(child, stoppedStatus(stopped));
    }
    const ended = checked.children.map((child) => `${child.id}: ${statuses.get(child.id) ?? 'pending'}`).join(', ');
    return `Your children ended (${ended}). Their evidence:\n${evidenceListing(checked.children.flatMap((child) => evidence.forTask(child.id)), goals) || '(none)'}\nNow finish your task.`;
  };

  const runOne = async (task: PlannedTask): Promise<void> => {
    const trace: TaskTrace = { attempts: [], calls: [], met: 0, refused: [] };
    traces.set(task.id, trace);
    await set(task, 'running');
    if (task.calculation !== undefined) {
      try {
        const value = calculate(task.calculation.operation, task.calculation.operands, evidence);
        const record = evidence.add({ id: task.id, taskId: task.id, kind: 'calculation', source: { operation: task.calculation.operation, operands: task.calculation.operands as unknown as JsonValue }, rows: [value], value, truncated: false });
        trace.met = task.requirements.length - evidence.linkRequirements(task.requirements, [record]).length;
        await set(task, 'resolved');
      } catch (error) {
        if (!(error instanceof CalculationError)) throw error;
        await set(task, 'failed');
      }
      return;
    }
    const calls: TaskCalls = { made: new Map(), notes: trace.calls };
    const canDeclare = task.root === task.id && !task.declared;
    const childrenLeft = () => settings.maxChildrenPerTask - tasks.filter((item) => item.root === task.id && item.id !== task.id).length;
    for (const role of [executorRole(task.features), 'fallback'] as const) {
      // What the tasks it depends on read (a root's children among them), and what it read itself so far.
      const known = [...task.dependsOn.flatMap((id) => evidence.forTask(id)), ...gatheredBy(task)];
      const before = evidenceListing(known.filter((record, index) => known.findIndex((other) => other.id === record.id) === index), goals);
      let status: TaskStatus;
      try {
        const end = await executeTask({ task, provider: models[role], port, tools: port.tools, evidence, before, maxEvidenceRows: settings.maxEvidenceRows, signal: input.signal, budget: input.budget, calls, childrenLeft: canDeclare ? childrenLeft() : 0, declare: canDeclare ? declareFor(task, trace) : undefined });
        const gathered = gatheredBy(task);
        const unmet = evidence.linkRequirements(task.requirements, gathered);
        trace.met = task.requirements.length - unmet.length;
        // A task whose executor read nothing, or not what it requires, has no evidence to stand on.
        status = end === 'budget_exhausted' ? 'budget_exhausted' : gathered.length > 0 && unmet.length === 0 ? 'resolved' : 'failed';
      } catch (error) {
        if (!(error instanceof StageStop)) throw error;
        trace.attempts.push({ role, end: error.reason === 'provider_failed' ? 'provider_failed' : stoppedStatus(error.reason) });
        if (error.reason === 'provider_failed' && role !== 'fallback') continue;
        stopped ??= error.reason;
        await set(task, stoppedStatus(error.reason));
        return;
      }
      trace.attempts.push({ role, end: status });
      // The task's own round bound is a bound: only a task that failed is tried again.
      if (status !== 'failed' || role === 'fallback') {
        await set(task, status);
        return;
      }
    }
  };

  const running = new Map<string, Promise<void>>();
  for (const task of tasks) await set(task, 'pending');
  for (;;) {
    for (const task of [...tasks]) {
      if (task.declared || statuses.get(task.id) !== 'pending') continue;
      const dependencies = task.dependsOn.map((id) => statuses.get(id));
      if (stopped !== undefined) await set(task, stoppedStatus(stopped));
      else if (dependencies.some((status) => status !== undefined && status !== 'pending' && status !== 'running' && status !== 'resolved')) await set(task, 'blocked');
      else if (dependencies.every((status) => status === 'resolved') && running.size < settings.maxConcurrentTasks) {
        const work = runOne(task).finally(() => running.delete(task.id));
        running.set(task.id, work);
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  return { tasks, traces, stopped };
}
