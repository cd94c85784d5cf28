import type { JsonValue } from '../../core/index.js';
import type { ToolCallPart } from '../../providers/index.js';
import type { ItemRecord, NewItem } from '../../store/index.js';
import type { TurnPlan } from '../../router/index.js';
import { isQuestion } from '../../tools/index.js';
import type { QuestionResult } from '../../tools/index.js';
import type { QuestionEvent } from '../shared/index.js';
import { answerOf, newItems, questionOf } from '../shared/index.js';
import type { QuestionData } from '../shared/index.js';
import type { RunSink } from '../shared/index.js';

/**
 * Questions to the person (docs/engine.md, "Questions"). A tool's result (`askUser`, the built-in
 * `ask_user`) or the router's `ask` outcome puts a question; it is journaled as a `question` item
 * whose id is `<turn id>.q<step>.<index>` (the router's `<turn id>.q0`), so the turn is found from
 * the id alone, and answered once: the answer's item id is the question's with `.a`, which the store
 * refuses a second time. A model's or a tool's question pauses its turn (`waiting`) until every
 * question of the step is answered; the answer becomes the call's result. A router question ends
 * its turn; the thread's next message is read as the reply to it, bound explicitly.
 */

const questionIdPattern = /\.q\d+(?:\.\d+)?$/;

export function questionIdFor(turnId: string, step: number, index?: number): string {
  return index === undefined ? `${turnId}.q${step}` : `${turnId}.q${step}.${index}`;
}

/** The turn a question id names, or undefined when it is not a question id. */
export function turnOfQuestion(questionId: string): string | undefined {
  if (typeof questionId !== 'string' || !questionIdPattern.test(questionId)) return undefined;
  const turnId = questionId.replace(questionIdPattern, '');
  return turnId === '' ? undefined : turnId;
}

/** The turn's questions that have no answer yet, in the order they were asked. */
export function unansweredQuestions(turnItems: readonly ItemRecord[]): QuestionData[] {
  const answered = new Set(turnItems.filter((item) => item.kind === 'answer').map((item) => answerOf(item).questionId));
  return turnItems.filter((item) => item.kind === 'question').map(questionOf).filter((question) => !answered.has(question.questionId));
}

/** The `question` event of a question. */
export function questionEvent(question: QuestionData): Omit<QuestionEvent, 'thread_id' | 'turn_id' | 'run_id'> {
  return {
    type: 'question',
    id: question.questionId,
    text: question.text,
    choices: question.choices.map((choice) => ({ ...choice })),
    free_text: question.freeText,
    source: question.source,
    ...(question.header === undefined ? {} : { header: question.header }),
  };
}

/** What answers a question: free text, or a choice named by its id or its value. */
export interface AnswerInput {
  readonly text?: string | undefined;
  readonly choice?: string | undefined;
}

/** The answer as the question takes it, or why it does not (`bad_answer`). */
export function resolveAnswer(question: QuestionData, input: AnswerInput): { readonly text: string; readonly choice?: string } | { readonly problem: string } {
  if (input.choice !== undefined) {
    const choice = question.choices.find((candidate) => candidate.id === input.choice || candidate.value === input.choice);
    if (choice === undefined) return { problem: `'${String(input.choice).slice(0, 80)}' is not one of the question's choices (${question.choices.map((c) => c.id).join(', ') || 'none'}).` };
    return { text: choice.value, choice: choice.id };
  }
  const text = typeof input.text === 'string' ? input.text.trim() : '';
  if (text === '') return { problem: 'The answer is blank. Send some text, or one of the choices.' };
  const chosen = question.choices.find((candidate) => candidate.value.toLowerCase() === text.toLowerCase() || candidate.label.toLowerCase() === text.toLowerCase());
  if (chosen !== undefined) return { text: chosen.value, choice: chosen.id };
  if (!question.freeText) return { problem: `This question takes one of its choices: ${question.choices.map((c) => c.label).join(', ')}.` };
  return { text };
}

