import { z } from 'zod';

/** The operations a calculation task may ask for, computed in decimal arithmetic. */
export const calculationOperations = ['count', 'sum', 'average', 'minimum', 'maximum', 'difference', 'ratio', 'percentage'] as const;
export type CalculationOperation = (typeof calculationOperations)[number];

/** Operations over one operand's values; the others compare two single values. */
const oneOperand: readonly CalculationOperation[] = ['count', 'sum', 'average', 'minimum', 'maximum'];

const taskId = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a task id is lower-case letters, digits, _ and - (up to 32), starting with a letter');

const operand = z.strictObject({
  /** The task whose evidence holds the values. */
  task: taskId,
  /** The field of its rows (`total`, `unitPrice`); absent for a calculation's own value or a count of rows. */
  field: z.string().min(1).max(100).optional(),
});
export type Operand = z.output<typeof operand>;

const child = z.strictObject({
  id: taskId,
  goal: z.string().trim().min(1).max(500),
  managers: z.array(z.string().min(1)).max(4).default([]),
  tools: z.array(z.string().min(1)).max(10).optional(),
  maxRounds: z.int().min(1).optional(),
});

const task = child.extend({
  /** Root tasks this one needs first. */
  dependsOn: z.array(taskId).max(6).default([]),
  children: z.array(child).default([]),
  calculation: z.strictObject({ operation: z.enum(calculationOperations), operands: z.array(operand).min(1).max(2) }).optional(),
});

/** What the planner answers: one JSON object. */
export const planSchema = z.strictObject({
  /** `mutation`: the turn asks for a change, which a planned turn never makes: it goes to the plain tool loop. */
  intent: z.enum(['read', 'mutation']),
  tasks: z.array(task).max(12).default([]),
});
export type PlanInput = z.input<typeof planSchema>;

export interface PlannedTask {
  readonly id: string;
  readonly goal: string;
  readonly managers: readonly string[];
  readonly tools: readonly string[] | undefined;
  readonly maxRounds: number;
  readonly dependsOn: readonly string[];
  /** The root it belongs to (itself for a root). */
  readonly root: string;
  readonly calculation: { readonly operation: CalculationOperation; readonly operands: readonly Operand[] } | undefined;
}

/** A plan that passed validation: its tasks in an order where every dependency comes first. */
export interface ValidatedPlan {
  readonly intent: 'read' | 'mutation';
  readonly tasks: readonly PlannedTask[];
  readonly roots: number;
}

export interface PlanBounds {
  readonly maxRootTasks: number;
  readonly maxChildrenPerTask: number;
  readonly maxRoundsPerTask: number;
  /** The managers the actor's assistant may read (chat-exposed). */
  readonly managers: readonly string[];
  /** The read tools a task may name. */
  readonly tools: readonly string[];
}

export type PlanValidation =
  | { readonly ok: true; readonly plan: ValidatedPlan }
  | { readonly ok: false; readonly problems: readonly string[]; readonly unresolvedManagers: readonly string[] };

/**
 * Validates a planner's answer before anything runs: JSON of the plan's shape, 1 to `maxRootTasks`
 * root tasks for a read (none for a mutation), at most `maxChildrenPerTask` children per task and
 * none below them, known managers and read tools only, dependencies on earlier root tasks, budgets
 * within bounds, calculations over tasks they depend on. Every problem is listed.
 */
