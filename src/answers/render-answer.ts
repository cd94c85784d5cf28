/**
 * The grounded deterministic answer: written from a plan and its step results alone, in the plan's
 * language. Every value comes from a result (or the plan), written for the locale, and carries the
 * step, row and field it came from; nothing is added that no result or plan holds. Pure: no I/O, no
 * clock; bounded in rows and in length.
 */
import { renderComputeStep } from './compute-step.js';
import type { Context } from './context.js';
import { askAnswer, declinedAnswer, unreadAnswer } from './plan-answers.js';
import { renderToolStep } from './tool-step.js';
import type { RenderInput, WrittenAnswer } from './types.js';
import { isToolFailure, undoneStatus } from './undone.js';
import { ANSWER_WORDS, fill } from './words.js';
import type { Written } from './written.js';
import { cutTo, join, written } from './written.js';
import { correctionWorthSaying } from './read-as.js';

/** Longest answer the renderer writes, in characters (a longer one is cut at a line and says so). */
export const MAX_ANSWER_CHARS = 8000;

/** The answer and the source of each of its values. */
export function writeAnswer(input: RenderInput): WrittenAnswer {
  const words = ANSWER_WORDS[input.language] ?? ANSWER_WORDS.en;
  const { plan } = input;
  const labels = input.labels ?? (input.label === undefined ? {} : { row: input.label });
  const ctx: Context = { plan, steps: input.steps, language: input.language, words, labels: labels.row === undefined && input.label !== undefined ? { ...labels, row: input.label } : labels };
  let body: Written;
  switch (plan.outcome) {
    case 'ask':
      body = written(askAnswer(plan, words));
      break;
    case 'declined':
      body = written(declinedAnswer(plan, words));
      break;
    case 'unread':
      body = written(unreadAnswer(plan, words));
      break;
    case 'run':
      body = runAnswer(ctx);
      break;
  }
  const cut = cutTo(body, MAX_ANSWER_CHARS, fill(words.cut, { limit: String(MAX_ANSWER_CHARS) }));
  return { text: cut.text, provenance: cut.sources };
}

/** The answer as text (`writeAnswer` without the sources). */
export function renderAnswer(input: RenderInput): string {
  return writeAnswer(input).text;
}

function runAnswer(ctx: Context): Written {
  const { plan, steps } = ctx;
  // A read a calculation was made from is said through the calculation, unless it failed.
  const consumed = new Set(plan.steps.flatMap((s, i) => (s.kind === 'compute' && steps[i] !== undefined ? s.dependsOn : [])));
  const blocks: Written[] = [];
  plan.steps.forEach((step, i) => {
    const outcome = steps[i];
    if (outcome === undefined) {
      if (step.kind === 'tool' || step.kind === 'compute') blocks.push(written(fill(ctx.words.notRun, { text: step.text })));
      return;
    }
    if (outcome.kind === 'compute') {
      blocks.push(renderComputeStep(ctx, i, step, outcome));
      return;
    }
    const text = renderToolStep(ctx, i, step, outcome);
    // An error or a write that did not happen is said even when a calculation depends on it.
    if (!consumed.has(i) || isToolFailure(outcome.result) || undoneStatus(outcome.result) !== null) blocks.push(text);
  });
  // A word read as another (a typo) is said, so that the person sees what was read; another form of the same word is not.
  const readAs = new Map<string, string>();
  for (const step of plan.steps) for (const [typed, read] of Object.entries(step.readAs ?? {})) if (correctionWorthSaying(typed, read, ctx.language)) readAs.set(typed, read);
  for (const [typed, read] of readAs) blocks.push(written(fill(ctx.words.readAs, { typed, read })));
  return join(blocks, '\n\n');
}
