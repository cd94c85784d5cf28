import { z } from 'zod';
import { scriptSchema } from '../providers/index.js';

/**
 * The shape of an eval dataset: cases (one thread each, one actor), each a list of turns with what
 * the turn must come to. Expected values come from the data the dataset runs over, never from what
 * a system printed.
 */

export const evalOutcomes = ['run', 'ask', 'declined', 'unread'] as const;
export type EvalOutcome = (typeof evalOutcomes)[number];

/** What a turn exercises; used for the breakdown tables only. */
export const evalTurnKinds = ['read', 'count', 'multi', 'date', 'write', 'ask', 'decline', 'unread', 'planned'] as const;
export type EvalTurnKind = (typeof evalTurnKinds)[number];

export const evalLanguages = ['en', 'pt-BR'] as const;
export type EvalLanguage = (typeof evalLanguages)[number];

/** The data a dataset runs over: the demo shop, the large synthetic schema, or the configured app. */
export const evalFixtures = ['demo', 'large', 'app'] as const;
export type EvalFixture = (typeof evalFixtures)[number];

/** The roles of a planned turn that a case can script. */
export const evalRoles = ['planner', 'simpleExecutor', 'complexExecutor', 'synthesizer', 'fallback'] as const;
export type EvalRole = (typeof evalRoles)[number];

const decision = z.enum(['approve', 'reject']);
export type EvalDecision = z.infer<typeof decision>;

const argumentSubset = z.record(z.string(), z.unknown()).default({});

const expectedCall = z.strictObject({
  tool: z.string().min(1),
  /** A subset: each key given must match the call's value (see `argumentsMatch`). */
  arguments: argumentSubset,
});
export type EvalExpectedCall = z.infer<typeof expectedCall>;

const toolName = z.string().min(1);

const expectedResult = z.strictObject({
  tool: toolName,
  arguments: argumentSubset,
  /** The page's `total_count` (or its row count when it has none). */
  rows: z.int().nonnegative().optional(),
  /** Rows the result must hold: each a subset of one row's fields. */
  includes: z.array(z.record(z.string(), z.unknown())).default([]),
});
export type EvalExpectedResult = z.infer<typeof expectedResult>;

const expectation = z.strictObject({
  /** The router's plan for the turn. Absent: not checked (a model may answer). */
  outcome: z.enum(evalOutcomes).optional(),
  /** The turn ends with this error code (a terminal reason); absent: it must end with `done`. */
  error: z.string().min(1).optional(),
  /** Every tool call the turn makes (in any order); `[]` says none. Absent: calls are not checked. */
  calls: z.array(expectedCall).optional(),
  /** Tools the turn must call at least once, and tools it must never call. */
  requiredTools: z.array(toolName).default([]),
  forbiddenTools: z.array(toolName).default([]),
  /** The tools called, by name: exactly these in this order (`strict`), or these in order among others (`subsequence`). */
  sequence: z.strictObject({ tools: z.array(toolName).min(1), order: z.enum(['strict', 'subsequence']).default('subsequence') }).optional(),
  /** Result accuracy: calls whose results hold these rows. */
  results: z.array(expectedResult).default([]),
  /**
   * The exact result set: the answer names every value and no other value of `field` the turn's
   * results held (nor any of `others`).
   */
  resultSet: z.strictObject({ field: z.string().min(1), values: z.array(z.union([z.string(), z.number()])).min(1), others: z.array(z.union([z.string(), z.number()])).default([]) }).optional(),
  /** Answer quality, scored 1–5 by the judge model against the rubric (skipped without one). */
  quality: z.strictObject({ rubric: z.string().min(1), minScore: z.int().min(1).max(5).default(4) }).optional(),
  /** A planned turn's coverage on `done`. */
  coverage: z.strictObject({ resolved: z.int().nonnegative(), total: z.int().positive() }).optional(),
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
  .refine((value) => !value.mustBeUnread || (value.expect.calls ?? []).length === 0, {
    message: 'a turn the router must leave unread makes no calls',
    path: ['expect', 'calls'],
  });
export type EvalTurn = z.infer<typeof turn>;

const fixedResult = z.strictObject({
  tool: toolName,
  /** A subset of the call's arguments (see `argumentsMatch`); `{}` answers every call of the tool. */
  arguments: argumentSubset,
  /** What the call answers instead of running. */
  result: z.unknown().refine((value) => value !== undefined, 'give the result the call answers'),
});
export type EvalFixedResult = z.infer<typeof fixedResult>;

const evalCase = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a case id is lower-case letters, digits and dashes'),
  /** An actor of the fixture: alice, bob or anonymous on the demo; a configured actor on your app. */
  actor: z.string().min(1),
  language: z.enum(evalLanguages),
  /** 1 is the core a model must pass; higher tiers are harder. */
  tier: z.int().min(1).max(9).default(1),
  tags: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a tag is lower-case letters, digits and dashes')).default([]),
  /** `model`: the case needs a model (the run's, or this case's script); without one it is skipped. */
  needs: z.enum(['router', 'model']).default('router'),
  /** The model's completions when the run has no provider of its own (or runs `scripted`). */
  script: scriptSchema.optional(),
  /** Per-role completions of a planned turn, used the same way; an executor without a script plays the other executor's, any other role the planner's. */
  roles: z
    .partialRecord(z.enum(evalRoles), scriptSchema)
    .refine((roles) => roles.planner !== undefined, { message: 'roles needs a planner script (the other roles default to it)', path: ['planner'] })
    .optional(),
  /** Tool calls answered with a fixed result instead of running. */
  toolResults: z.array(fixedResult).default([]),
  turns: z.array(turn).min(1),
});
export type EvalCase = z.infer<typeof evalCase>;

export const evalDatasetSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a dataset name is lower-case letters, digits and dashes'),
    description: z.string().default(''),
    /** The fixed moment the dataset is written for (the data is seeded and the clock starts here). */
    now: z.iso.datetime({ offset: true }),
    fixture: z.enum(evalFixtures).default('demo'),
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