export function validatePlan(text: string, bounds: PlanBounds): PlanValidation {
  const problems: string[] = [];
  const unresolved = new Set<string>();
  let raw: unknown;
  try {
    raw = JSON.parse(stripFence(text));
  } catch {
    return { ok: false, problems: ['The answer is not one JSON object.'], unresolvedManagers: [] };
  }
  const parsed = planSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'plan'}: ${issue.message}`), unresolvedManagers: [] };
  }
  const plan = parsed.data;
  if (plan.intent === 'mutation') {
    if (plan.tasks.length > 0) problems.push('A mutation plan holds no tasks: the change goes to the tool loop as it is.');
    return problems.length > 0 ? { ok: false, problems, unresolvedManagers: [] } : { ok: true, plan: { intent: 'mutation', tasks: [], roots: 0 } };
  }
  if (plan.tasks.length === 0) problems.push('A read plan has at least one task.');
  if (plan.tasks.length > bounds.maxRootTasks) problems.push(`A plan has at most ${bounds.maxRootTasks} root tasks, this one ${plan.tasks.length}.`);
  const known = new Set(bounds.managers);
  const tools = new Set(bounds.tools);
  const seen = new Set<string>();
  const roots = new Set<string>();
  const tasks: PlannedTask[] = [];
  const checkCommon = (where: string, given: { managers: readonly string[]; tools?: readonly string[] | undefined; maxRounds?: number | undefined }): void => {
    for (const manager of given.managers) {
      if (!known.has(manager)) {
        unresolved.add(manager);
        problems.push(`${where}: no manager '${manager}' among those the assistant can see.`);
      }
    }
    for (const tool of given.tools ?? []) if (!tools.has(tool)) problems.push(`${where}: '${tool}' is not a read tool of this assistant.`);
    if (given.maxRounds !== undefined && given.maxRounds > bounds.maxRoundsPerTask) problems.push(`${where}: maxRounds is at most ${bounds.maxRoundsPerTask}.`);
  };
  const claim = (id: string, where: string): void => {
    if (seen.has(id)) problems.push(`${where}: the id '${id}' is used twice.`);
    seen.add(id);
  };
  for (const root of plan.tasks) {
    const where = `task ${root.id}`;
    claim(root.id, where);
    checkCommon(where, root);
    for (const dependency of root.dependsOn) {
      if (dependency === root.id) problems.push(`${where} depends on itself.`);
      else if (!roots.has(dependency)) problems.push(`${where} depends on '${dependency}', which is not a root task listed before it.`);
    }
    if (root.children.length > bounds.maxChildrenPerTask) problems.push(`${where} has ${root.children.length} children; a task has at most ${bounds.maxChildrenPerTask}.`);
    if (root.calculation !== undefined) {
      if (root.managers.length > 0 || root.children.length > 0) problems.push(`${where}: a calculation reads no manager and has no children; it computes over the tasks it depends on.`);
      const { operation, operands } = root.calculation;
      const wanted = oneOperand.includes(operation) ? 1 : 2;
      if (operands.length !== wanted) problems.push(`${where}: ${operation} takes ${wanted} operand${wanted === 1 ? '' : 's'}.`);
      for (const given of operands) if (!root.dependsOn.includes(given.task)) problems.push(`${where}: its operand task '${given.task}' must be in its dependsOn.`);
      if (operation !== 'count' && wanted === 1 && operands[0]?.field === undefined) problems.push(`${where}: ${operation} needs the field of the rows it computes over.`);
    } else if (root.managers.length === 0 && root.children.length === 0) problems.push(`${where}: a read task names the managers it reads.`);
    const rootTask: PlannedTask = { id: root.id, goal: root.goal, managers: root.managers, tools: root.tools, maxRounds: root.maxRounds ?? bounds.maxRoundsPerTask, dependsOn: root.dependsOn, root: root.id, calculation: root.calculation };
    for (const childTask of root.children) {
      const childWhere = `task ${root.id}/${childTask.id}`;
      claim(childTask.id, childWhere);
      checkCommon(childWhere, childTask);
      if (childTask.managers.length === 0) problems.push(`${childWhere}: a read task names the managers it reads.`);
      tasks.push({ id: childTask.id, goal: childTask.goal, managers: childTask.managers, tools: childTask.tools, maxRounds: childTask.maxRounds ?? bounds.maxRoundsPerTask, dependsOn: root.dependsOn, root: root.id, calculation: undefined });
    }
    // A root with children reads after them: their evidence is its own.
    tasks.push(root.children.length === 0 ? rootTask : { ...rootTask, dependsOn: [...rootTask.dependsOn, ...root.children.map((childTask) => childTask.id)] });
    roots.add(root.id);
  }
  if (problems.length > 0) return { ok: false, problems, unresolvedManagers: [...unresolved] };
  return { ok: true, plan: { intent: 'read', tasks, roots: plan.tasks.length } };
}

/** A model may wrap its JSON in a Markdown fence. */
function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return fenced === null ? text.trim() : fenced[1]!;
}