/** A model's or a tool's call result once its question is answered: what the model reads. */
export function answeredResult(question: QuestionData, answer: { readonly text: string; readonly choice?: string }): JsonValue {
  return {
    question: question.text,
    answer: answer.text,
    ...(answer.choice === undefined ? {} : { choice: answer.choice }),
    ...(question.result === undefined ? {} : { result: question.result }),
  };
}

/** A call whose question the turn ended before anyone answered (cancelled, or its turn stopped). */
export function unansweredResult(question: QuestionData, reason: string): JsonValue {
  return { status: 'cancelled', reason, question: question.text };
}

/** The question a call's result puts, as the journal keeps it. */
export function questionFromResult(run: RunSink, call: ToolCallPart, result: QuestionResult, step: number, index: number): QuestionData {
  const asked = result.question;
  return {
    questionId: questionIdFor(run.turnId, step, index),
    text: asked.text,
    choices: asked.choices.map((choice) => ({ ...choice })),
    freeText: asked.free_text,
    source: call.name === 'ask_user' ? 'model' : 'tool',
    ...(asked.header === undefined ? {} : { header: asked.header }),
    callId: call.id,
    tool: call.name,
    ...(result.result === undefined ? {} : { result: result.result }),
  };
}

/**
 * The step's calls returned one or more questions: the step is journaled with the other calls'
 * results and a `question` item for each asking call (no result yet), the turn `waiting`; then the
 * results and the questions are shown. Answering every question resumes the turn.
 */
export async function askQuestions(
  run: RunSink,
  calls: readonly ToolCallPart[],
  results: readonly unknown[],
  items: readonly NewItem[],
  step: number,
): Promise<{ readonly next: 'waiting' }> {
  const offset = items.length - calls.length;
  const asked: QuestionData[] = [];
  const journal = items.map((item, index) => {
    const callIndex = index - offset;
    const result = callIndex >= 0 ? results[callIndex] : undefined;
    if (callIndex < 0 || !isQuestion(result)) return item;
    const question = questionFromResult(run, calls[callIndex]!, result, step, callIndex);
    asked.push(question);
    return newItems.question(question);
  });
  await run.append(journal, { status: 'waiting' });
  for (const [index, call] of calls.entries()) {
    const result = results[index];
    if (isQuestion(result)) continue;
    const waiting = run.emit({ type: 'tool_result', id: call.id, name: call.name, result: (result ?? null) as JsonValue });
    if (waiting !== undefined) await waiting;
  }
  const entered = run.enter('awaiting_answer');
  if (entered !== undefined) await entered;
  for (const question of asked) {
    const waiting = run.emit(questionEvent(question));
    if (waiting !== undefined) await waiting;
  }
  return { next: 'waiting' };
}

/** The router's `ask`: its question, with the asking step's candidates as choices (free text always taken). */
export function routerQuestion(run: RunSink, plan: TurnPlan, text: string): QuestionData {
  const asking = plan.steps.find((step) => step.selection.question !== null) ?? plan.steps[0];
  const candidates = asking?.selection.candidates ?? [];
  return {
    questionId: questionIdFor(run.turnId, 0),
    text,
    choices: candidates.slice(0, 20).map((candidate, index) => ({ id: `c${index + 1}`, label: candidate, value: candidate })),
    freeText: true,
    source: 'router',
    planIndex: plan.index,
  };
}

/** The open router question of a thread's items: the last turn's unanswered `router` question, if its turn is the last one. */
export function openRouterQuestion(items: readonly ItemRecord[], beforeTurn?: string): QuestionData | undefined {
  const earlier = beforeTurn === undefined ? items : items.filter((item) => item.turnId !== beforeTurn);
  const last = earlier.at(-1);
  if (last === undefined) return undefined;
  const turnItems = earlier.filter((item) => item.turnId === last.turnId);
  return unansweredQuestions(turnItems).find((question) => question.source === 'router');
}
