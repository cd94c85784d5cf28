/** Completing an asking plan: with a reply, or with values other calls returned. */
import type { JsonValue } from '../core/index.js';
import { fillArguments } from './arguments.js';
import type { ClauseView } from './filled.js';
import { isFreeText } from './parameter-kinds.js';
import { convert, fits } from './value-fit.js';
import type { CompiledParameter, CompiledTool } from './compile.js';
import { findDates } from './dates.js';
import { readClock } from './clock.js';
import type { Draft } from './plan-drafts.js';
import { asAsk, format, label, sortKeys } from './plan-drafts.js';
import { finish } from './plan-finish.js';
import type { ReadOptions } from './read-options.js';
import { readTurn } from './planner.js';
import type { RouterCore } from './router-core.js';
import { fold, humanize, listWords, tokenize } from './text.js';
import { selectTool } from './select.js';
import type { ArgumentSource, ChainLink, PlanItem, TurnPlan } from './types.js';
import { findValues } from './values.js';
import type { TurnValue } from './values.js';

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
    ...(item.readAs === undefined ? {} : { readAs: item.readAs }),
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
  // Words inside quotes are the person's text, not a request ('"Order bolts"' is a title, not get_order).
  const unquoted = folded.replace(/"[^"]*"|“[^”]*”/g, (quoted) => ' '.repeat(quoted.length));
  const other = selectTool(lang, unquoted, tokenize(unquoted), [], []).chosen;
  if (other !== null && other.trigger !== null && other.tool !== tool) return null;
  // So is a reply that is wholly a data question ("materials with density above 5").
  if (lang.reads !== null && unquoted.trim().length > 0 && lang.reads.read({ typed: turn, folded: unquoted, language: plan.language, dates: [], previous: [], now: null }) !== null) return null;
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
  // The reply to "which order id?" that is one number is that id: the question is its evidence.
  if (Object.keys(values).length === 0 && narrowed.parameters.length === 1) {
    const only = narrowed.parameters[0] as CompiledParameter;
    const fitting = clause.values.filter((v) => fits(only, v, tool.info.name, core.rulebook));
    if (fitting.length === 1) values[only.info.name] = convert(only, fitting[0] as TurnValue);
  }
  if (Object.keys(values).length === 0 && narrowed.parameters.length === 1) {
    const only = narrowed.parameters[0];
    const answer = turn.trim().replace(/^["“'](.*)["”']$/s, '$1');
    if (only !== undefined && isFreeText(only) && answer.length > 0 && answer.length <= 200) values[only.info.name] = answer;
  }
  if (Object.keys(values).length === 0) return null;
  return completeWith(core, plan, index, values, 'reply', options);
}

/** The identities a call's result gives: one per record (`identity`, else `id`), or the bare value. */
export function identitiesIn(result: JsonValue | undefined, identity: string): JsonValue[] {
  if (result === undefined || result === null) return [];
  if (Array.isArray(result)) return result.flatMap((r) => identitiesIn(r as JsonValue, identity));
  if (typeof result === 'object') {
    const record = result as Record<string, JsonValue>;
    const value = record[identity] ?? record['id'];
    return value === undefined || value === null ? [] : [value];
  }
  return [result];
}

function shown(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The plan left asking when a lookup found no value or several: the step's question says so, and no chain is left. */
function stuck(core: RouterCore, plan: TurnPlan, link: ChainLink, found: readonly JsonValue[]): TurnPlan {
  const lang = core.languages[plan.language];
  const tool = lang.toolsByName.get(link.tool);
  const args = Object.keys(link.arguments).map((k) => `${humanize(k)} ${shown(link.arguments[k] as JsonValue)}`);
  const lookup = `${tool === undefined ? humanize(link.tool) : label(tool)}${args.length > 0 ? ` (${args.join(', ')})` : ''}`;
  const steps = plan.steps.map((s, i) => {
    if (i !== link.step) return s;
    const question = s.selection.question ?? '';
    const text =
      found.length === 0
        ? format(lang, 'lookup_none', { lookup, question })
        : format(lang, 'lookup_several', { lookup, values: listWords(found.slice(0, 10).map(shown), lang.words.messages['and'] ?? 'and'), question });
    return { ...s, decidedBy: `A7 lookup ${found.length === 0 ? 'none' : 'several'}: ${link.tool}`, selection: { ...s.selection, question: text } };
  });
  return { ...plan, steps, chain: [], guidance: plan.guidance === null ? null : { ...plan.guidance, evidence: steps.map((s) => s.decidedBy) } };
}

/**
 * Completes an asking plan with the results of its chain's calls: `results[i]` is what `plan.chain[i]`
 * returned, for whole rounds from the first. When calls remain, the plan comes back still asking with
 * the remaining links, their `supplied` inputs filled with the values found. A call that gave no value
 * or several leaves the plan asking, its question saying so. Null when `results` does not cover whole rounds.
 */
export function answerChain(core: RouterCore, plan: TurnPlan, results: readonly JsonValue[], options: ReadOptions): TurnPlan | null {
  const chain = plan.chain;
  if (chain.length === 0 || results.length === 0 || results.length > chain.length) return null;
  const lastRound = (chain[results.length - 1] as ChainLink).round;
  const next = chain[results.length];
  if (next !== undefined && next.round === lastRound) return null;
  const values: JsonValue[] = [];
  for (const [i, result] of results.entries()) {
    const link = chain[i] as ChainLink;
    const found = identitiesIn(result, link.identity);
    if (found.length !== 1) return stuck(core, plan, link, found);
    values.push(found[0] as JsonValue);
  }
  if (next !== undefined) {
    const done = results.length;
    const rest = chain.slice(done).map((link): ChainLink => {
      const args: Record<string, JsonValue> = { ...link.arguments };
      const supplied: Record<string, number> = {};
      for (const [parameter, from] of Object.entries(link.supplied)) {
        if (from < done) args[parameter] = values[from] as JsonValue;
        else supplied[parameter] = from - done;
      }
      return { ...link, arguments: sortKeys(args), supplied, round: link.round - lastRound - 1, feeds: link.feeds === null ? null : link.feeds - done };
    });
    return { ...plan, chain: rest };
  }
  let current = plan;
  for (const [i, link] of chain.entries()) {
    if (link.feeds !== null) continue;
    current = completeWith(core, current, link.step, { [link.parameter]: values[i] as JsonValue }, 'reply', options);
  }
  return current;
}
