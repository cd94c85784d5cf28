/** The calculations a turn asks for over what its reads return, as compute drafts (or declines, or unread). */
import { looksLikeIdentifier } from './parameter-kinds.js';
import type { Clause } from './clauses.js';
import type { CompiledLanguage, PhraseMatch } from './compile.js';
import type { Draft } from './plan-drafts.js';
import { blankDraft, unreadDraft } from './plan-drafts.js';
import type { RouterCore } from './router-core.js';
import type { ComputeOperation } from './types.js';

/**
 * Appends a compute step for each calculation word outside the data reader's clauses that no chosen
 * tool names itself; each depends on the turn's reads.
 */
export function pushComputeSteps(core: RouterCore, lang: CompiledLanguage, turn: string, folded: string, drafts: Draft[], found: readonly PhraseMatch[], dataClauses: readonly Clause[]): void {
  // A calculation the chosen tool itself names (`get_average_score`, "média" in its description's name) is the tool's, not the host's.
  const computeOps = found.filter((op) => !dataClauses.some((c) => op.start >= c.start && op.end <= c.end)).filter((op) => {
    const words = op.phrase.split(' ');
    return !drafts.some((d) => d.tool !== null && (core.catalogue.tools.get(d.tool)?.nameWords ?? []).some((w) => words.includes(w) || (w.length >= 3 && words.some((x) => x.startsWith(w)))));
  });
  if (computeOps.length > 0 && drafts.some((d) => d.kind === 'tool' || d.kind === 'ask')) {
    const typed = computeWords(turn, folded, lang, computeOps);
    if (!core.rulebook.compute) {
      drafts.push({ ...blankDraft('decline', typed.join(', '), `compute off: ${typed.join(', ')} is a calculation, and this host runs none`) });
    } else {
      const reads = drafts.flatMap((d, i) => (d.kind === 'tool' && d.tool !== null && core.catalogue.tools.get(d.tool)?.effect === 'read' ? [i] : []));
      const oneRow = reads.length === 1 && readsOneRow(lang, drafts[reads[0] as number] as Draft);
      for (const op of computeOps) {
        const operation = lang.computeKeys.get(op.phrase) as ComputeOperation;
        // "the sum order 4411 came to": a total of one row's read is a field of that row, which the words do not name.
        if (oneRow && ROW_AGGREGATES.has(operation)) {
          drafts.push(unreadDraft(turn.slice(op.start, op.end), `U12 one row ${operation}`));
          continue;
        }
        const field = fieldAfter(turn, folded, lang, op.end);
        drafts.push({ ...blankDraft('compute', turn.slice(op.start, op.end), `C1 ${operation}${field === null ? '' : ` ${field}`}`), dependsOn: reads, compute: { operation, field } });
      }
    }
  }
}

function computeWords(turn: string, folded: string, lang: CompiledLanguage, ops: readonly { start: number; end: number }[]): string[] {
  const out: string[] = [];
  for (const op of ops) {
    out.push(turn.slice(op.start, op.end));
    const field = fieldAfter(turn, folded, lang, op.end);
    if (field !== null) out.push(field);
  }
  return out;
}

/** Calculations over several rows' values; over the one row a read by its identifier gives, none means anything. */
const ROW_AGGREGATES: ReadonlySet<ComputeOperation> = new Set(['sum', 'average', 'minimum', 'maximum']);

/** A read step that takes one row by its identifier ("order 4411"): one value for a required identifier parameter. */
function readsOneRow(lang: CompiledLanguage, draft: Draft): boolean {
  const tool = draft.tool === null ? undefined : lang.toolsByName.get(draft.tool);
  return tool !== undefined && tool.parameters.some((p) => p.info.required && (looksLikeIdentifier(p.info.name) || p.pattern !== null) && typeof draft.args[p.info.name] === 'string');
}

/** The field a calculation is over: the first word after it that is no stopword (`average total` → `total`). */
function fieldAfter(turn: string, folded: string, lang: CompiledLanguage, from: number): string | null {
  const re = /[a-z0-9]+/g;
  re.lastIndex = from;
  for (let m = re.exec(folded); m !== null; m = re.exec(folded)) {
    if (lang.stopwords.has(m[0])) continue;
    if (/^\d/.test(m[0])) return null;
    return turn.slice(m.index, m.index + m[0].length);
  }
  return null;
}
