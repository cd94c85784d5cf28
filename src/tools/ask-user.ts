import { z } from 'zod';
import type { JsonValue } from '../core/index.js';
import { defineTool } from './define-tool.js';
import type { Tool } from './define-tool.js';

/** The name of the built-in tool through which a model asks the person. */
export const askUserToolName = 'ask_user';

/** Bounds of a question, so that one never floods a client or the journal. */
export const questionBounds = { textChars: 2000, choices: 20, labelChars: 200 } as const;

export interface QuestionChoiceSpec {
  /** Stable within the question; default `c1`, `c2`, …. */
  readonly id?: string;
  readonly label: string;
  /** What answering with this choice says; default the label. */
  readonly value?: string;
  readonly description?: string;
}

export interface QuestionSpec {
  readonly text: string;
  readonly choices?: readonly (string | QuestionChoiceSpec)[];
  /** Whether an answer other than the choices is taken; default true (always true without choices). */
  readonly freeText?: boolean;
  /** A short title for the question's card. */
  readonly header?: string;
  /** What the call found so far: given back to the model with the answer. */
  readonly result?: JsonValue;
}

/**
 * A tool's result that asks the person before the turn goes on. The engine journals the question,
 * pauses the turn and resumes it once it is answered; the call's result is then
 * `{ answer, choice?, question, result? }`: the tool is never run again for it.
 */
export interface QuestionResult {
  readonly status: 'question';
  readonly question: {
    readonly text: string;
    readonly choices: readonly { readonly id: string; readonly label: string; readonly value: string; readonly description?: string }[];
    readonly free_text: boolean;
    readonly header?: string;
  };
  readonly result?: JsonValue;
}

const clip = (value: string, chars: number): string => (value.length <= chars ? value : `${value.slice(0, chars - 1)}…`);

/**
 * What a tool's handler returns to ask the person a question (`return askUser({ text, choices })`):
 * the turn pauses with it and resumes with the answer as the call's result. Long text and labels
 * are cut to `questionBounds`, extra choices dropped.
 */
export function askUser(spec: QuestionSpec): QuestionResult {
  const choices = (spec.choices ?? []).slice(0, questionBounds.choices).map((choice, index) => {
    const given = typeof choice === 'string' ? { label: choice } : choice;
    const label = clip(String(given.label), questionBounds.labelChars);
    return {
      id: clip(given.id ?? `c${index + 1}`, 64),
      label,
      value: given.value === undefined ? label : clip(String(given.value), questionBounds.textChars),
      ...(given.description === undefined ? {} : { description: clip(String(given.description), questionBounds.textChars) }),
    };
  });
  const text = clip(String(spec.text).trim() === '' ? '?' : String(spec.text), questionBounds.textChars);
  return {
    status: 'question',
    question: {
      text,
      choices,
      free_text: choices.length === 0 || spec.freeText !== false,
      ...(spec.header === undefined ? {} : { header: clip(String(spec.header), questionBounds.labelChars) }),
    },
    ...(spec.result === undefined ? {} : { result: spec.result }),
  };
}

export function isQuestion(result: unknown): result is QuestionResult {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return false;
  const record = result as { status?: unknown; question?: unknown };
  return record.status === 'question' && typeof record.question === 'object' && record.question !== null && typeof (record.question as { text?: unknown }).text === 'string';
}

/**
 * `ask_user`: a model asks the person a question it cannot answer from the tools (which of two
 * records, a value nobody gave), with choices when it has them. Read-only; the turn waits for the answer.
 */
export function createAskUserTool(): Tool {
  return defineTool({
    name: askUserToolName,
    description:
      'Asks the person a question and waits for the answer: use it only when you cannot go on without something only they can say (which of several records they mean, a value they did not give). Offer the choices you know; the answer comes back as this call\'s result.',
    input: z.object({
      question: z.string().min(1).max(questionBounds.textChars).describe('The question, in the person\'s language.'),
      choices: z.array(z.string().min(1).max(questionBounds.labelChars)).max(questionBounds.choices).optional().describe('The answers to offer, if there are a few.'),
      allow_free_text: z.boolean().optional().describe('Whether an answer other than the choices is taken (default true).'),
    }),
    effect: 'read',
    handler: (args) => askUser({ text: args.question, choices: args.choices ?? [], ...(args.allow_free_text === undefined ? {} : { freeText: args.allow_free_text }) }),
  });
}
