import { z } from 'zod';
import type { Provider } from '../providers/index.js';
import type { EvalTurn } from './dataset-schema.js';
import { clip } from './judges.js';
import type { JudgeVerdict } from './judges.js';
import type { ObservedTurn } from './play-case.js';

/** How much of the turn's tool results the judge model reads. */
const MAX_RESULT_CHARS = 6000;
const JUDGE_TIMEOUT_MS = 60_000;

const judgement = z.object({ score: z.int().min(1).max(5), reason: z.string() });

const instructions = [
  'You grade one answer of a data assistant. You are given the question, the tool calls it made with their results, its answer, and a rubric.',
  'Score the answer from 1 (wrong or ungrounded) to 5 (correct, complete, grounded in the results, and clear), by the rubric.',
  'Reply with one JSON object and nothing else: {"score": <1-5>, "reason": "<one sentence>"}.',
].join('\n');

/**
 * The answer-quality judge: a model scores each answered turn against the turn's rubric. A reply
 * that is not the JSON asked for, or a failed request, fails the judge with the reason.
 */
export function qualityJudge(provider: Provider): (turn: EvalTurn, observed: ObservedTurn, signal: AbortSignal | undefined) => Promise<JudgeVerdict> {
  return async (turn, observed, signal) => {
    const rubric = turn.expect.quality;
    if (rubric === undefined) return { judge: 'quality', status: 'skip', reasons: [] };
    const calls = observed.calls.map((call) => `${call.tool} ${JSON.stringify(call.arguments)} → ${JSON.stringify(call.result ?? null)}`).join('\n');
    const prompt = [`Question: ${turn.text}`, `Tool calls and results:\n${calls === '' ? '(none)' : clip(calls, MAX_RESULT_CHARS)}`, `Answer: ${observed.answer}`, `Rubric: ${rubric.rubric}`].join('\n\n');
    const timeout = AbortSignal.timeout(JUDGE_TIMEOUT_MS);
    let text = '';
    try {
      for await (const event of provider.complete({ messages: [{ role: 'system', content: instructions }, { role: 'user', content: prompt }], tools: [], signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) })) {
        if (event.type === 'text') text += event.text;
      }
    } catch (error) {
      return { judge: 'quality', status: 'fail', reasons: [`the judge model failed: ${error instanceof Error ? error.message : String(error)}`] };
    }
    const parsed = judgement.safeParse(jsonIn(text));
    if (!parsed.success) return { judge: 'quality', status: 'fail', reasons: [`the judge model did not reply with {"score", "reason"}: ${JSON.stringify(clip(text, 200))}`] };
    const { score, reason } = parsed.data;
    return score >= rubric.minScore ? { judge: 'quality', status: 'pass', reasons: [] } : { judge: 'quality', status: 'fail', reasons: [`quality ${score}/5, below ${rubric.minScore}: ${reason}`] };
  };
}

/** The first JSON object in a reply (models wrap it in prose or a code fence). */
function jsonIn(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return undefined;
  }
}
