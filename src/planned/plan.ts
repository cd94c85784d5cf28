import { z } from 'zod';
import type { PlanProblem, PlanProblemCode } from './plan-problems.js';
import { declaredRoutingFeatures, featuresOf } from './routing.js';
import type { RoutingFeature } from './routing.js';

/** The operations a calculation task may ask for, computed in decimal arithmetic. */
export const calculationOperations = ['count', 'sum', 'average', 'minimum', 'maximum', 'difference', 'ratio', 'percentage'] as const;
export type CalculationOperation = (typeof calculationOperations)[number];

/** Operations over one operand's values; the others compare two single values. */
const oneOperand: readonly CalculationOperation[] = ['count', 'sum', 'average', 'minimum', 'maximum'];

const taskId = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a task id is lower-case letters, digits, _ and - (up to 32), starting with a letter');

const operand = z.strictObject({
  /** The task whose evidence holds the values. */
  task: taskId,
  /**
   * The path to the values in its rows: a field (`total`), or fields of nested objects and lists
   * joined by dots (`customer.balance`, `lines.unitPrice`, `lines.0.unitPrice`); absent for a
   * calculation's own value or a count of rows.
   */
  field: z.string().regex(/^[^.\s]+(\.[^.\s]+)*$/, 'a field, or a path of fields joined by dots').max(200).optional(),
});
export type Operand = z.output<typeof operand>;

/** Evidence kinds a read task may require; a calculation's own is `calculation`. */
export const requirementKinds = ['schema', 'path', 'query'] as const;

const requirement = z.strictObject({
  kind: z.enum(requirementKinds),
  /** The manager the evidence must be about (one the task reads); absent: any of them. */
  manager: z.string().min(1).optional(),
});

