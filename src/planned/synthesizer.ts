import { z } from 'zod';
import type { ChatMessage, Provider } from '../providers/index.js';
import type { RoundBudget } from './budget.js';
import { StageStop } from './budget.js';
import type { EvidenceRecord } from './evidence.js';
import { plannedRound } from './round.js';

const answerSchema = z.union([
  z.strictObject({ answer: z.string().trim().min(1), evidence: z.array(z.string().min(1)).min(1) }),
  z.strictObject({ clarification: z.strictObject({ question: z.string().trim().min(1), choices: z.array(z.string().min(1)).max(10).default([]) }) }),
]);

export type Synthesis =
  | { readonly kind: 'answer'; readonly text: string; readonly evidence: readonly string[] }
  | { readonly kind: 'clarification'; readonly question: string; readonly choices: readonly string[] };

/** The evidence as the synthesizer reads it: each item with its id, its task's goal and its rows. */
export function evidenceListing(records: readonly EvidenceRecord[], goals: ReadonlyMap<string, string>): string {
  return records
    .map((record) => {
      const head = `[${record.id}] task ${record.taskId} (${goals.get(record.taskId) ?? ''}), ${record.kind}`;
      const body = record.value !== undefined ? `value: ${record.value}` : `rows${record.truncated ? ' (first ones only)' : ''}: ${JSON.stringify(record.rows)}`;
      return `${head}\n${body}`;
    })
    .join('\n\n');
}

/** Checks a synthesis: its JSON shape, and that every evidence id it cites exists in the turn's evidence. */
export function checkSynthesis(text: string, known: ReadonlySet<string>): { ok: true; synthesis: Synthesis } | { ok: false; problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/gi, ''));
  } catch {
    return { ok: false, problem: 'The answer is not one JSON object.' };
  }
  const parsed = answerSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problem: `The answer is not {"answer","evidence"} or {"clarification"}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}.` };
  if ('clarification' in parsed.data) return { ok: true, synthesis: { kind: 'clarification', question: parsed.data.clarification.question, choices: parsed.data.clarification.choices } };
  const unknown = parsed.data.evidence.filter((id) => !known.has(id));
  if (unknown.length > 0) return { ok: false, problem: `It cites evidence that does not exist: ${unknown.join(', ')}.` };
  return { ok: true, synthesis: { kind: 'answer', text: parsed.data.answer, evidence: [...new Set(parsed.data.evidence)] } };
}

/**
 * Writes the answer from the evidence alone: the synthesizer cites the evidence ids it used (an
 * answer citing evidence that does not exist is refused) or asks a clarifying question; a refused
 * answer is asked once more of the fallback model. Undefined when neither gives one.
 */
export async function synthesize(input: {
  readonly synthesizer: Provider;
  readonly fallback: Provider;
  readonly question: string;
  readonly evidence: readonly EvidenceRecord[];
  readonly goals: ReadonlyMap<string, string>;
  readonly unresolved: readonly string[];
  readonly signal: AbortSignal;
  readonly budget: RoundBudget;
  readonly addUsage: (usage: { readonly inputTokens: number; readonly outputTokens: number }) => void;
}): Promise<Synthesis | undefined> {
  const known = new Set(input.evidence.map((record) => record.id));
  const system = [
    'Answer the person\'s question from the evidence below and nothing else. Copy values exactly as they appear; compute nothing yourself (computed values are given as evidence).',
    input.unresolved.length === 0 ? '' : `Some parts could not be gathered (tasks ${input.unresolved.join(', ')}): say what is missing instead of guessing it.`,
    'Reply with ONE JSON object: {"answer":"…","evidence":["e1",…]} citing every evidence id the answer uses, or {"clarification":{"question":"…","choices":["…"]}} when the evidence cannot answer and the person must say more.',
    `Evidence:\n${evidenceListing(input.evidence, input.goals)}`,
  ]
    .filter((line) => line !== '')
    .join('\n\n');
  const messages: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: input.question }];
  let failure: StageStop | undefined;
  let answered = false;
  for (const provider of [input.synthesizer, input.fallback]) {
    let text: string;
    try {
      text = (await plannedRound({ provider, messages, tools: [], signal: input.signal, budget: input.budget, addUsage: input.addUsage })).text;
    } catch (error) {
      if (!(error instanceof StageStop) || error.reason !== 'provider_failed') throw error;
      failure = error;
      continue;
    }
    answered = true;
    const checked = checkSynthesis(text, known);
    if (checked.ok) return checked.synthesis;
    messages.push({ role: 'assistant', content: text }, { role: 'user', content: `${checked.problem} Reply with the corrected JSON object only.` });
  }
  if (!answered && failure !== undefined) throw failure;
  return undefined;
}
