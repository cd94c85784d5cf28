/** Choosing a clause's tool: vocabulary triggers first, then name and description words, verbs agreeing with the effect. */
import type { CompiledLanguage, CompiledTool } from './compile.js';
import type { Token } from './text.js';
import { stem } from './text.js';
import type { TurnValue } from './values.js';
import type { DateMention } from './dates.js';
import { isDateParameter } from './parameter-kinds.js';

export interface Scored {
  readonly tool: CompiledTool;
  readonly score: number;
  readonly convincing: boolean;
  readonly trigger: string | null;
  readonly triggerSpan: readonly [number, number] | null;
  readonly whole: boolean;
  /** How many of the tool's key name words the turn has, and whether the turn's verb disagrees with its effect. */
  readonly nameHits: number;
  readonly disagrees: boolean;
  readonly evidence: string;
}

export interface SelectionResult {
  readonly chosen: Scored | null;
  /** Close runners-up: two or more means the person is asked which. */
  readonly close: readonly Scored[];
  readonly ranked: readonly Scored[];
  /** Not convincing on words alone, but its whole name is in the turn: taken only if the turn fills every required argument. */
  readonly fallback: Scored | null;
  readonly verbs: { readonly read: boolean; readonly write: boolean };
}

export function selectTool(
  lang: CompiledLanguage,
  folded: string,
  tokens: readonly Token[],
  values: readonly TurnValue[],
  dates: readonly DateMention[],
): SelectionResult {
  const stems = new Set<string>();
  for (const token of tokens) {
    stems.add(token.word);
    stems.add(stem(token.word));
  }
  const read = lang.readVerbs.test(folded);
  const write = lang.writeVerbs.test(folded);
  const ranked: Scored[] = [];
  const reachable = new Set<CompiledTool>();
  for (const word of stems) for (const tool of lang.toolsByWord.get(word) ?? []) reachable.add(tool);
  for (const tool of lang.tools) {
    if (!reachable.has(tool)) continue;
    const effect = tool.info.effect;
    let triggerMatch: string | null = null;
    let triggerSpan: readonly [number, number] | null = null;
    const mayTrigger = tool.triggerHeads.some((head) => stems.has(head));
    for (const m of mayTrigger ? tool.triggers.all(folded) : []) {
      if (triggerMatch === null || m.phrase.length > triggerMatch.length) {
        triggerMatch = m.phrase;
        triggerSpan = [m.start, m.end];
      }
    }
    let nameHits = 0;
    for (const word of tool.keyWords) if (stems.has(word)) nameHits++;
    if (triggerMatch === null && nameHits === 0) continue;
    let descriptionHits = 0;
    for (const word of tool.descriptionWords) if (stems.has(word)) descriptionHits++;
    let cueHits = 0;
    let typeHits = 0;
    for (const p of tool.parameters) {
      if (p.cues.test(folded)) cueHits++;
      if (isDateParameter(p) && dates.length > 0) typeHits++;
    }
    if (values.some((v) => v.kind === 'email') && tool.parameters.some((p) => p.info.format === 'email')) typeHits++;
    const disagrees = (write && !read && effect === 'read') || (read && !write && effect !== 'read');
    if (disagrees && triggerMatch === null) continue;
    const keys = tool.keyWords.length;
    const score =
      (triggerMatch === null ? 0 : 10 + triggerMatch.length / 100) +
      nameHits * 2 +
      (keys > 0 ? nameHits / keys : 0) +
      Math.min(descriptionHits, 4) * 0.25 +
      cueHits * 0.5 +
      typeHits * 0.25 -
      (disagrees ? 5 : 0);
    const whole = !disagrees && keys > 0 && nameHits === keys;
    const convincing =
      !disagrees &&
      (triggerMatch !== null ||
      (keys > 0 && nameHits === keys && (keys >= 2 || cueHits + descriptionHits >= 2)) ||
        (nameHits >= 2 && nameHits / Math.max(keys, 1) >= 0.6 && cueHits >= 1));
    ranked.push({
      tool,
      score,
      convincing,
      trigger: triggerMatch,
      triggerSpan,
      whole,
      nameHits,
      disagrees,
      evidence: `${tool.info.name} ${score.toFixed(2)}${triggerMatch === null ? '' : ` trigger "${triggerMatch}"`} name ${nameHits}/${keys}`,
    });
  }
  ranked.sort((a, b) => b.score - a.score || (a.tool.info.name < b.tool.info.name ? -1 : 1));
  const best = ranked[0];
  if (best === undefined || !best.convincing) {
    const wholes = ranked.filter((s) => s.whole);
    return { chosen: null, close: [], ranked, fallback: wholes.length === 1 ? (wholes[0] as Scored) : null, verbs: { read, write } };
  }
  // Two tools named by their own triggers in one clause ("refund or charge order 4411") are a question, not a choice.
  const triggered = ranked.filter((s) => s.convincing && s.triggerSpan !== null);
  const named = triggered.filter(
    (s) => !triggered.some((o) => o !== s && o.triggerSpan !== null && s.triggerSpan !== null && o.triggerSpan[0] <= s.triggerSpan[0] && o.triggerSpan[1] >= s.triggerSpan[1] && o.triggerSpan[1] - o.triggerSpan[0] > s.triggerSpan[1] - s.triggerSpan[0]),
  );
  if (named.length > 1) return { chosen: null, close: named, ranked, fallback: null, verbs: { read, write } };
  const close = ranked.filter((s) => s.convincing && best.score - s.score < 0.5);
  return { chosen: close.length > 1 ? null : best, close: close.length > 1 ? close : [], ranked, fallback: null, verbs: { read, write } };
}
