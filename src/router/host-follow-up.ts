/**
 * A follow-up of the previous turn's read by a host tool: "show me order 4411" then "and 4412?" reads
 * the same tool with the one value the turn gives in the one parameter it fits, the rest as before.
 * Only the previous plan's read steps are followed (never a write), only after a follow-up opener,
 * and only when nothing else is said.
 */
import type { JsonValue } from '../core/index.js';
import { convert, fits } from './value-fit.js';
import { isPlannable } from './catalogue.js';
import type { CompiledLanguage, CompiledParameter, CompiledTool } from './compile.js';
import type { PreviousStep } from './data-reader.js';
import type { Rulebook } from './rulebook.js';
import { tokenize } from './text.js';
import type { ArgumentSource } from './types.js';
import type { TurnValue } from './values.js';

export interface HostFollowUp {
  readonly tool: CompiledTool;
  readonly args: Record<string, JsonValue>;
  readonly sources: Record<string, ArgumentSource>;
  readonly value: TurnValue;
}

/** `folded` is the clause's own text; `values` its values, `start` where the clause begins in the turn. */
export function hostFollowUp(lang: CompiledLanguage, rulebook: Rulebook, folded: string, start: number, values: readonly TurnValue[], previous: readonly PreviousStep[]): HostFollowUp | null {
  const last = previous.at(-1);
  const tool = last === undefined ? undefined : lang.toolsByName.get(last.tool);
  if (last === undefined || tool === undefined || !isPlannable(tool.info.entry) || tool.info.effect !== 'read') return null;
  const opener = lang.follow.all(folded).find((m) => folded.slice(0, m.start).trim().length === 0);
  if (opener === undefined || values.length !== 1) return null;
  const value = values[0] as TurnValue;
  const fitting = tool.parameters.filter((p) => p.info.name in last.arguments && fits(p, value, tool.info.name, rulebook));
  if (fitting.length !== 1) return null;
  const parameter = fitting[0] as CompiledParameter;
  // Nothing else may be said: the opener, the value, the parameter's own cue words and stopwords only.
  const covered: [number, number][] = [[opener.start, opener.end], [value.start - start, value.end - start], ...parameter.cues.all(folded).map((c): [number, number] => [c.start, c.end])];
  for (const token of tokenize(folded)) {
    if (covered.some(([s, e]) => token.start >= s && token.end <= e) || lang.stopwords.has(token.word)) continue;
    return null;
  }
  const args: Record<string, JsonValue> = { ...last.arguments, [parameter.info.name]: convert(parameter, value) };
  const sources: Record<string, ArgumentSource> = {};
  for (const key of Object.keys(args)) sources[key] = key === parameter.info.name ? 'turn' : 'previous';
  return { tool, args, sources, value };
}
