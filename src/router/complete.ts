/** Completing an asking plan: with a reply, or with values other calls returned. */
import type { JsonValue } from '../core/index.js';
import type { ClauseView } from './arguments.js';
import { fillArguments, isFreeText } from './arguments.js';
import type { CompiledTool } from './compile.js';
import { findDates } from './dates.js';
import { readClock } from './clock.js';
import type { Draft, ReadOptions } from './planner.js';
import { asAsk, finish, readTurn } from './planner.js';
import type { RouterCore } from './router-core.js';
import { fold, tokenize } from './text.js';
import { selectTool } from './select.js';
import type { ArgumentSource, PlanItem, TurnPlan } from './types.js';
import { findValues } from './values.js';

export function draftOf(item: PlanItem): Draft {
  return {
    kind: item.kind,
    text: item.text,
    decidedBy: item.decidedBy,
    dependsOn: [...item.dependsOn],
    tool: item.selection.tool,
    args: { ...item.selection.arguments },
    sources: { ...item.selection.sources },
    missing: [...item.selection.missing],
    candidates: [...item.selection.candidates],
    question: item.selection.question,
    supplied: { ...item.supplied },
    compute: item.compute === null ? null : { ...item.compute },
    severalOf: null,
  };
}

/** Fills step `index` of an asking plan with `values` and finishes the plan again. */
export function completeWith(core: RouterCore, plan: TurnPlan, index: number, values: Readonly<Record<string, JsonValue>>, source: ArgumentSource, options: ReadOptions): TurnPlan {
  const lang = core.languages[plan.language];
  const drafts = plan.steps.map(draftOf);
  const draft = drafts[index];
  const tool = draft?.tool == null ? undefined : lang.toolsByName.get(draft.tool);
  if (draft === undefined || tool === undefined) return plan;
  for (const [name, value] of Object.entries(values)) {
    draft.args[name] = value;
    draft.sources[name] = source;
  }
  draft.missing = draft.missing.filter((m) => !(m in draft.args));
  draft.decidedBy = `A5 ${source} ${Object.keys(values).sort().join(', ')}`;
  asAsk(lang, tool, draft);
  return finish(core, lang, plan.turn, drafts, options, []);
}

/**
 * Reads a turn as the answer to an asking plan: the missing values it gives (source `reply`), or the
 * candidate it names. Null when it answers nothing, and the turn is then read on its own.
 */
export function readReply(core: RouterCore, plan: TurnPlan, turn: string, options: ReadOptions): TurnPlan | null {
  const index = plan.steps.findIndex((s) => s.kind === 'ask');
  const step = plan.steps[index];
  if (step === undefined) return null;
  const lang = core.languages[plan.language];
  const folded = fold(turn);
  if (step.selection.tool === null && step.selection.candidates.length > 1) {
    const named = step.selection.candidates.filter((name) => {
      const tool = lang.toolsByName.get(name);
      if (tool === undefined) return false;
      return tool.triggers.test(folded) || (tool.label !== null && folded.includes(fold(tool.label))) || folded.includes(name.replace(/_/g, ' '));
    });
    if (named.length !== 1) return null;
    return readTurn(core, plan.turn, { ...options, forceTool: named[0] });
  }
  const tool = step.selection.tool === null ? undefined : lang.toolsByName.get(step.selection.tool);
  if (tool === undefined || step.selection.missing.length === 0) return null;
  if (turn.length > 2000) return null;
  // A reply that names another tool by its trigger is a new request, not an answer.
  const other = selectTool(lang, folded, tokenize(folded), [], []).chosen;
  if (other !== null && other.trigger !== null && other.tool !== tool) return null;
  const missing = new Set(step.selection.missing);
  const narrowed: CompiledTool = { ...tool, parameters: tool.parameters.filter((p) => missing.has(p.info.name)) };
  const clock = typeof options.context.now === 'string' ? readClock(options.context.now) : null;
  const clause: ClauseView = {
    turn,
    folded,
    start: 0,
    end: turn.length,
    values: findValues(turn, plan.language, lang.words.channels, folded),
    dates: findDates(folded, lang.dates, clock),
  };
  const filled = fillArguments(narrowed, clause, lang, core.rulebook, options.context, clock);
  const values: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(filled.args)) if (missing.has(name)) values[name] = value;
  if (Object.keys(values).length === 0 && narrowed.parameters.length === 1) {
    const only = narrowed.parameters[0];
    const answer = turn.trim().replace(/^["“'](.*)["”']$/s, '$1');
    if (only !== undefined && isFreeText(only) && answer.length > 0 && answer.length <= 200) values[only.info.name] = answer;
  }
  if (Object.keys(values).length === 0) return null;
  return completeWith(core, plan, index, values, 'reply', options);
}
