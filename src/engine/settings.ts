import { z } from 'zod';
import { PlumbError } from '../core/index.js';
import { compactionLimit } from './context/index.js';
import { isTimeZone } from './shared/index.js';

/** The engine settings, every default and unit in one place. Unknown keys are errors. */
export const engineSettingsSchema = z.strictObject({
  /** Host instructions appended after the built-in grounding rules. */
  systemPrompt: z.string().default(''),
  /** The model's context window: what one request, input and output together, may hold. Tokens. */
  contextWindowTokens: z.int().min(1024).default(128_000),
  /** Share of the window at which the older part of the history is compacted into the thread summary. */
  compactionThreshold: z.number().gt(0).max(1).default(0.9),
  /** The size a compaction aims for (summary plus the verbatim recent part); null: min(50,000, 40% of the window, 80% of where compaction starts). Tokens. */
  compactionTargetTokens: z.int().positive().nullable().default(null),
  /** Ceiling on a summary (its request's output budget, within the model's known limits); a longer one is not installed. null: min(20,000, 40% of the target). Tokens. */
  maxSummaryTokens: z.int().positive().nullable().default(null),
  /**
   * Read (non-mutation) tool calls executed in one turn, as the reference's max_retries_per_message
   * counts them; one more fails the turn with tool_retry_limit. A duplicate answered from an earlier result is not counted.
   */
  maxRetriesPerMessage: z.int().nonnegative().default(12),
  /** Failed tool calls tolerated in one turn; one more fails it with tool_failure_limit. */
  maxFailedCallsPerMessage: z.int().nonnegative().default(3),
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
  /** Total time of one streamed provider attempt, however steadily it trickles; past it: provider_timeout (retried). Seconds. */
  attemptTimeoutSeconds: z.number().positive().default(120),
  /** One run of a turn (from its start or resumption to its end or pause); past it: deadline_exceeded. null: none. Seconds. */
  turnDeadlineSeconds: z.number().positive().nullable().default(300),
  /** An explicit ceiling on each request's output, never reduced; null: fitted from modelMaxOutputTokens, else left to the provider. Tokens. */
  maxOutputTokens: z.int().positive().nullable().default(null),
  /** The model's own output capability: with it (and no maxOutputTokens) each request asks what the window leaves, up to this. Tokens. */
  modelMaxOutputTokens: z.int().positive().nullable().default(null),
  /** Largest tool result the journal keeps whole for `read_result`; a larger one is cut to this first. Bytes (UTF-8 JSON). */
  maxStoredResultBytes: z.int().min(1024).default(4 * 1024 * 1024),
  /** What a million tokens cost, for the cost in each turn's diagnostics; null: no cost is reported. In your currency. */
  costPerMillionTokens: z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() }).nullable().default(null),
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
  /** A `phase` event in a turn's stream on each change of its run's phase; off, the stream is as before (views carry `phase` either way). */
  phaseEvents: z.boolean().default(false),
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
  /**
   * Messages a thread's queue holds while a turn runs or waits on a person (each runs after it, in
   * order); one more is refused with turn_in_progress. 0: no queue (a busy thread refuses at once).
   */
  maxQueuedMessages: z.int().nonnegative().max(1000).default(10),
  /** Offer the model the built-in `ask_user` tool, through which it pauses the turn with a question to the person. */
  askUserTool: z.boolean().default(false),
  /** Events buffered for a slow reader before the turn waits. */
  eventBufferSize: z.int().positive().default(256),
  /**
   * On start and at every lease heartbeat, end the turns whose engine's lease lapsed (a process that
   * died): `interrupted`, or `effect_outcome_unknown` when a write was in flight. A live engine's turns are never touched.
   */
  recoverOnStart: z.boolean().default(true),
  /**
   * The engine's lease in the journal: renewed every third of it; a turn whose engine missed its
   * renewal this long is ended by any engine's recovery. Longer: a crashed process's turns stay
   * busy longer; shorter: a process stalled that long (a long GC pause) loses its turns. Seconds.
   */
  leaseSeconds: z.number().min(0.3).max(3600).default(15),
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
  /** The host's IANA time zone: the router's `now` carries its offset, so "today" and "tomorrow" are the host's days. A request's `timeZone` overrides it. */
  timeZone: z.string().refine(isTimeZone, { message: "Expected an IANA time zone name such as 'Europe/Lisbon' or 'UTC'" }).default('UTC'),
});

export type EngineSettingsInput = z.input<typeof engineSettingsSchema>;
export type EngineSettings = Readonly<z.output<typeof engineSettingsSchema>> & {
  readonly maxRounds: number;
  /** `compactionTargetTokens`, derived when null. */
  readonly compactionTarget: number;
  /** `maxSummaryTokens`, derived when null. */
  readonly summaryCeiling: number;
};

/** Parses, defaults, derives the round cap and the compaction sizes, and freezes; throws `invalid_engine_settings` naming each bad key. */
export function parseEngineSettings(input: EngineSettingsInput | undefined = {}): EngineSettings {
  const result = engineSettingsSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.length === 0 ? '(settings)' : issue.path.map(String).join('.')}: ${issue.message}`);
    throw new PlumbError('invalid_engine_settings', `Invalid engine settings. ${problems.join('; ')}.`, { details: { problems } });
  }
  const value = result.data;
  const window = value.contextWindowTokens;
  const compactionTarget = value.compactionTargetTokens ?? Math.min(50_000, Math.floor(window * 0.4), Math.floor(compactionLimit(value) * 0.8));
  const summaryCeiling = value.maxSummaryTokens ?? Math.min(20_000, Math.floor(compactionTarget * 0.4));
  const problems: string[] = [];
  if (value.maxOutputTokens !== null && value.maxOutputTokens >= window) problems.push(`maxOutputTokens: must be less than contextWindowTokens (${window})`);
  if (compactionTarget >= compactionLimit(value)) problems.push('compactionTargetTokens: must be less than where compaction starts (compactionThreshold × contextWindowTokens, less maxOutputTokens)');
  if (summaryCeiling >= compactionTarget) problems.push('maxSummaryTokens: must be less than the compaction target');
  if (problems.length > 0) throw new PlumbError('invalid_engine_settings', `Invalid engine settings. ${problems.join('; ')}.`, { details: { problems } });
  return Object.freeze({
    ...value,
    retry: Object.freeze({ ...value.retry, backoffMs: Object.freeze([...value.retry.backoffMs]) }),
    maxRounds: value.maxTotalRoundsPerMessage ?? derivedRoundCap(value),
    compactionTarget,
    summaryCeiling,
  }) as EngineSettings;
}

/**
 * Enough rounds that every other bound can be reached: one round per read call (`maxRetriesPerMessage`),
 * per failed call, per write and per argument correction, plus a summary and a final answer. The
 * reference derives max_retries + max_mutations + 2; Plumb's failed-call and correction bounds add theirs.
 */
function derivedRoundCap(value: z.output<typeof engineSettingsSchema>): number {
  return value.maxRetriesPerMessage + value.maxFailedCallsPerMessage + value.maxMutationsPerMessage + value.maxArgumentCorrections + 2;
}
