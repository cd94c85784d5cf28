import { z } from 'zod';
import { PlumbError } from '../core/index.js';

/** The engine settings, every default and unit in one place. Unknown keys are errors. */
export const engineSettingsSchema = z.strictObject({
  /** Host instructions appended after the built-in grounding rules. */
  systemPrompt: z.string().default(''),
  /** Recent message items kept verbatim in the model context. */
  maxRecentMessages: z.int().positive().default(20),
  /** Message items after which the older prefix is summarized by the provider. */
  summarizeAfter: z.int().nonnegative().default(10),
  /** Read tool calls executed in one turn. */
  maxToolCallsPerMessage: z.int().nonnegative().default(12),
  /** Failed tool calls tolerated in one turn; one more fails it with tool_retry_limit. */
  maxRetriesPerMessage: z.int().nonnegative().default(3),
  /** Write executions in one turn, a resumed confirmation included; 0 forbids writes. */
  maxMutationsPerMessage: z.int().nonnegative().default(8),
  /** Provider rounds in one turn (summaries and recovery included); null derives it. */
  maxTotalRoundsPerMessage: z.int().positive().nullable().default(null),
  /** Regenerations allowed after invalid tool arguments, per correction episode. */
  maxArgumentCorrections: z.int().nonnegative().default(2),
  /** One corrective round when the model answers without tools or returns nothing after tools. */
  recoverMissingToolCalls: z.boolean().default(false),
  /** Wait for the first provider event. Seconds (fractions allowed). */
  timeoutSeconds: z.number().positive().default(60),
  /** Wait between provider events. Seconds (fractions allowed). */
  streamTimeoutSeconds: z.number().positive().default(30),
  /** Passed to the provider; null leaves it to the provider. Tokens. */
  maxOutputTokens: z.int().positive().nullable().default(null),
  retry: z
    .strictObject({
      /** Further attempts after a retryable provider failure. */
      maxAttempts: z.int().nonnegative().default(4),
      /** Of which at most this many after timeouts. */
      maxTimeoutAttempts: z.int().nonnegative().default(3),
      /** Backoff before attempt 1, 2, 3, 4…; the last repeats. Milliseconds. */
      backoffMs: z.array(z.number().nonnegative()).min(1).default([2000, 4000, 8000, 10_000]),
      /** Each delay is scaled by a random factor in [1 - jitter, 1 + jitter]. */
      jitter: z.number().min(0).max(1).default(0.2),
      /** No retry starts later than this after the first failure. Milliseconds. */
      windowMs: z.number().positive().default(300_000),
      /** Largest Retry-After honoured. Milliseconds. */
      maxRetryAfterMs: z.number().nonnegative().default(60_000),
    })
    .prefault({}),
  /** Graceful cancel: how long running tools may still finish. Milliseconds. */
  gracefulCancelMs: z.number().nonnegative().default(5000),
  /** Exposed managers listed one per line in the system prompt; above it, only the count. */
  maxSchemaManagersInPrompt: z.int().nonnegative().default(30),
  /** Turns running their steps at once in this engine; more wait, accepted, in order of arrival. null: no limit. */
  maxConcurrentTurns: z.int().positive().nullable().default(64),
  /** Accepted turns waiting for a slot; past it a new message gets server_busy and nothing is written. */
  maxWaitingTurns: z.int().nonnegative().default(10_000),
  /** Recent items of the threads run last kept in memory, so a thread's next turn need not read them back; 0: none. */
  threadTailCacheItems: z.int().nonnegative().default(25_000),
  /** Events buffered for a slow reader before the turn waits. */
  eventBufferSize: z.int().positive().default(256),
  /** On start, fail turns left `running` by a previous process (interrupted / effect_outcome_unknown). */
  recoverOnStart: z.boolean().default(true),
  /** Router-first turns when the engine has a reader; `off`: every turn goes to the model loop. */
  router: z.enum(['on', 'off']).default('on'),
  /** Who writes the answer of a router-run turn: the deterministic renderer, or one provider round without tools. */
  answerWith: z.enum(['router', 'model']).default('router'),
  /** A deferred unread turn: the model loop or a refusal; null: `model` with a provider, `refuse` without. */
  onUnread: z.enum(['model', 'refuse']).nullable().default(null),
  /** Ask the person to rephrase an unread turn first; null: false with a provider, the rulebook's without. */
  askToRephrase: z.boolean().nullable().default(null),
  /**
   * Check-history entries a thread's router session carries before a new session starts (at the next
   * turn without an open question): every check re-verifies the whole hash chain, so this bounds its cost.
   */
  maxRouterSessionHistory: z.int().positive().default(100),
});

export type EngineSettingsInput = z.input<typeof engineSettingsSchema>;
export type EngineSettings = Readonly<z.output<typeof engineSettingsSchema>> & { readonly maxRounds: number };

/** Parses, defaults, derives the round cap and freezes; throws `invalid_engine_settings` naming each bad key. */
export function parseEngineSettings(input: EngineSettingsInput | undefined = {}): EngineSettings {
  const result = engineSettingsSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.length === 0 ? '(settings)' : issue.path.map(String).join('.')}: ${issue.message}`);
    throw new PlumbError('invalid_engine_settings', `Invalid engine settings. ${problems.join('; ')}.`, { details: { problems } });
  }
  const value = result.data;
  return Object.freeze({
    ...value,
    retry: Object.freeze({ ...value.retry, backoffMs: Object.freeze([...value.retry.backoffMs]) }),
    maxRounds: value.maxTotalRoundsPerMessage ?? derivedRoundCap(value),
  }) as EngineSettings;
}

/**
 * Enough rounds that every other bound can be reached: one round per read call, per failed call,
 * per write and per argument correction, plus a summary and a final answer.
 */
function derivedRoundCap(value: z.output<typeof engineSettingsSchema>): number {
  return value.maxToolCallsPerMessage + value.maxRetriesPerMessage + value.maxMutationsPerMessage + value.maxArgumentCorrections + 2;
}
