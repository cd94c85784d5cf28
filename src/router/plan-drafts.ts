/** The steps of a plan as they are built (drafts), and the words they are put in. */
import type { JsonValue } from '../core/index.js';
import type { CompiledLanguage, CompiledTool } from './compile.js';
import { humanize, listWords } from './text.js';
import type { ArgumentSource, ComputeSpec, StepKind } from './types.js';

/** A step as it is built, before the plan is finished. */
export interface Draft {
  kind: StepKind;
  text: string;
  decidedBy: string;
  dependsOn: number[];
  tool: string | null;
  args: Record<string, JsonValue>;
  sources: Record<string, ArgumentSource>;
  missing: string[];
  candidates: string[];
  question: string | null;
  supplied: Record<string, number>;
  compute: ComputeSpec | null;
  severalOf: { parameter: string; texts: readonly string[] } | null;
  readAs?: Readonly<Record<string, string>>;
}

/** A step with something missing becomes an `ask` with its question in the turn's language. */
export function asAsk(lang: CompiledLanguage, tool: CompiledTool, draft: Draft): Draft {
  if (draft.missing.length === 0) {
    draft.kind = 'tool';
    draft.question = null;
    return draft;
  }
  draft.kind = 'ask';
  if (!draft.decidedBy.startsWith('Q')) draft.decidedBy = `Q1 missing ${draft.missing.join(', ')}`;
  const params = draft.missing.map((m) => parameterLabel(tool, m));
  draft.question =
    draft.severalOf !== null
      ? format(lang, 'which_of', { tool: label(tool), param: params[0] ?? '', values: listWords([...draft.severalOf.texts], lang.words.messages['or'] ?? 'or') })
      : format(lang, 'which', { tool: label(tool), param: listWords(params, lang.words.messages['and'] ?? 'and') });
  return draft;
}

export function blankDraft(kind: StepKind, text: string, decidedBy: string): Draft {
  return { kind, text, decidedBy, dependsOn: [], tool: null, args: {}, sources: {}, missing: [], candidates: [], question: null, supplied: {}, compute: null, severalOf: null };
}

export function unreadDraft(text: string, rule: string): Draft {
  return blankDraft('unread', text, rule);
}

export function label(tool: CompiledTool): string {
  return tool.label ?? humanize(tool.info.name);
}

export function parameterLabel(tool: CompiledTool, name: string): string {
  return tool.parameters.find((p) => p.info.name === name)?.label ?? humanize(name);
}

export function format(lang: CompiledLanguage, key: string, fields: Readonly<Record<string, string>>): string {
  const template = lang.words.messages[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => fields[name] ?? '');
}

export function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}

export function sortKeys<T extends JsonValue>(record: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key] as T;
  return out;
}
