/** The read calls that would give an asking step its missing identity (a lookup chain). */
import type { JsonValue } from '../core/index.js';
import type { ClauseView } from './filled.js';
import { fillArguments } from './arguments.js';
import { isPlannable } from './catalogue.js';
import type { CompiledLanguage } from './compile.js';
import { sortKeys } from './plan-drafts.js';
import type { RouterCore } from './router-core.js';
import { fold } from './text.js';
import type { ChainLink, PlanItem, RouterContext } from './types.js';
import { findValues } from './values.js';

/** How many rounds of calls a chain may take before the router gives up on it (the ask stays an ask). */
export const MAX_CHAIN_ROUNDS = 3;

/** One call of a chain being built: its own inputs that other calls produce, and how many rounds it takes. */
interface LookupNode {
  readonly tool: string;
  readonly args: Record<string, JsonValue>;
  readonly identity: string;
  readonly inputs: Readonly<Record<string, LookupNode>>;
  readonly rounds: number;
}

/** The words of a parameter that name the thing it identifies (`customer_id` → `customer`). */
function thingWords(parameter: string): string[] {
  return parameter
    .split(/[_.]|(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 0 && !['id', 'code', 'key'].includes(w));
}

/** The read tools whose declared identity could be `parameter`: every word of the thing it names is in the tool's name. */
function producersOf(core: RouterCore, parameter: string, exclude: ReadonlySet<string>): { name: string; identity: string }[] {
  const nouns = thingWords(parameter);
  if (nouns.length === 0) return [];
  const out: { name: string; identity: string }[] = [];
  for (const info of core.catalogue.tools.values()) {
    const identity = info.entry.outputs?.identity;
    if (info.effect !== 'read' || identity === undefined || exclude.has(info.name) || !isPlannable(info.entry)) continue;
    if (nouns.every((w) => info.nameWords.includes(w))) out.push({ name: info.name, identity });
  }
  return out;
}

/**
 * The call to `name`, with what the turn gives it; an input the turn does not give comes from the one
 * read tool that produces it, within `rounds` rounds. Null when an input stays unknown, when two tools
 * could produce it, or when the chain would take more rounds than allowed.
 */
function lookupNode(core: RouterCore, lang: CompiledLanguage, name: string, identity: string, item: PlanItem, view: ClauseView, context: RouterContext, rounds: number, visited: ReadonlySet<string>): LookupNode | null {
  const tool = lang.toolsByName.get(name);
  if (tool === undefined || rounds <= 0) return null;
  const args: Record<string, JsonValue> = { ...fillArguments(tool, view, lang, core.rulebook, context, null).args };
  for (const p of tool.parameters) {
    const given = item.selection.arguments[p.info.name];
    if (given !== undefined && !(p.info.name in args)) args[p.info.name] = given;
  }
  const inputs: Record<string, LookupNode> = {};
  let depth = 1;
  const seen = new Set([...visited, name]);
  for (const p of tool.parameters) {
    if (!p.info.required || p.info.name in args) continue;
    const producers = producersOf(core, p.info.name, seen);
    if (producers.length !== 1) return null;
    const only = producers[0] as { name: string; identity: string };
    const input = lookupNode(core, lang, only.name, only.identity, item, view, context, rounds - 1, seen);
    if (input === null) return null;
    inputs[p.info.name] = input;
    depth = Math.max(depth, input.rounds + 1);
  }
  return { tool: name, args, identity, inputs, rounds: depth };
}

/**
 * For an asking step whose missing identity a read tool's output gives, the calls that would give it:
 * round 0 first, and a call whose input an earlier call produces names it in `supplied`.
 */
export function chainFor(core: RouterCore, lang: CompiledLanguage, items: readonly PlanItem[], context: RouterContext): ChainLink[] {
  const found: { node: LookupNode; round: number; step: number; parameter: string; consumer: LookupNode | null }[] = [];
  const collect = (node: LookupNode, step: number, parameter: string, consumer: LookupNode | null): void => {
    for (const [input, child] of Object.entries(node.inputs)) collect(child, step, input, node);
    found.push({ node, round: node.rounds - 1, step, parameter, consumer });
  };
  items.forEach((item, step) => {
    if (item.kind !== 'ask' || item.selection.tool === null) return;
    const folded = fold(item.text);
    const view: ClauseView = { turn: item.text, folded, start: 0, end: item.text.length, values: findValues(item.text, lang.language, lang.words.channels, folded), dates: [] };
    for (const parameter of item.selection.missing) {
      for (const producer of producersOf(core, parameter, new Set([item.selection.tool]))) {
        const node = lookupNode(core, lang, producer.name, producer.identity, item, view, context, MAX_CHAIN_ROUNDS, new Set([item.selection.tool]));
        if (node !== null) collect(node, step, parameter, null);
      }
    }
  });
  const ordered = found.map((f, i) => ({ ...f, i })).sort((a, b) => a.round - b.round || a.i - b.i);
  const indexOf = new Map(ordered.map((f, i) => [f.node, i]));
  return ordered.map((f) => {
    const supplied: Record<string, number> = {};
    for (const [input, child] of Object.entries(f.node.inputs)) supplied[input] = indexOf.get(child) ?? -1;
    return {
      step: f.step,
      parameter: f.parameter,
      tool: f.node.tool,
      arguments: sortKeys(f.node.args),
      identity: f.node.identity,
      round: f.round,
      supplied: sortKeys<number>(supplied),
      feeds: f.consumer === null ? null : (indexOf.get(f.consumer) ?? null),
    };
  });
}
