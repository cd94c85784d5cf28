/** The answers a plan gives without running anything: the question of an `ask`, the reasons of a `declined`, the guidance of an `unread`. */
import type { TurnPlan } from '../router/index.js';
import type { AnswerWords } from './words.js';
import { fill } from './words.js';

export function askAnswer(plan: TurnPlan, words: AnswerWords): string {
  const questions = plan.steps.flatMap((s) => (s.kind === 'ask' && s.selection.question !== null ? [s.selection.question] : []));
  return questions.length > 0 ? [...new Set(questions)].join('\n') : (plan.guidance?.render ?? words.unread);
}

/** A decline's rule in words: a calculation this host runs none of, a destination no tool takes, else the rule as written. */
function reason(rule: string, words: AnswerWords): string {
  const compute = /^compute off: (.+) is a calculation\b/.exec(rule);
  if (compute !== null) return fill(words.cantCompute, { what: compute[1] as string });
  const destination = /^S2 destination: (.+)$/.exec(rule);
  if (destination !== null) return fill(words.cantSend, { what: destination[1] as string });
  return fill(words.cantDo, { what: rule });
}

export function declinedAnswer(plan: TurnPlan, words: AnswerWords): string {
  const rules = plan.steps.filter((s) => s.kind === 'decline').map((s) => s.decidedBy);
  const all = rules.length > 0 ? rules : plan.declinedBecause === null ? [] : plan.declinedBecause.split('; ');
  if (all.length === 0) return fill(words.cantDo, { what: plan.turn });
  return [...new Set(all)].map((r) => reason(r, words)).join('\n');
}

export function unreadAnswer(plan: TurnPlan, words: AnswerWords): string {
  return plan.guidance?.render ?? words.unread;
}
