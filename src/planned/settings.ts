import { z } from 'zod';

/**
 * The roles of a planned turn, each pinned to a provider profile: a task's routing features choose
 * its executor (a cheap model takes the simple reads); the fallback retries a failed plan, task or synthesis.
 */
export const plannedRoles = ['planner', 'simpleExecutor', 'complexExecutor', 'synthesizer', 'fallback'] as const;
export type PlannedRole = (typeof plannedRoles)[number];

/** The profile every role uses when none is named: the configuration's own `provider`, in trust group `default`. */
export const defaultProfileName = 'default';

const name = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'use letters, digits, _ and - (starting with a letter)');

/** One named model: a provider, its settings, and the trust group it belongs to. */
export const providerProfileSchema = z.strictObject({
  /** `openai`, `anthropic`, `ollama`, `gemini`, `scripted:FILE` or a module, as the `provider` setting. */
  provider: z.string().min(1),
  /** Read by the provider: model, baseUrl, apiKey, timeouts… */
  providerConfig: z.record(z.string(), z.unknown()).default({}),
  /** Profiles of one planned turn must share a trust group: data one role reads never goes to a model of another group. */
  trustGroup: name.default('default'),
});
export type ProviderProfile = z.output<typeof providerProfileSchema>;

/** Named profiles: `{ fast: { provider: 'ollama', providerConfig: { model: 'qwen3:4b' }, trustGroup: 'local' } }`. */
export const providerProfilesSchema = z.record(name, providerProfileSchema).default({});

/** Planned read orchestration: off unless enabled; every bound with its unit. */
export const plannedSettingsSchema = z
  .strictObject({
    /** Plan, execute and synthesize the read questions the router leaves unread (instead of one tool loop). */
    enabled: z.boolean().default(false),
    /** The profile of each role; a role not named uses `default` (the configuration's provider). */
    roles: z
      .strictObject(Object.fromEntries(plannedRoles.map((role) => [role, name.default(defaultProfileName)])) as Record<PlannedRole, z.ZodDefault<typeof name>>)
      .prefault({}),
    /** Root tasks a plan may hold (1–6). */
    maxRootTasks: z.int().min(1).max(6).default(6),
    /** Children a root task may hold (0–2), those of the plan and those its executor declares together. */
    maxChildrenPerTask: z.int().min(0).max(2).default(2),
    /** How deep a chain of `dependsOn` between root tasks may go (1: a root depends only on roots that depend on none). */
    maxDependencyDepth: z.int().min(1).max(5).default(1),
    /** Tasks executed at once. */
    maxConcurrentTasks: z.int().min(1).max(6).default(3),
    /** Model rounds of one planned turn, every role together. */
    maxRoundsPerTurn: z.int().min(3).max(200).default(24),
    /** Model rounds of one task's executor. */
    maxRoundsPerTask: z.int().min(1).max(50).default(6),
    /** Rows of one tool result the evidence keeps (and the synthesizer sees). */
    maxEvidenceRows: z.int().min(1).max(10_000).default(200),
    /** Deadline of planning (the planner and its fallback). Seconds. */
    planningTimeoutSeconds: z.number().positive().default(30),
    /** Deadline of executing every task. Seconds. */
    evidenceTimeoutSeconds: z.number().positive().default(90),
    /** Deadline of the synthesis (and its fallback). Seconds. */
    synthesisTimeoutSeconds: z.number().positive().default(30),
    /** Deadline of the whole planned turn. Seconds. */
    turnTimeoutSeconds: z.number().positive().default(150),
  })
  .prefault({});
export type PlannedSettings = z.output<typeof plannedSettingsSchema>;
