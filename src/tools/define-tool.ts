import { z } from 'zod';
import { PlumbError } from '../core/index.js';
import type { Actor, JsonObject } from '../core/index.js';
import type { ChatApp } from './chat-app.js';
import type { ToolSettings } from './settings.js';

export const toolEffects = ['read', 'write', 'irreversible'] as const;
export type ToolEffect = (typeof toolEffects)[number];

const toolNamePattern = /^[a-z][a-z0-9_]{0,63}$/;

/** What a handler receives besides its arguments. */
export interface ToolContext {
  readonly actor: Actor;
  /** Aborts on the caller's signal and on the tool's timeout. */
  readonly signal: AbortSignal;
  readonly app: ChatApp | undefined;
  readonly settings: ToolSettings;
  readonly threadId: string | undefined;
  /** The dispatcher's clock. */
  readonly now: () => Date;
}

/** A refusal from a tool's own authorization step. */
export interface ToolDenial {
  readonly code: 'forbidden' | 'not_exposed' | 'not_allowed' | 'authentication_required';
  readonly message: string;
}

export type ToolInputSchema = z.ZodObject;

export interface ToolSpec<S extends ToolInputSchema> {
  readonly name: string;
  /** What the tool does, for a model: one or two sentences. */
  readonly description: string;
  readonly input: S;
  readonly effect: ToolEffect;
  /** Default: true for `write` and `irreversible`, false for `read`. */
  readonly confirm?: boolean | ((args: z.output<S>, actor: Actor) => boolean);
  /** Aborts the handler after this many milliseconds (`timeout`). Default: no bound. */
  readonly timeoutMs?: number;
  /** Exposure and allow-list checks, run after validation and before the confirmation gate. */
  readonly authorize?: (args: z.output<S>, ctx: ToolContext) => ToolDenial | undefined;
  /**
   * Who may call the tool at all, whatever the arguments (a role, a signed-in user): checked with
   * `authorize`, and before a plan asks the person anything about the call's arguments.
   */
  readonly permits?: (actor: Actor) => ToolDenial | undefined;
  /** Returns a JSON value. Throw `toolError(code, message)` for a failure the caller may see. */
  readonly handler: (args: z.output<S>, ctx: ToolContext) => unknown;
}

/** A defined tool, its argument types erased so that tools of any shape share one registry. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly input: ToolInputSchema;
  readonly effect: ToolEffect;
  readonly timeoutMs: number | undefined;
  needsConfirmation(args: unknown, actor: Actor): boolean;
  authorize(args: unknown, ctx: ToolContext): ToolDenial | undefined;
  /** The actor-only gate (see `ToolSpec.permits`); absent: every actor the dispatcher admits. */
  permits?(actor: Actor): ToolDenial | undefined;
  handler(args: unknown, ctx: ToolContext): unknown;
}

/**
 * Declares a tool. Misuse throws `invalid_tool_definition` at once. The input is an object schema;
 * unknown root keys are rejected (the rendered schema says `additionalProperties: false`).
 */
export function defineTool<S extends ToolInputSchema>(spec: ToolSpec<S>): Tool {
  const fail = (why: string): never => {
    throw new PlumbError('invalid_tool_definition', `Tool '${String(spec.name)}': ${why}`);
  };
  if (typeof spec.name !== 'string' || !toolNamePattern.test(spec.name)) {
    fail('the name must match ^[a-z][a-z0-9_]{0,63}$ (lowercase letters, digits, underscores).');
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') fail('give it a description for the model.');
  if (!(spec.input instanceof z.ZodObject)) fail('input must be a zod object schema (z.object({...})).');
  if (!toolEffects.includes(spec.effect)) fail(`effect must be one of ${toolEffects.join(', ')}.`);
  if (spec.timeoutMs !== undefined && !(Number.isFinite(spec.timeoutMs) && spec.timeoutMs > 0)) {
    fail('timeoutMs must be a positive number of milliseconds.');
  }
  if (typeof spec.handler !== 'function') fail('handler must be a function.');
  const input = (spec.input._zod.def.catchall === undefined ? spec.input.strict() : spec.input) as ToolInputSchema;
  const confirm = spec.confirm ?? spec.effect !== 'read';
  const authorize = spec.authorize;
  const handler = spec.handler;
  return Object.freeze({
    name: spec.name,
    description: spec.description.trim(),
    input,
    effect: spec.effect,
    timeoutMs: spec.timeoutMs,
    needsConfirmation:
      typeof confirm === 'function'
        ? (args: unknown, actor: Actor) => confirm(args as z.output<S>, actor)
        : () => confirm,
    authorize: authorize === undefined ? () => undefined : (args: unknown, ctx: ToolContext) => authorize(args as z.output<S>, ctx),
    ...(spec.permits === undefined ? {} : { permits: spec.permits }),
    handler: (args: unknown, ctx: ToolContext) => handler(args as z.output<S>, ctx),
  });
}

/** The codes a handler may answer with through `toolError`. */
export type ToolVisibleCode =
  | 'invalid_arguments'
  | 'not_exposed'
  | 'forbidden'
  | 'not_allowed'
  | 'authentication_required'
  | 'timeout'
  | 'query_timeout'
  | 'tool_failed'
  | 'result_not_found';

/**
 * A failure meant for the caller: its code and message reach the model or client as they are.
 * Anything else a handler throws becomes a generic `tool_failed` and goes to the error hook.
 */
export class ToolError extends PlumbError {
  override readonly code: ToolVisibleCode;
  constructor(code: ToolVisibleCode, message: string, details?: JsonObject) {
    super(code, message, details === undefined ? {} : { details });
    this.name = 'ToolError';
    this.code = code;
  }
}

export function toolError(code: ToolVisibleCode, message: string, details?: JsonObject): ToolError {
  return new ToolError(code, message, details);
}
