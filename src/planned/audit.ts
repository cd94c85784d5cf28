import { canonicalHash } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import type { EvidenceStore } from './evidence.js';
import type { PlannedManager } from './manager.js';
import { matchSources } from './manager.js';
import type { PlannedTask } from './plan.js';
import type { PlanProblemCode } from './plan-problems.js';
import type { Coverage, TaskStatus } from './port.js';
import type { TaskTrace } from './schedule.js';

const taskHash = (id: string): string => canonicalHash(['task', id]).slice(0, 16);

/**
 * The planned turn's audit record, allow-listed: opaque hashes of the plan and its tasks (with
 * their lineage) and of every call's canonical identity with its duplicate/progress state, each
 * task's role (never a profile), attempts, routing features, requirements met, match-source
 * categories and status; plan attempts and problem codes, the trust-group check, rounds, latency,
 * evidence counts by kind, coverage and the terminal reason. Never a manager name, a goal, an
 * argument value, a result, a profile or a trust group's name.
 */
export function auditRecord(input: {
  readonly terminal: string | null;
  readonly question: string;
  readonly managers: readonly PlannedManager[];
  readonly trustGroupChecked: boolean;
  readonly planAttempts: number;
  readonly planProblems: readonly PlanProblemCode[];
  readonly tasks: readonly PlannedTask[] | undefined;
  readonly traces: ReadonlyMap<string, TaskTrace>;
  readonly statuses: ReadonlyMap<string, TaskStatus>;
  readonly coverage: Coverage | undefined;
  readonly evidence: EvidenceStore;
  readonly rounds: { readonly used: number; readonly limit: number };
  readonly latency: Readonly<Record<string, number>>;
}): Record<string, JsonValue> {
  const kinds: Record<string, number> = {};
  for (const record of input.evidence.all()) kinds[record.kind] = (kinds[record.kind] ?? 0) + 1;
  const byName = new Map(input.managers.map((manager) => [manager.name, manager]));
  const tasks = (input.tasks ?? []).map((task) => {
    const trace = input.traces.get(task.id);
    const sources = new Set(task.managers.flatMap((name) => { const manager = byName.get(name); return manager === undefined ? [] : matchSources(manager, input.question); }));
    return {
      task: taskHash(task.id),
      parent: task.root === task.id ? null : taskHash(task.root),
      declared: task.declared,
      status: input.statuses.get(task.id) ?? 'pending',
      role: task.calculation !== undefined ? 'calculation' : (trace?.attempts.at(-1)?.role ?? null),
      attempts: (trace?.attempts ?? []).map((attempt) => ({ role: attempt.role, end: attempt.end })),
      features: [...task.features],
      requirements: { met: trace?.met ?? 0, total: task.requirements.length },
      match_sources: [...sources].sort(),
      calls: (trace?.calls ?? []).map((note) => ({ call: note.call, state: note.state })),
      refused: [...new Set(trace?.refused ?? [])],
    };
  });
  return {
    event: 'planned_turn',
    plan: input.tasks === undefined ? null : canonicalHash(input.tasks.filter((task) => !task.declared).map((task) => [task.id, task.dependsOn])).slice(0, 16),
    plan_attempts: input.planAttempts,
    plan_problems: [...new Set(input.planProblems)],
    trust_group: input.trustGroupChecked ? 'checked' : 'unchecked',
    tasks,
    rounds: { used: input.rounds.used, limit: input.rounds.limit },
    latency_ms: { ...input.latency },
    evidence: kinds,
    coverage: input.coverage === undefined ? null : { resolved: input.coverage.resolved, total: input.coverage.total },
    terminal: input.terminal,
  };
}
