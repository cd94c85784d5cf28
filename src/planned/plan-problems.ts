import type { ErrorCatalogue } from '../core/index.js';

/**
 * Why a plan, or children an executor declares, cannot run: each problem carries one of these
 * codes and a message naming the task. The planner (or the executor) is told; the audit keeps the codes.
 */
export const planProblemCodes = {
  plan_shape: 'The answer is not one JSON object of the plan\'s (or the children declaration\'s) shape.',
  task_count: 'A read plan holds 1 to maxRootTasks root tasks; a mutation plan holds none.',
  duplicate_task_id: 'A task id is used twice in the turn.',
  unknown_manager: 'A task names a manager the assistant cannot see.',
  unknown_tool: 'A task names a tool that is not one of the assistant\'s read tools.',
  rounds_exceeded: 'A task\'s maxRounds is above maxRoundsPerTask.',
  bad_dependency: 'A dependsOn names the task itself, or a task that is not a root task listed before it.',
  dependency_too_deep: 'A chain of dependsOn between root tasks is deeper than maxDependencyDepth.',
  children_exceeded: 'A root task would hold more than maxChildrenPerTask children, or a child or a calculation would hold any.',
  bad_calculation: 'A calculation reads a manager, has children, has the wrong number of operands, lacks a field, or uses a task outside its dependsOn.',
  no_manager: 'A read task names no manager to read.',
  bad_requirement: 'An evidence requirement names a manager its task does not read.',
} as const satisfies ErrorCatalogue;

export type PlanProblemCode = keyof typeof planProblemCodes;

export interface PlanProblem {
  readonly code: PlanProblemCode;
  readonly message: string;
}
