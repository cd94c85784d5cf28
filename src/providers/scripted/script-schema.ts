import { z } from 'zod';

const failureCodes = [
  'provider_auth',
  'provider_rate_limited',
  'provider_unavailable',
  'provider_context_too_long',
  'provider_invalid_request',
  'provider_stream_cut',
  'provider_timeout',
  'provider_network',
  'provider_bad_response',
] as const;

const scriptedToolCall = z.strictObject({
  /** Defaults to `call_<round>_<index>` (1-based round, 0-based index). */
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  /** An object (sent as its JSON text) or the raw JSON text, kept verbatim (may be invalid on purpose). */
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default({}),
});

const scriptedWhen = z.strictObject({
  /** Some trailing tool result's JSON text contains this. */
  toolResultContains: z.string().optional(),
  /** Some trailing tool result came from this tool. */
  toolName: z.string().optional(),
  /** `true`: some trailing tool result is an error; `false`: none is; a string: some error has that code. */
  error: z.union([z.boolean(), z.string()]).optional(),
  /** The last user message contains this. */
  userTextContains: z.string().optional(),
  /** Some message in the request (any role, tool results as JSON) contains this. */
  anyMessageContains: z.string().optional(),
});

const scriptedError = z
  .strictObject({
    /** An HTTP status, classified like a real provider answer (401 → provider_auth, 429, 5xx, …). */
    status: z.number().int().min(100).max(599).optional(),
    /** Or a failure code directly (e.g. provider_network, provider_timeout). */
    code: z.enum(failureCodes).optional(),
    message: z.string().default('Scripted provider failure.'),
    retryAfterSeconds: z.number().nonnegative().optional(),
  })
  .refine((value) => value.status !== undefined || value.code !== undefined, { message: 'error needs a status or a code' });

const scriptedCompletion = z.strictObject({
  /** A label for messages and tests. */
  name: z.string().optional(),
  when: scriptedWhen.optional(),
  /** Keep this completion available after use (a standing answer for a condition). */
  repeat: z.boolean().default(false),
  text: z.union([z.string(), z.array(z.string())]).optional(),
  toolCalls: z.array(scriptedToolCall).default([]),
  usage: z.strictObject({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() }).optional(),
  finishReason: z.enum(['stop', 'tool_calls', 'length', 'content_filter', 'error', 'other']).optional(),
  /** Wait before the first event (honours the AbortSignal). */
  delayMs: z.number().nonnegative().default(0),
  /** Wait before each later event (text chunk or tool call). */
  chunkDelayMs: z.number().nonnegative().default(0),
  /** Fail before any event, as the provider would. */
  error: scriptedError.optional(),
  /** Stop after this many text chunks and tool calls, without usage or done: provider_stream_cut. */
  cutAfterChunks: z.number().int().nonnegative().optional(),
});

export const scriptSchema = z.strictObject({
  /** The model name reported by the provider (default `scripted`). */
  model: z.string().min(1).default('scripted'),
  /** Start over when every completion is used (benchmarks replay one script many times). */
  loop: z.boolean().default(false),
  completions: z.array(scriptedCompletion).min(1),
});

/** A script as written (JSON or YAML). */
export type ScriptInput = z.input<typeof scriptSchema>;
/** A script after validation and defaults. */
export type Script = z.output<typeof scriptSchema>;
export type ScriptedCompletion = z.output<typeof scriptedCompletion>;
export type ScriptedWhen = z.output<typeof scriptedWhen>;
