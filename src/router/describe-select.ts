/**
 * T5: choosing a tool by what its description says, where no trigger or name convinces: the tool
 * whose name and description share the most content words with the clause, clearly ahead of the
 * next, taken only when the clause gives every required argument with evidence — a cue, a unit, a
 * place, a range, a date, an enum value, a name — never by its type alone. Words every
 * description uses ("calculate", "given", "specified") say nothing about which tool.
 */
import type { CompiledLanguage, CompiledTool } from './compile.js';
import type { Filled } from './filled.js';
import type { Token } from './text.js';
import { stem } from './text.js';

const GENERIC = new Set(
  [
    'calculate', 'calculates', 'calculation', 'compute', 'computes', 'get', 'gets', 'find', 'finds', 'retrieve', 'retrieves', 'fetch', 'fetches', 'return', 'returns',
    'given', 'specified', 'specific', 'particular', 'certain', 'based', 'using', 'provide', 'provided', 'provides', 'information', 'info', 'detail', 'details',
    'data', 'value', 'values', 'number', 'numbers', 'result', 'results', 'function', 'method', 'tool', 'api', 'request', 'requests', 'user', 'users', 'list',
    'type', 'types', 'name', 'names', 'time', 'date', 'new', 'current', 'also', 'optional', 'default', 'parameter', 'parameters', 'input', 'output', 'option',
    'options', 'set', 'make', 'want', 'need', 'know', 'tell', 'show', 'give', 'please', 'help', 'like', 'would', 'could', 'can', 'what', 'which', 'how',
  ].map(stem),
);

/** The thing a question or a request asks for: "what is the X", "calculate the X", "find me the X". */
const ASKED = /^(?:so\s+|please\s+|can you\s+|could you\s+)?(?:(?:what|which)(?:\s+is|\s+are|\s+was|\s+will\s+be|\s+s)|calculate|compute|determine|estimate|find(?:\s+out)?|get|give\s+me|tell\s+me|show\s+me)\s+(?:me\s+)?(?:the\s+|a\s+|an\s+)?([a-z]+)/;

/** How far ahead of the next tool the chosen one must be, in shared words. */
const LEAD = 2;

export interface Described {
  readonly tool: CompiledTool;
  readonly shared: readonly string[];
}

/** The one tool the clause's content words point to, or null (none, too few words, or two as near). */
export function describedTool(lang: CompiledLanguage, tokens: readonly Token[], verbs: { readonly read: boolean; readonly write: boolean }): Described | null {
  const words = new Set<string>();
  for (const token of tokens) {
    if (lang.stopwords.has(token.word) || token.word.length < 3 || /^\d/.test(token.word)) continue;
    const s = stem(token.word);
    if (!GENERIC.has(s)) words.add(s);
  }
  if (words.size === 0) return null;
  const scored: { tool: CompiledTool; score: number; shared: string[]; nameHits: number }[] = [];
  const reached = new Set<CompiledTool>();
  for (const word of words) for (const tool of lang.toolsByDescription.get(word) ?? []) reached.add(tool);
  for (const tool of reached) {
    // A read verb with no write verb rules out writes, and the other way round, as for every selection.
    if ((verbs.write && !verbs.read && tool.info.effect === 'read') || (verbs.read && !verbs.write && tool.info.effect !== 'read')) continue;
    const shared: string[] = [];
    let nameHits = 0;
    for (const word of words) {
      const inName = tool.keyWords.includes(word);
      if (inName || tool.descriptionWords.has(word)) shared.push(word);
      if (inName) nameHits++;
    }
    if (shared.length > 0) scored.push({ tool, score: shared.length + nameHits, shared, nameHits });
  }
  // "What is the acceleration …?": the thing asked for must be what the tool gives.
  const asked = ASKED.exec(tokens.map((t) => t.word).join(' '))?.[1];
  const askedStem = asked === undefined || lang.stopwords.has(asked) ? null : stem(asked);
  if (askedStem !== null && !GENERIC.has(askedStem)) {
    for (let i = scored.length - 1; i >= 0; i--) {
      const tool = (scored[i] as (typeof scored)[number]).tool;
      if (!tool.keyWords.includes(askedStem) && !tool.descriptionWords.has(askedStem)) scored.splice(i, 1);
    }
  }
  scored.sort((a, b) => b.score - a.score);
  const [best, next] = scored;
  if (best === undefined || best.shared.length < 2 || (best.nameHits === 0 && best.shared.length < 3)) return null;
  if (next !== undefined && best.score - next.score < LEAD) return null;
  return { tool: best.tool, shared: best.shared };
}

/** Whether every required parameter was filled with evidence, not merely by being the one value of its type. */
export function filledWithEvidence(tool: CompiledTool, filled: Filled): boolean {
  const required = tool.parameters.filter((p) => p.info.required);
  if (required.length === 0) return false;
  return required.every((p) => {
    // A value that only fits by its type is no evidence: "a circle 5 across" gives a diameter, not the radius.
    return filled.rules.some((r) => r.endsWith(` ${p.info.name}`) && !r.startsWith('A2 type'));
  });
}
