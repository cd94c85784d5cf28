import { z } from 'zod';

/**
 * The shape of an eval dataset: cases (one thread each, one actor), each a list of turns with what
 * the turn must come to. Expected values come from the data the dataset runs over, never from what
 * a system printed.
 */

export const evalOutcomes = ['run', 'ask', 'declined', 'unread'] as const;
export type EvalOutcome = (typeof evalOutcomes)[number];

/** What a turn exercises; used for the breakdown tables only. */
export const evalTurnKinds = ['read', 'count', 'multi', 'date', 'write', 'ask', 'decline', 'unread'] as const;
export type EvalTurnKind = (typeof evalTurnKinds)[number];

export const evalActorNames = ['alice', 'bob', 'anonymous'] as const;
export type EvalActorName = (typeof evalActorNames)[number];

export const evalLanguages = ['en', 'pt-BR'] as const;
export type EvalLanguage = (typeof evalLanguages)[number];

const decision = z.enum(['approve', 'reject']);
export type EvalDecision = z.infer<typeof decision>;

const expectedCall = z.strictObject({
  tool: z.string().min(1),
  /** A subset: each key given must match the call's value (see `argumentsMatch`). */
  arguments: z.record(z.string(), z.unknown()).default({}),
});
export type EvalExpectedCall = z.infer<typeof expectedCall>;

const expectation = z.strictObject({
  outcome: z.enum(evalOutcomes),
  /** Every tool call the turn makes (in any order); `[]` says none. Absent: calls are not checked. */
  calls: z.array(expectedCall).optional(),
  /** A calculation step the plan must hold (`count` for "how many"). */
  compute: z.enum(['count', 'sum', 'average', 'minimum', 'maximum', 'difference', 'ratio', 'percentage']).optional(),
  /** How the person answers each confirm_mutation: one decision for all, or one per confirmation in order. */
  confirm: z.union([decision, z.array(decision).min(1)]).optional(),
  /** Strings the answer must contain, as whole words or numbers. */
  facts: z.array(z.string().min(1)).default([]),
  /** Strings the answer must not contain. */
  absent: z.array(z.string().min(1)).default([]),
});
export type EvalExpectation = z.infer<typeof expectation>;

const turn = z
  .strictObject({
    text: z.string().min(1),
    kind: z.enum(evalTurnKinds),
    expect: expectation,
    /** The router must leave this turn unread: any answer is wrong. */
    mustBeUnread: z.boolean().default(false),
    note: z.string().optional(),
  })
  .refine((value) => !value.mustBeUnread || value.expect.outcome === 'unread', {
    message: 'a turn with mustBeUnread: true expects outcome unread',
    path: ['mustBeUnread'],
  })
  .refine((value) => value.expect.outcome !== 'unread' || (value.expect.calls ?? []).length === 0, {
    message: 'an unread turn makes no calls',
    path: ['expect', 'calls'],
  });
export type EvalTurn = z.infer<typeof turn>;

const evalCase = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a case id is lower-case letters, digits and dashes'),
  actor: z.enum(evalActorNames),
  language: z.enum(evalLanguages),
  turns: z.array(turn).min(1),
});
export type EvalCase = z.infer<typeof evalCase>;

export const evalDatasetSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().default(''),
    /** The fixed moment the dataset is written for (the data is seeded and the clock starts here). */
    now: z.iso.datetime({ offset: true }),
    cases: z.array(evalCase).min(1),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.cases.forEach((item, index) => {
      if (seen.has(item.id)) ctx.addIssue({ code: 'custom', message: `case id '${item.id}' is used twice`, path: ['cases', index, 'id'] });
      seen.add(item.id);
    });
  });
export type EvalDataset = z.infer<typeof evalDatasetSchema>;
