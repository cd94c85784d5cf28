import { auditRecord } from './audit.js';
import { RoundBudget, stageSignal, StageStop } from './budget.js';
import { terminalMessages } from './errors.js';
import type { TerminalReason } from './errors.js';
import { EvidenceStore } from './evidence.js';
import { describeManager } from './manager.js';
import type { PlannedManager } from './manager.js';
import type { PlannedTask } from './plan.js';
import type { PlanProblemCode } from './plan-problems.js';
import { planTurn } from './planner.js';
import type { Coverage, PlannedModels, PlannedOutcome, PlannedPort, PlannedRunner, TaskStatus } from './port.js';
import { executeTasks } from './schedule.js';
import type { TaskTrace } from './schedule.js';
import type { PlannedSettings } from './settings.js';
import { synthesize } from './synthesizer.js';

/** What a planned turn runs with: a model per role, the bounds, and the managers plans may name. */
export interface PlannedStrategy {
  readonly models: PlannedModels;
  readonly settings: PlannedSettings;
  /** The managers the assistant can see, with their descriptions and catalogue metadata. */
  readonly managers: readonly PlannedManager[];
  /** The models' profiles were checked to share one trust group (what `configuredPlannedRunner` does); the audit says so. */
  readonly trustGroupChecked?: boolean | undefined;
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
  const evidence = new EvidenceStore();
  const statuses = new Map<string, TaskStatus>();
  let tasks: readonly PlannedTask[] | undefined;
  let traces: ReadonlyMap<string, TaskTrace> = new Map();
  let planAttempts = 0;
  let planProblems: readonly PlanProblemCode[] = [];
  const audit = (terminal: string | null, coverage: Coverage | undefined): void => {
    port.audit?.(
      auditRecord({
        terminal,
        question: port.text,
        managers,
        trustGroupChecked: strategy.trustGroupChecked === true,
        planAttempts,
        planProblems,
        tasks,
        traces,
        statuses,
        coverage,
        evidence,
        rounds: { used: budget.used, limit: budget.limit },
        latency: { ...latency, turn: port.clock() - started },
      }),
    );
  };
  const failed = (reason: TerminalReason, coverage: Coverage | undefined): PlannedOutcome => {
    audit(reason, coverage);
    return { kind: 'failed', code: reason, message: terminalMessages[reason], coverage };
  };

  const bounds = {
    maxRootTasks: settings.maxRootTasks,
    maxChildrenPerTask: settings.maxChildrenPerTask,
    maxDependencyDepth: settings.maxDependencyDepth,
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
    if (error instanceof StageStop) return failed(error.reason, undefined);
    throw error;
  } finally {
    latency.planning = port.clock() - planStarted;
  }
  planAttempts = planning.attempts;
  planProblems = planning.problems;
  if (!planning.ok) return failed(planning.reason, undefined);
  const plan = planning.plan;
  tasks = plan.tasks;
  if (plan.intent === 'mutation') {
    audit('mutation', undefined);
    return { kind: 'mutation' };
  }

  const executionStarted = port.clock();
  const execution = await executeTasks({ port, models, settings, bounds, planned: plan.tasks, evidence, statuses, budget, signal: stageSignal(turnSignal, settings.evidenceTimeoutSeconds) });
  latency.evidence = port.clock() - executionStarted;
  tasks = execution.tasks;
  traces = execution.traces;
  const coverage = coverageOf(execution.tasks, statuses);
  if (coverage.resolved === 0) return failed(execution.stopped ?? firstReason(statuses), coverage);

  const goals = new Map(execution.tasks.map((task) => [task.id, task.goal]));
  const usable = evidence.all().filter((record) => statuses.get(record.taskId) === 'resolved');
  const synthesisStarted = port.clock();
  let synthesis;
  try {
    synthesis = await synthesize({ synthesizer: models.synthesizer, fallback: models.fallback, question: port.text, evidence: usable, goals, unresolved: coverage.unresolved, signal: stageSignal(turnSignal, settings.synthesisTimeoutSeconds), budget, addUsage: (usage) => port.addUsage(usage) });
  } catch (error) {
    if (error instanceof StageStop) return failed(error.reason, coverage);
    throw error;
  } finally {
    latency.synthesis = port.clock() - synthesisStarted;
  }
  if (synthesis === undefined) return failed('synthesis_failed', coverage);
  audit(null, coverage);
  if (synthesis.kind === 'clarification') return { kind: 'clarification', question: synthesis.question, choices: synthesis.choices, coverage };
  const shown = port.emit({ type: 'text_chunk', content: synthesis.text });
  if (shown !== undefined) await shown;
  return { kind: 'answer', text: synthesis.text, coverage, evidence: synthesis.evidence };
}

function coverageOf(tasks: readonly PlannedTask[], statuses: ReadonlyMap<string, TaskStatus>): Coverage {
  const unresolved = tasks.filter((task) => statuses.get(task.id) !== 'resolved').map((task) => task.id);
  return { resolved: tasks.length - unresolved.length, total: tasks.length, unresolved };
}

/** Why no task came through, from how the tasks ended. */
function firstReason(statuses: ReadonlyMap<string, TaskStatus>): TerminalReason {
  const ended = [...statuses.values()];
  if (ended.includes('budget_exhausted')) return 'budget_exhausted';
  if (ended.includes('blocked')) return 'dependency_blocked';
  return 'synthesis_failed';
}