const child = z.strictObject({
  id: taskId,
  goal: z.string().trim().min(1).max(500),
  managers: z.array(z.string().min(1)).max(4).default([]),
  tools: z.array(z.string().min(1)).max(10).optional(),
  maxRounds: z.int().min(1).optional(),
  /** What makes it more than a simple read; the shape adds has_dependency and multiple_managers. */
  routing: z.array(z.enum(declaredRoutingFeatures)).max(3).default([]),
  /** The evidence it must gather to resolve; none named: at least one result. */
  requires: z.array(requirement).max(4).default([]),
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

/** What an executor replies to declare the children its root task needs first. */
export const childrenDeclarationSchema = z.strictObject({ children: z.array(child).min(1).max(6) });

/** One piece of evidence a task needs to resolve: `t1.r1`, `t1.r2`… (`c1.r1` for a calculation's value). */
export interface EvidenceRequirement {
  readonly id: string;
  readonly kind: 'schema' | 'path' | 'query' | 'calculation';
  readonly manager: string | undefined;
}

export interface PlannedTask {
  readonly id: string;
  readonly goal: string;
  readonly managers: readonly string[];
  readonly tools: readonly string[] | undefined;
  readonly maxRounds: number;
  readonly dependsOn: readonly string[];
  /** The root it belongs to (itself for a root). */
  readonly root: string;
  /** Declared by its root's executor while the turn ran, rather than by the plan. */
  readonly declared: boolean;
  readonly features: readonly RoutingFeature[];
  readonly requirements: readonly EvidenceRequirement[];
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
  readonly maxDependencyDepth: number;
  readonly maxRoundsPerTask: number;
  /** The managers the actor's assistant may read (chat-exposed). */
  readonly managers: readonly string[];
  /** The read tools a task may name. */
  readonly tools: readonly string[];
}

export type PlanValidation =
  | { readonly ok: true; readonly plan: ValidatedPlan }
  | { readonly ok: false; readonly problems: readonly PlanProblem[]; readonly unresolvedManagers: readonly string[] };

/** The checks a root task and a child share, collecting every problem with its code. */
class Checker {
  readonly problems: PlanProblem[] = [];
  readonly unresolved = new Set<string>();
  readonly #known: ReadonlySet<string>;
  readonly #tools: ReadonlySet<string>;

  constructor(
    readonly bounds: PlanBounds,
    readonly seen: Set<string>,
  ) {
    this.#known = new Set(bounds.managers);
    this.#tools = new Set(bounds.tools);
  }

  add(code: PlanProblemCode, message: string): void {
    this.problems.push({ code, message });
  }

  claim(id: string, where: string): void {
    if (this.seen.has(id)) this.add('duplicate_task_id', `${where}: the id '${id}' is used twice.`);
    this.seen.add(id);
  }

  /** Checks what any task names, and returns it as a task (a child's dependsOn is its root's). */
  read(where: string, given: z.output<typeof child>, placement: { readonly root: string; readonly dependsOn: readonly string[]; readonly declared: boolean }, needsManager: boolean): PlannedTask {
    this.claim(given.id, where);
    for (const manager of given.managers) {
      if (!this.#known.has(manager)) {
        this.unresolved.add(manager);
        this.add('unknown_manager', `${where}: no manager '${manager}' among those the assistant can see.`);
      }
    }
    for (const tool of given.tools ?? []) if (!this.#tools.has(tool)) this.add('unknown_tool', `${where}: '${tool}' is not a read tool of this assistant.`);
    if (given.maxRounds !== undefined && given.maxRounds > this.bounds.maxRoundsPerTask) this.add('rounds_exceeded', `${where}: maxRounds is at most ${this.bounds.maxRoundsPerTask}.`);
    if (needsManager && given.managers.length === 0) this.add('no_manager', `${where}: a read task names the managers it reads.`);
    for (const wanted of given.requires) {
      if (wanted.manager !== undefined && !given.managers.includes(wanted.manager)) this.add('bad_requirement', `${where}: it requires ${wanted.kind} evidence about '${wanted.manager}', which it does not read.`);
    }
    return {
      id: given.id,
      goal: given.goal,
      managers: given.managers,
      tools: given.tools,
      maxRounds: given.maxRounds ?? this.bounds.maxRoundsPerTask,
      dependsOn: placement.dependsOn,
      root: placement.root,
      declared: placement.declared,
      features: featuresOf({ routing: given.routing, managers: given.managers, dependsOn: placement.dependsOn }),
      requirements: given.requires.map((wanted, index) => ({ id: `${given.id}.r${index + 1}`, kind: wanted.kind, manager: wanted.manager })),
      calculation: undefined,
    };
  }
}

/**
 * Validates a planner's answer before anything runs: JSON of the plan's shape, 1 to `maxRootTasks`
 * root tasks for a read (none for a mutation), at most `maxChildrenPerTask` children per task and
 * none below them, known managers and read tools only, dependencies on earlier root tasks no deeper
 * than `maxDependencyDepth`, budgets within bounds, requirements about managers the task reads,
 * calculations over tasks they depend on. Every problem is listed, with its code.
 */
export function validatePlan(text: string, bounds: PlanBounds): PlanValidation {
  const parsed = parseJson(text, planSchema);
  if (!parsed.ok) return { ok: false, problems: parsed.problems, unresolvedManagers: [] };
  const plan = parsed.value;
  const check = new Checker(bounds, new Set());
  if (plan.intent === 'mutation') {
    if (plan.tasks.length > 0) check.add('task_count', 'A mutation plan holds no tasks: the change goes to the tool loop as it is.');
    return check.problems.length > 0 ? { ok: false, problems: check.problems, unresolvedManagers: [] } : { ok: true, plan: { intent: 'mutation', tasks: [], roots: 0 } };
  }
  if (plan.tasks.length === 0) check.add('task_count', 'A read plan has at least one task.');
  if (plan.tasks.length > bounds.maxRootTasks) check.add('task_count', `A plan has at most ${bounds.maxRootTasks} root tasks, this one ${plan.tasks.length}.`);
  const depth = new Map<string, number>();
  const tasks: PlannedTask[] = [];
  for (const root of plan.tasks) {
    const where = `task ${root.id}`;
    for (const dependency of root.dependsOn) {
      if (dependency === root.id) check.add('bad_dependency', `${where} depends on itself.`);
      else if (!depth.has(dependency)) check.add('bad_dependency', `${where} depends on '${dependency}', which is not a root task listed before it.`);
    }
    const own = root.dependsOn.length === 0 ? 0 : 1 + Math.max(...root.dependsOn.map((id) => depth.get(id) ?? 0));
    if (own > bounds.maxDependencyDepth) check.add('dependency_too_deep', `${where}: its dependsOn chain is ${own} deep; at most ${bounds.maxDependencyDepth} (a root may depend only on roots ${bounds.maxDependencyDepth === 1 ? 'that depend on none' : `at most ${bounds.maxDependencyDepth - 1} deep`}).`);
    if (root.children.length > bounds.maxChildrenPerTask) check.add('children_exceeded', `${where} has ${root.children.length} children; a task has at most ${bounds.maxChildrenPerTask}.`);
    const children = root.children.map((given) => check.read(`task ${root.id}/${given.id}`, given, { root: root.id, dependsOn: root.dependsOn, declared: false }, true));
    // A root with children reads after them: their evidence is its own.
    const rootTask = check.read(where, root, { root: root.id, dependsOn: [...root.dependsOn, ...children.map((item) => item.id)], declared: false }, root.calculation === undefined && root.children.length === 0);
    if (root.calculation === undefined) tasks.push(...children, rootTask);
    else {
      if (root.managers.length > 0 || root.children.length > 0) check.add('bad_calculation', `${where}: a calculation reads no manager and has no children; it computes over the tasks it depends on.`);
      const { operation, operands } = root.calculation;
      const wanted = oneOperand.includes(operation) ? 1 : 2;
      if (operands.length !== wanted) check.add('bad_calculation', `${where}: ${operation} takes ${wanted} operand${wanted === 1 ? '' : 's'}.`);
      for (const given of operands) if (!root.dependsOn.includes(given.task)) check.add('bad_calculation', `${where}: its operand task '${given.task}' must be in its dependsOn.`);
      if (operation !== 'count' && wanted === 1 && operands[0]?.field === undefined) check.add('bad_calculation', `${where}: ${operation} needs the field of the rows it computes over.`);
      tasks.push({ ...rootTask, features: featuresOf({ routing: [...root.routing, 'requires_calculation'], managers: root.managers, dependsOn: rootTask.dependsOn }), requirements: [{ id: `${root.id}.r1`, kind: 'calculation', manager: undefined }], calculation: root.calculation });
    }
    depth.set(root.id, own);
  }
  if (check.problems.length > 0) return { ok: false, problems: check.problems, unresolvedManagers: [...check.unresolved] };
  return { ok: true, plan: { intent: 'read', tasks, roots: plan.tasks.length } };
}

/**
 * Validates the children a root task's executor declares while it runs: the same checks as a
 * plan's children, ids unique in the whole turn, and with the root's own at most
 * `maxChildrenPerTask`; a child and a calculation declare none. They take the root's dependsOn.
 */
export function validateDeclaredChildren(parent: PlannedTask, text: string, existing: readonly PlannedTask[], bounds: PlanBounds): { ok: true; children: readonly PlannedTask[] } | { ok: false; problems: readonly PlanProblem[] } {
  const parsed = parseJson(text, childrenDeclarationSchema);
  if (!parsed.ok) return parsed;
  const check = new Checker(bounds, new Set(existing.map((item) => item.id)));
  const where = `task ${parent.id}`;
  if (parent.root !== parent.id || parent.calculation !== undefined) check.add('children_exceeded', `${where}: only a root read task declares children; children hold none.`);
  const held = existing.filter((item) => item.root === parent.id && item.id !== parent.id).length;
  if (held + parsed.value.children.length > bounds.maxChildrenPerTask) check.add('children_exceeded', `${where} holds ${held} children and declares ${parsed.value.children.length}; a task has at most ${bounds.maxChildrenPerTask}.`);
  const dependsOn = parent.dependsOn.filter((id) => existing.find((item) => item.id === id)?.root !== parent.id);
  const children = parsed.value.children.map((given) => check.read(`task ${parent.id}/${given.id}`, given, { root: parent.id, dependsOn, declared: true }, true));
  return check.problems.length > 0 ? { ok: false, problems: check.problems } : { ok: true, children };
}

/** Parses one JSON object of a shape, its problems coded `plan_shape`. */
function parseJson<T extends z.ZodType>(text: string, schema: T): { ok: true; value: z.output<T> } | { ok: false; problems: PlanProblem[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(stripFence(text));
  } catch {
    return { ok: false, problems: [{ code: 'plan_shape', message: 'The answer is not one JSON object.' }] };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((issue) => ({ code: 'plan_shape', message: `${issue.path.join('.') || 'plan'}: ${issue.message}` })) };
}

/** A model may wrap its JSON in a Markdown fence. */
export function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return fenced === null ? text.trim() : fenced[1]!;
}
