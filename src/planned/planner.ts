import type { ChatMessage, Provider } from '../providers/index.js';
import type { RoundBudget } from './budget.js';
import { StageStop } from './budget.js';
import { calculationOperations, validatePlan } from './plan.js';
import type { PlanBounds, ValidatedPlan } from './plan.js';
import type { PlanProblemCode } from './plan-problems.js';
import { plannedRound } from './round.js';
import { declaredRoutingFeatures } from './routing.js';

/** The attempts, and the codes of every problem the refused plans had. */
export type PlanningResult = { readonly attempts: number; readonly problems: readonly PlanProblemCode[] } & (
  | { readonly ok: true; readonly plan: ValidatedPlan }
  | { readonly ok: false; readonly reason: 'invalid_plan' | 'manager_unresolved' }
);

/** The planner's instructions: the managers and tools it may name, the plan's shape, its bounds. */
export function plannerPrompt(bounds: PlanBounds & { readonly descriptions: ReadonlyMap<string, string | undefined> }): string {
  const managers = bounds.managers.map((name) => `- ${name}${bounds.descriptions.get(name) === undefined ? '' : `: ${bounds.descriptions.get(name)}`}`).join('\n');
  return [
    'You plan how to answer a question about an application\'s data. You do not answer it: read tasks gather the rows with read tools, calculation tasks compute over them, and another step writes the answer from that evidence.',
    'Reply with ONE JSON object and nothing else:',
    '{"intent":"read","tasks":[{"id":"t1","goal":"…","managers":["Order"]},{"id":"t2","goal":"…","managers":["Customer"],"dependsOn":["t1"]},{"id":"c1","goal":"…","dependsOn":["t1","t2"],"calculation":{"operation":"difference","operands":[{"task":"t1","field":"total"},{"task":"t2","field":"total"}]}}]}',
    `Rules: 1 to ${bounds.maxRootTasks} tasks; ids are lower-case (t1, c1); a task may hold "children" (at most ${bounds.maxChildrenPerTask}, none below them) for parts it needs first; "dependsOn" names tasks listed before, in chains at most ${bounds.maxDependencyDepth} deep; a read task names the managers it reads; a calculation task names none and computes one of ${calculationOperations.join(', ')} over the tasks it depends on ("field": the field of their rows, or a path into nested rows such as "customer.balance"; count needs none; difference, ratio and percentage take two single values); "maxRounds" is at most ${bounds.maxRoundsPerTask}.`,
    `A read task may say what makes it more than one simple read, "routing": [${declaredRoutingFeatures.map((feature) => `"${feature}"`).join(', ')}], and the evidence it must gather, "requires": [{"kind":"query","manager":"Order"}] (kinds schema, path, query).`,
    'If the person asks to create, change, delete, send, charge or refund anything, reply {"intent":"mutation","tasks":[]}.',
    `Managers you may name (only these):\n${managers}`,
    `Read tools the tasks will have: ${bounds.tools.join(', ')}.`,
  ].join('\n\n');
}

/**
 * Asks the planner for a plan and validates it before anything runs: a plan that fails goes back
 * to the planner once with what was wrong, then once to the fallback model; then the turn ends
 * with a stable reason. A planner that fails to answer at all goes straight to the fallback.
 */
export async function planTurn(input: {
  readonly planner: Provider;
  readonly fallback: Provider;
  readonly bounds: PlanBounds & { readonly descriptions: ReadonlyMap<string, string | undefined> };
  readonly question: string;
  readonly history: readonly ChatMessage[];
  readonly signal: AbortSignal;
  readonly budget: RoundBudget;
  readonly addUsage: (usage: { readonly inputTokens: number; readonly outputTokens: number }) => void;
}): Promise<PlanningResult> {
  const system: ChatMessage = { role: 'system', content: plannerPrompt(input.bounds) };
  const messages: ChatMessage[] = [system, ...input.history.filter((message) => message.role === 'user' || (message.role === 'assistant' && message.content !== '')), { role: 'user', content: input.question }];
  let unresolved: readonly string[] = [];
  const problems: PlanProblemCode[] = [];
  let lastFailure: StageStop | undefined;
  let answered = false;
  let attempts = 0;
  // The planner, its one correction, then the fallback once.
  const askers = [input.planner, input.planner, input.fallback];
  for (let index = 0; index < askers.length; index++) {
    attempts++;
    let text: string;
    try {
      text = (await plannedRound({ provider: askers[index]!, messages, tools: [], signal: input.signal, budget: input.budget, addUsage: input.addUsage })).text;
    } catch (error) {
      if (!(error instanceof StageStop) || error.reason !== 'provider_failed') throw error;
      lastFailure = error;
      if (index === 0) index++;
      continue;
    }
    answered = true;
    const checked = validatePlan(text, input.bounds);
    if (checked.ok) return { ok: true, plan: checked.plan, attempts, problems };
    unresolved = checked.unresolvedManagers;
    problems.push(...checked.problems.map((problem) => problem.code));
    messages.push({ role: 'assistant', content: text }, { role: 'user', content: `That plan cannot run: ${checked.problems.map((problem) => `[${problem.code}] ${problem.message}`).join(' ')} Reply with the corrected JSON object only.` });
  }
  // Neither model answered at all: the models failed, not the plan.
  if (!answered && lastFailure !== undefined) throw lastFailure;
  return { ok: false, reason: unresolved.length > 0 ? 'manager_unresolved' : 'invalid_plan', attempts, problems };
}
