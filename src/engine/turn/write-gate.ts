import type { TurnPlan } from '../../router/index.js';
import { isToolError } from '../../tools/index.js';
import type { TurnRun } from './turn-run.js';

/**
 * The refusal the dispatcher would give a write the plan asks about, found before anything is asked:
 * an actor who may not make it (an anonymous visitor, a `permits` it fails) is told so at once, not
 * asked for the amount first. Null when every write of the plan may be made by this actor.
 */
export function refusedWrite(run: TurnRun, plan: TurnPlan): { readonly tool: string; readonly label: string; readonly code: string; readonly message: string } | null {
  for (const step of plan.steps) {
    const tool = step.selection.tool;
    if (tool === null || (step.kind !== 'ask' && step.kind !== 'tool')) continue;
    const effect = run.parts.dispatcher.tool(tool)?.effect;
    if (effect === undefined || effect === 'read') continue;
    const refusal = run.parts.dispatcher.precheck(tool, run.actor);
    if (refusal !== undefined && isToolError(refusal)) {
      const label = run.session?.router.vocabulary.words[plan.language].tools[tool]?.label ?? tool.replace(/_/g, ' ');
      return { tool, label, code: refusal.error.code, message: refusal.error.message };
    }
  }
  return null;
}
