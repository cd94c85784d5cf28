/**
 * The grounded deterministic answer: written from a plan and its step results alone, in the plan's
 * language. Every value is copied as the result has it; nothing is added that no result or plan holds.
 * Pure: no I/O, no clock; bounded in rows and in length.
 */
import { renderComputeStep } from './compute-step.js';
import type { Context } from './context.js';
import { askAnswer, declinedAnswer, unreadAnswer } from './plan-answers.js';
import { renderToolStep } from './tool-step.js';
import type { RenderInput } from './types.js';
import { isToolFailure, undoneStatus } from './undone.js';
import { ANSWER_WORDS, fill } from './words.js';
import type { AnswerWords } from './words.js';

/** Longest answer the renderer writes, in characters (a longer one is cut at a line and says so). */
export const MAX_ANSWER_CHARS = 8000;

export function renderAnswer(input: RenderInput): string {
  const words = ANSWER_WORDS[input.language] ?? ANSWER_WORDS.en;
  const { plan } = input;
  switch (plan.outcome) {
    case 'ask':
      return bound(askAnswer(plan, words), words);
    case 'declined':
      return bound(declinedAnswer(plan, words), words);
    case 'unread':
      return bound(unreadAnswer(plan, words), words);
    case 'run':
      return bound(runAnswer({ plan, steps: input.steps, language: input.language, words, label: input.label }), words);
  }
}

function runAnswer(ctx: Context): string {
  const { plan, steps } = ctx;
  // A read a calculation was made from is said through the calculation, unless it failed.
  const consumed = new Set(plan.steps.flatMap((s, i) => (s.kind === 'compute' && steps[i] !== undefined ? s.dependsOn : [])));
  const blocks: string[] = [];
  plan.steps.forEach((step, i) => {
    const outcome = steps[i];
    if (outcome === undefined) {
      if (step.kind === 'tool' || step.kind === 'compute') blocks.push(fill(ctx.words.notRun, { text: step.text }));
      return;
    }
    if (outcome.kind === 'compute') {
      blocks.push(renderComputeStep(ctx, step, outcome));
      return;
    }
    const text = renderToolStep(ctx, step, outcome);
    // An error or a write that did not happen is said even when a calculation depends on it.
    if (!consumed.has(i) || isToolFailure(outcome.result) || undoneStatus(outcome.result) !== null) blocks.push(text);
  });
  return blocks.join('\n\n');
}



function bound(text: string, words: AnswerWords): string {
  if (text.length <= MAX_ANSWER_CHARS) return text;
  const note = fill(words.cut, { limit: String(MAX_ANSWER_CHARS) });
  const room = MAX_ANSWER_CHARS - note.length - 1;
  const head = text.slice(0, room);
  const line = head.lastIndexOf('\n');
  return `${line > 0 ? head.slice(0, line) : head}\n${note}`;
}
