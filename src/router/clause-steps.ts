/** A read clause's steps as drafts: what a data reading gives, or the calls of the host tool chosen for it. */
import type { JsonValue } from '../core/index.js';
import type { Filled } from './filled.js';
import type { CompiledLanguage, CompiledTool } from './compile.js';
import type { DataReading } from './data-reader.js';
import type { Draft } from './plan-drafts.js';
import { asAsk, blankDraft, findLastIndex, unreadDraft } from './plan-drafts.js';
import type { RouterCore } from './router-core.js';
import type { ArgumentSource } from './types.js';

/**
 * A data reader's steps as drafts: its reads, then its calculations over them (declined where the host
 * runs no calculations), or an unread step where it knows the clause is about data it cannot read.
 */
export function pushDataReading(core: RouterCore, drafts: Draft[], reading: DataReading, text: string): void {
  const reads: number[] = [];
  const readAs = reading.readAs !== undefined && Object.keys(reading.readAs).length > 0 ? { readAs: reading.readAs } : {};
  for (const step of reading.steps) {
    if (step.kind === 'tool') {
      reads.push(drafts.length);
      const sources: Record<string, ArgumentSource> = {};
      for (const key of Object.keys(step.arguments)) sources[key] = step.sources?.[key] ?? 'turn';
      drafts.push({
        ...blankDraft('tool', text, step.decidedBy),
        tool: step.tool,
        args: JSON.parse(JSON.stringify(step.arguments)) as Record<string, JsonValue>,
        sources,
        candidates: [step.tool],
        ...readAs,
      });
    } else if (step.kind === 'unread') {
      drafts.push(unreadDraft(text, step.decidedBy));
    } else if (step.kind === 'ask') {
      drafts.push({ ...blankDraft('ask', text, step.decidedBy), candidates: [...step.candidates], question: step.question });
    } else if (!core.rulebook.compute) {
      drafts.push(blankDraft('decline', step.text, `compute off: ${step.text} is a calculation, and this host runs none`));
    } else {
      drafts.push({ ...blankDraft('compute', step.text, step.decidedBy), dependsOn: [...reads], compute: { ...step.compute } });
    }
  }
}

/** The host tool's calls for a clause: ids earlier writes make, values earlier clauses gave, one call per value of several. */
export function pushToolSteps(core: RouterCore, lang: CompiledLanguage, drafts: Draft[], tool: CompiledTool, filled: Filled, text: string, decidedBy: string, refersBack: boolean): void {
  const name = tool.info.name;
  const supplied: Record<string, number> = {};
  const dependsOn: number[] = [];
  const args = { ...filled.args };
  const sources = { ...filled.sources };
  // A thing made, then used: the missing identity is the thing an earlier write of this turn makes.
  for (const p of tool.parameters) {
    if (p.info.name in args || !p.info.required) continue;
    const nounWords = p.info.words.filter((w) => !['id', 'code', 'key', 'uuid', 'ref'].includes(w));
    const maker = findLastIndex(drafts, (d) => {
      if (d.tool === null || (d.kind !== 'tool' && d.kind !== 'ask')) return false;
      const made = core.catalogue.tools.get(d.tool);
      if (made === undefined || made.effect === 'read') return false;
      return made.entry.outputs?.identity === p.info.name || (nounWords.length > 0 && nounWords.every((w) => made.nameWords.includes(w)));
    });
    if (maker >= 0 && (refersBack || drafts.length > 0)) {
      supplied[p.info.name] = maker;
      sources[p.info.name] = `step ${maker}`;
      if (!dependsOn.includes(maker)) dependsOn.push(maker);
    }
  }
  // A value an earlier clause of the same turn gave (`charge order 4411 … then send the receipt`) carries over;
  // several values it gave one by one ("in 1900 and 1950 … in these years") carry over as several.
  let carried: { parameter: string; values: JsonValue[]; texts: string[] } | null = null;
  for (const p of tool.parameters) {
    if (p.info.name in args || p.info.name in supplied || !p.info.required) continue;
    const earlier = findLastIndex(drafts, (d) => d.tool !== null && p.info.name in d.args && d.sources[p.info.name] === 'turn');
    if (earlier < 0) continue;
    const source = drafts[earlier] as Draft;
    const each = source.decidedBy === `M1 each ${p.info.name}` ? drafts.filter((d) => d.tool === source.tool && d.decidedBy === source.decidedBy) : [];
    if (each.length > 1 && carried === null) {
      const values = each.map((d) => d.args[p.info.name] as JsonValue);
      carried = { parameter: p.info.name, values, texts: values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) };
    }
    args[p.info.name] = source.args[p.info.name] as JsonValue;
    sources[p.info.name] = 'turn';
  }
  const required = tool.parameters.filter((p) => p.info.required).map((p) => p.info.name);
  const missing = required.filter((r) => !(r in args) && !(r in supplied));
  const several = filled.several ?? carried;
  const effect = tool.info.effect;
  const base = (): Draft => ({
    ...blankDraft('tool', text, decidedBy),
    tool: name,
    args: { ...args },
    sources: { ...sources },
    supplied: { ...supplied },
    dependsOn: [...dependsOn],
    candidates: [name],
    missing: [...missing],
  });
  if (several !== null && (effect === 'read' || core.rulebook.batchWrites)) {
    for (const value of several.values) {
      const draft = base();
      draft.args[several.parameter] = value;
      draft.decidedBy = `M1 each ${several.parameter}`;
      drafts.push(asAsk(lang, tool, draft));
    }
    return;
  }
  if (several !== null) {
    const draft = base();
    delete draft.args[several.parameter];
    delete draft.sources[several.parameter];
    draft.missing = [several.parameter, ...draft.missing.filter((m) => m !== several.parameter)];
    draft.decidedBy = `Q2 several ${several.parameter}: ${several.texts.join(', ')}`;
    draft.severalOf = { parameter: several.parameter, texts: several.texts };
    drafts.push(asAsk(lang, tool, draft));
    return;
  }
  drafts.push(asAsk(lang, tool, base()));
}
