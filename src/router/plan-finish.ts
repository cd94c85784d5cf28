/** A plan finished from its drafts: outcome, confirmations, saga, chain, guidance. */
import { isFreeText } from './parameter-kinds.js';
import type { CompiledLanguage, CompiledTool } from './compile.js';
import { chainFor } from './lookup-chain.js';
import type { Draft } from './plan-drafts.js';
import { format, label, parameterLabel, sortKeys, unreadDraft } from './plan-drafts.js';
import type { ReadOptions } from './read-options.js';
import type { RouterCore } from './router-core.js';
import { humanize, listWords } from './text.js';
import type { ArgumentSource, Guidance, PlanItem, SagaLink, TurnPlan } from './types.js';

/** Finishes a plan from its drafts: outcome, confirmations, saga, chain, guidance, what goes to a model. */
export function finish(core: RouterCore, lang: CompiledLanguage, turn: string, drafts: readonly Draft[], options: ReadOptions, evidence: readonly string[]): TurnPlan {
  const declines = drafts.filter((d) => d.kind === 'decline');
  const outcome = declines.length > 0 ? 'declined' : drafts.some((d) => d.kind === 'unread') ? 'unread' : drafts.some((d) => d.kind === 'ask') ? 'ask' : drafts.length === 0 ? 'unread' : 'run';
  const steps: Draft[] = drafts.length === 0 ? [unreadDraft(turn, 'U1 nothing convincing')] : [...drafts];
  const saga: SagaLink[] = [];
  steps.forEach((d, i) => {
    if (d.tool === null || core.catalogue.tools.get(d.tool)?.effect !== 'irreversible') return;
    const writes = steps.flatMap((w, j) => (j > i && w.tool !== null && core.catalogue.tools.get(w.tool)?.effect === 'write' ? [j] : []));
    if (writes.length > 0) saga.push({ irreversible: i, writes });
  });
  const items: PlanItem[] = steps.map((d, i) => {
    const tool = d.tool === null ? undefined : lang.toolsByName.get(d.tool);
    let confirmation: string | null = null;
    if (tool !== undefined && tool.info.effect !== 'read' && d.kind === 'tool') {
      confirmation = confirmationText(lang, tool, d);
      const link = saga.find((s) => s.irreversible === i);
      if (link !== undefined) {
        const names = link.writes.map((j) => {
          const w = steps[j]?.tool;
          const wt = w == null ? undefined : lang.toolsByName.get(w);
          return wt === undefined ? String(j) : label(wt);
        });
        confirmation += format(lang, 'saga', { writes: listWords(names, lang.words.messages['and'] ?? 'and') });
      }
    }
    return {
      kind: d.kind,
      text: d.text,
      decidedBy: d.decidedBy,
      dependsOn: [...d.dependsOn],
      selection: {
        tool: d.tool,
        arguments: sortKeys(d.args),
        sources: sortKeys<ArgumentSource>(d.sources),
        missing: [...d.missing],
        candidates: [...d.candidates],
        question: d.question,
      },
      supplied: sortKeys<number>(d.supplied),
      confirmation,
      compute: d.compute,
      ...(d.readAs === undefined ? {} : { readAs: d.readAs }),
    };
  });
  const toModel = outcome === 'unread' && options.onUnread === 'model' ? items.flatMap((item, i) => (item.kind === 'unread' ? [i] : [])) : [];
  const declinedBecause = declines.length > 0 ? declines.map((d) => d.decidedBy).join('; ') : null;
  const chain = outcome === 'ask' ? chainFor(core, lang, items, options.context) : [];
  return {
    outcome,
    language: lang.language,
    turn,
    steps: items,
    guidance: guidanceFor(core, lang, outcome, items, options, evidence, declinedBecause),
    declinedBecause,
    toModel,
    saga,
    chain,
    catalogueVersion: core.catalogue.version,
    vocabularyDigest: core.vocabulary.digest,
    index: options.index,
  };
}

function confirmationText(lang: CompiledLanguage, tool: CompiledTool, d: Draft): string {
  const parts = Object.keys(d.args)
    .sort()
    .map((k) => `${parameterLabel(tool, k)} ${typeof d.args[k] === 'string' ? (d.args[k]) : JSON.stringify(d.args[k])}`);
  for (const [k, step] of Object.entries(d.supplied)) parts.push(`${parameterLabel(tool, k)} ${format(lang, 'from_step', { step: String(step) })}`);
  const name = label(tool);
  return format(lang, 'confirm', { tool: name.charAt(0).toUpperCase() + name.slice(1), arguments: listWords(parts, lang.words.messages['and'] ?? 'and') });
}

function guidanceFor(core: RouterCore, lang: CompiledLanguage, outcome: string, items: readonly PlanItem[], options: ReadOptions, evidence: readonly string[], declinedBecause: string | null): Guidance {
  if (outcome === 'declined') return { next: null, render: null, evidence: declinedBecause === null ? [] : [declinedBecause] };
  if (outcome !== 'unread') return { next: null, render: null, evidence: items.map((i) => i.decidedBy) };
  const rule = core.rulebook;
  const rephrase = rule.askToRephrase && options.rephrasesSpent < rule.maxRephrase;
  const availability = items.some((i) => i.decidedBy.startsWith('U3'));
  const render = rephrase ? rephraseSentence(lang, items, availability) : options.onUnread === 'refuse' ? format(lang, 'unread_refused', {}) : null;
  return { next: rephrase ? 'Rephrase' : 'Defer', render, evidence: [...items.map((i) => i.decidedBy), ...evidence] };
}

/**
 * The request to rephrase, with a turn this host reads: a host tool's example where it has tools (the
 * one the turn came closest to first), else what its data reader offers ("I can read parts and
 * materials"), else a sentence saying there is nothing to ask here — never an empty example.
 */
function rephraseSentence(lang: CompiledLanguage, items: readonly PlanItem[], availability: boolean): string {
  const example = toolExample(lang, items);
  if (example !== null) return format(lang, availability ? 'rephrase_when' : 'rephrase', { example });
  const offer = lang.reads?.offer ?? null;
  if (offer !== null) return format(lang, 'rephrase_data', { topics: listWords([...offer.topics], lang.words.messages['and'] ?? 'and'), example: offer.example });
  return format(lang, 'rephrase_nothing', {});
}

function toolExample(lang: CompiledLanguage, items: readonly PlanItem[]): string | null {
  const named = items.flatMap((i) => i.selection.candidates).map((n) => lang.toolsByName.get(n)).find((t) => t !== undefined && t.info.entry.reads === undefined && t.info.entry.checkOnly !== true);
  const tool = named ?? lang.tools.find((t) => lang.words.tools[t.info.name]?.example != null) ?? lang.tools[0];
  if (tool === undefined) return null;
  const words = lang.words.tools[tool.info.name];
  if (words?.example != null) return words.example;
  const trigger = words?.triggers[0] ?? humanize(tool.info.name);
  const cue = tool.parameters.find((p) => p.info.required && !isFreeText(p));
  return cue === undefined ? trigger : `${trigger} ${humanize(cue.info.name)} …`;
}
