import { nanoid } from 'nanoid';
import { PlumbError, canonicalHash, isPlumbError } from '../core/index.js';
import type { Actor, JsonObject, JsonValue } from '../core/index.js';
import { boundResult } from './bound-result.js';
import type { ChatApp } from './chat-app.js';
import type { ConfirmationStore, PendingConfirmation } from './confirmation-store.js';
import { sameActor } from './confirmation-store.js';
import { ToolError } from './define-tool.js';
import type { Tool, ToolContext, ToolEffect } from './define-tool.js';
import { createMemoryConfirmationStore } from './memory-confirmation-store.js';
import { renderTools } from './render-tool.js';
import type { ToolDefinition } from './render-tool.js';
import { parseToolSettings } from './settings.js';
import type { ToolSettings, ToolSettingsInput } from './settings.js';
import { errorResult } from './tool-result.js';
import type { ConfirmationRequiredResult, ToolResult } from './tool-result.js';
import { describeIssues } from './describe-issues.js';
import { actorRefusal } from './actor-gate.js';

/** What the error hook learns: the internal error never reaches a model or a client. */
export interface ToolErrorReport {
  readonly tool: string;
  readonly phase: 'handler' | 'confirmation_store';
  readonly actor: Actor;
  readonly threadId: string | undefined;
}

export interface DispatcherOptions {
  readonly tools: readonly Tool[];
  readonly app?: ChatApp | undefined;
  /** Parsed with `parseToolSettings` (defaults applied); pass parsed settings or their input. */
  readonly settings?: ToolSettings | ToolSettingsInput | undefined;
  /** Default: a fresh memory store. */
  readonly confirmations?: ConfirmationStore | undefined;
  readonly clock?: (() => Date) | undefined;
  readonly ids?: (() => string) | undefined;
  readonly onError?: ((error: unknown, report: ToolErrorReport) => void) | undefined;
  /** Wraps every dispatched call and every confirmed execution (tracing, metrics). */
  readonly instrument?: DispatchInstrument | undefined;
}

/** What an instrument learns of a call; the arguments as the caller gave them (a confirmed call: as stored). */
export interface InstrumentedCall {
  /** `dispatch`: a call as asked for; `confirm`: the execution of an approved held call. */
  readonly phase: 'dispatch' | 'confirm';
  readonly tool: string;
  /** Undefined for an unknown tool. */
  readonly effect: ToolEffect | undefined;
  readonly arguments: unknown;
  readonly actor: Actor;
  readonly threadId: string | undefined;
}

/**
 * Runs around a call: it calls `run` once and answers its result. It observes, never decides: once
 * `run` has answered, that result is the call's whatever the instrument returns or throws; an
 * instrument that throws before running it fails the call closed as `tool_failed`.
 */
export type DispatchInstrument = (call: InstrumentedCall, run: () => Promise<ToolResult>) => Promise<ToolResult>;

/** One call as a model, the router or a client asks for it. */
export interface ToolCall {
  readonly name: string;
  /** A JSON object, or its JSON text. Empty text and `undefined` mean `{}`. */
  readonly arguments?: string | object | undefined;
}

export interface DispatchContext {
  readonly actor: Actor;
  readonly signal?: AbortSignal | undefined;
  readonly threadId?: string | undefined;
  /**
   * False when the caller cannot ask a person (a plain HTTP request): a call that needs
   * confirmation then answers `confirmation_required` as an error. Default true.
   */
  readonly canConfirm?: boolean | undefined;
  /**
   * This call's result bound instead of `maxResultBytes`: the engine takes a model's results up to
   * its journal's ceiling and gives the model a bounded part of them itself. Bytes.
   */
  readonly maxResultBytes?: number | undefined;
  /**
   * Every write (any effect but `read`) is held for a person's confirmation, whatever its tool's
   * `confirm` says: the engine's run that regenerates an answer never re-runs a change silently.
   */
  readonly confirmWrites?: boolean | undefined;
}

export interface ConfirmOptions {
  readonly actor: Actor;
  readonly confirmed: boolean;
  readonly signal?: AbortSignal | undefined;
  /** When given, must equal the stored arguments (canonically) or the answer is `confirmation_invalid`. */
  readonly arguments?: unknown;
}

export interface Dispatcher {
  readonly tools: readonly Tool[];
  readonly settings: ToolSettings;
  readonly confirmations: ConfirmationStore;
  /** The tool definitions for a model, rendered once, in registration order. */
  definitions(): readonly ToolDefinition[];
  tool(name: string): Tool | undefined;
  dispatch(call: ToolCall, ctx: DispatchContext): Promise<ToolResult>;
  /**
   * The refusal any call of this tool by this actor meets, whatever its arguments (an unknown tool,
   * a write by an anonymous visitor, the tool's `permits`); undefined when it may be made. Lets a
   * caller refuse a write before asking the person anything about it.
   */
  precheck(name: string, actor: Actor): ToolResult | undefined;
  /** Approves (runs once, with the stored arguments) or rejects a pending confirmation. */
  confirm(confirmationId: string, options: ConfirmOptions): Promise<ToolResult>;
  /** Resolves lapsed pending confirmations as `confirmation_timed_out` and returns them. */
  expirePending(): Promise<readonly PendingConfirmation[]>;
}

type Parsed = { readonly ok: true; readonly args: JsonObject } | { readonly ok: false; readonly message: string };

function parseArguments(raw: unknown): Parsed {
  let value: unknown = raw;
  if (raw === undefined || raw === '') return { ok: true, args: {} };
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, message: `Arguments are not valid JSON (${error instanceof Error ? error.message : 'parse error'}). Send one JSON object.` };
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: `Arguments must be a JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.` };
  }
  return { ok: true, args: value as JsonObject };
}

const timeoutMarker = Symbol('timeout');

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
const abortMarker = Symbol('aborted');

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The one path to every tool. Order, failing closed: known tool → parse → validate → authorize
 * → confirmation gate → execute (timeout, signal) → bound → result. Every failure is a result.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const settings = parseToolSettings(options.settings);
  const app = options.app;
  const store = options.confirmations ?? createMemoryConfirmationStore();
  const clock = options.clock ?? (() => new Date());
  const ids = options.ids ?? (() => nanoid());
  const onError = options.onError;
  const byName = new Map<string, Tool>();
  for (const tool of options.tools) {
    if (byName.has(tool.name)) {
      throw new PlumbError('duplicate_tool', `Two tools are named '${tool.name}'. Tool names must be unique in one dispatcher.`);
    }
    byName.set(tool.name, tool);
  }
  const tools = Object.freeze([...options.tools]);
  const idle = new AbortController().signal;
  let rendered: readonly ToolDefinition[] | undefined;

  const report = (error: unknown, info: ToolErrorReport): void => {
    if (onError === undefined) return;
    try {
      onError(error, info);
    } catch {
      // An error hook that throws must not turn a coded result into a crash.
    }
  };

  const failed = (toolName: string): ToolResult =>
    errorResult('tool_failed', `'${toolName}' failed on the server. The failure was reported; try again later or another way.`);

  const contextFor = (actor: Actor, signal: AbortSignal, threadId: string | undefined): ToolContext => ({
    actor,
    signal,
    app,
    settings,
    threadId,
    now: clock,
  });

  /** Validation and authorization shared by dispatch and confirm; a string result is an error. */
  const admit = (tool: Tool, args: JsonObject, ctx: ToolContext): { ok: true; value: unknown } | { ok: false; result: ToolResult } => {
    // Who may call the tool at all comes first: an actor who may not make the call learns nothing about its arguments.
    const refused = actorRefusal(tool, ctx.actor);
    if (refused !== undefined) return { ok: false, result: refused };
    const checked = tool.input.safeParse(args);
    if (!checked.success) {
      const described = describeIssues(checked.error.issues);
      return {
        ok: false,
        result: errorResult('invalid_arguments', `Invalid arguments for '${tool.name}': ${described.summary}`, {
          issues: described.issues,
        }),
      };
    }
    const denial = tool.authorize(checked.data, ctx);
    if (denial !== undefined) return { ok: false, result: errorResult(denial.code, denial.message) };
    return { ok: true, value: checked.data };
  };

  const execute = async (tool: Tool, value: unknown, ctx: ToolContext, callerSignal: AbortSignal | undefined, maxBytes = settings.maxResultBytes): Promise<ToolResult> => {
    if (callerSignal?.aborted === true) return errorResult('aborted', `The call to '${tool.name}' was aborted before it ran.`);
    const timeoutMs = tool.timeoutMs;
    let controller: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let fail: ((reason: symbol) => void) | undefined;
    const stop = new Promise<never>((_resolve, reject) => {
      fail = reject;
    });
    const onCallerAbort = (): void => {
      controller?.abort(callerSignal?.reason);
      fail?.(abortMarker);
    };
    let runCtx = ctx;
    if (timeoutMs !== undefined) {
      controller = new AbortController();
      runCtx = { ...ctx, signal: controller.signal };
      timer = setTimeout(() => {
        controller?.abort(new PlumbError('timeout', `Tool '${tool.name}' timed out after ${timeoutMs} ms.`));
        fail?.(timeoutMarker);
      }, timeoutMs);
    }
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const pending = tool.handler(value, runCtx);
      const outcome = isPromiseLike(pending) ? await Promise.race([pending, stop]) : pending;
      return boundResult(outcome, maxBytes).value;
    } catch (error) {
      if (error === timeoutMarker) {
        return errorResult('timeout', `'${tool.name}' did not finish within ${timeoutMs} ms and was aborted. Narrow the request and try again.`, { stage: 'tool', elapsed_ms: timeoutMs ?? 0 });
      }
      if (error === abortMarker || isAborted(callerSignal)) {
        return errorResult('aborted', `The call to '${tool.name}' was aborted by the caller.`);
      }
      if (error instanceof ToolError) {
        return errorResult(error.code, error.message, error.details as JsonObject | undefined);
      }
      report(error, { tool: tool.name, phase: 'handler', actor: ctx.actor, threadId: ctx.threadId });
      // A host's failing permission: the caller learns it was one (never its detail, which is reported).
      if (isPlumbError(error) && error.code === 'permission_error') return errorResult('permission_error', error.message);
      return failed(tool.name);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  };

  const hold = async (tool: Tool, args: JsonObject, ctx: ToolContext, canConfirm: boolean): Promise<ToolResult> => {
    if (!canConfirm) {
      return errorResult(
        'confirmation_required',
        `'${tool.name}' needs a person to confirm it, and this caller cannot ask for confirmation. Use a transport that can (SSE, WebSocket).`,
      );
    }
    const now = clock();
    const record: PendingConfirmation = {
      id: ids(),
      tool: tool.name,
      arguments: args,
      argumentsHash: canonicalHash(args),
      actor: ctx.actor,
      ...(ctx.threadId === undefined ? {} : { threadId: ctx.threadId }),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + settings.confirmTimeoutSeconds * 1000).toISOString(),
      state: 'pending',
    };
    try {
      await store.create(record);
    } catch (error) {
      report(error, { tool: tool.name, phase: 'confirmation_store', actor: ctx.actor, threadId: ctx.threadId });
      return errorResult('tool_failed', `'${tool.name}' could not be held for confirmation. The failure was reported; try again later.`);
    }
    const result: ConfirmationRequiredResult = {
      status: 'confirmation_required',
      confirmation_id: record.id,
      tool: tool.name,
      arguments: args,
      expires_at: record.expiresAt,
    };
    return result;
  };

  const instrument = options.instrument;
  const instrumented = async (call: InstrumentedCall, run: () => Promise<ToolResult>): Promise<ToolResult> => {
    if (instrument === undefined) return run();
    // The call's own result wins over whatever the instrument returns or throws: it observes, never decides.
    let ran: { readonly result: ToolResult } | undefined;
    const once = async (): Promise<ToolResult> => (ran ??= { result: await run() }).result;
    try {
      const answered = await instrument(call, once);
      return ran === undefined ? answered : ran.result;
    } catch (error) {
      report(error, { tool: call.tool, phase: 'handler', actor: call.actor, threadId: call.threadId });
      return ran?.result ?? failed(call.tool);
    }
  };

  const dispatch = (call: ToolCall, dctx: DispatchContext): Promise<ToolResult> => {
    if (instrument === undefined) return dispatchCall(call, dctx);
    const name = typeof call?.name === 'string' ? call.name : '';
    return instrumented({ phase: 'dispatch', tool: name, effect: byName.get(name)?.effect, arguments: call?.arguments, actor: dctx.actor, threadId: dctx.threadId }, () => dispatchCall(call, dctx));
  };

  const dispatchCall = async (call: ToolCall, dctx: DispatchContext): Promise<ToolResult> => {
    const name = typeof call?.name === 'string' ? call.name : '';
    const tool = byName.get(name);
    if (tool === undefined) {
      return errorResult('unknown_tool', `No tool named '${name.slice(0, 80)}'. Tools: ${[...byName.keys()].join(', ') || '(none)'}.`);
    }
    const parsed = parseArguments(call.arguments);
    if (!parsed.ok) return errorResult('invalid_arguments', parsed.message);
    const ctx = contextFor(dctx.actor, dctx.signal ?? idle, dctx.threadId);
    let needsConfirmation: boolean;
    let value: unknown;
    try {
      const admitted = admit(tool, parsed.args, ctx);
      if (!admitted.ok) return admitted.result;
      value = admitted.value;
      needsConfirmation = (dctx.confirmWrites === true && tool.effect !== 'read') || tool.needsConfirmation(value, dctx.actor);
    } catch (error) {
      // A schema refinement, an authorize or a confirm callback threw: fail closed, report it.
      report(error, { tool: tool.name, phase: 'handler', actor: dctx.actor, threadId: dctx.threadId });
      return failed(tool.name);
    }
    if (needsConfirmation) {
      // Store a JSON copy: the caller's object must not change what was confirmed.
      let copy: JsonObject;
      try {
        copy = JSON.parse(JSON.stringify(parsed.args)) as JsonObject;
      } catch {
        return errorResult('invalid_arguments', `Arguments for '${tool.name}' must be plain JSON values to be held for confirmation.`);
      }
      return hold(tool, copy, ctx, dctx.canConfirm ?? true);
    }
    return execute(tool, value, ctx, dctx.signal, dctx.maxResultBytes);
  };

  const invalid = (why: string): ToolResult => errorResult('confirmation_invalid', `${why} Ask for the change again to get a new confirmation.`);

  const confirm = async (confirmationId: string, options: ConfirmOptions): Promise<ToolResult> => {
    if (typeof confirmationId !== 'string' || confirmationId === '') return invalid('The confirmation id is missing.');
    const actor = options.actor;
    const now = clock();
    let claimed: PendingConfirmation;
    try {
      if (options.arguments !== undefined) {
        const existing = await store.get(confirmationId);
        if (existing !== undefined && sameActor(existing.actor, actor)) {
          let hash: string | undefined;
          try {
            hash = canonicalHash(options.arguments);
          } catch {
            hash = undefined;
          }
          if (hash !== existing.argumentsHash) return invalid('The arguments differ from the ones held for confirmation.');
        }
      }
      const outcome = await store.claim(confirmationId, actor, now);
      if (!outcome.ok) {
        if (outcome.reason === 'expired') {
          return errorResult('confirmation_expired', `The confirmation lapsed before it was approved. Ask for the change again.`);
        }
        return invalid(outcome.reason === 'used' ? 'The confirmation was already used.' : 'No pending confirmation has that id for you.');
      }
      claimed = outcome.record;
    } catch (error) {
      report(error, { tool: '(confirm)', phase: 'confirmation_store', actor, threadId: undefined });
      return errorResult('tool_failed', 'The confirmation could not be read. The failure was reported; try again later.');
    }
    const settle = async (resolution: Parameters<ConfirmationStore['resolve']>[1]): Promise<void> => {
      try {
        await store.resolve(claimed.id, resolution, clock());
      } catch (error) {
        report(error, { tool: claimed.tool, phase: 'confirmation_store', actor, threadId: claimed.threadId });
      }
    };
    if (!options.confirmed) {
      await settle({ status: 'cancelled', reason: 'user_rejected' });
      return { status: 'cancelled', reason: 'user_rejected' };
    }
    const tool = byName.get(claimed.tool);
    let hash: string | undefined;
    try {
      hash = canonicalHash(claimed.arguments);
    } catch {
      hash = undefined;
    }
    if (tool === undefined || hash !== claimed.argumentsHash) {
      const result = invalid('The held call no longer matches a tool or its arguments.');
      await settle({ status: 'failed', error: { code: 'confirmation_invalid', message: 'held call does not match' } });
      return result;
    }
    const ctx = contextFor(actor, options.signal ?? idle, claimed.threadId);
    let admitted: ReturnType<typeof admit>;
    try {
      admitted = admit(tool, claimed.arguments, ctx);
    } catch (error) {
      report(error, { tool: tool.name, phase: 'handler', actor, threadId: claimed.threadId });
      await settle({ status: 'failed', error: { code: 'tool_failed', message: 'validation failed on the server' } });
      return failed(tool.name);
    }
    if (!admitted.ok) {
      const error = (admitted.result as { error: { code: string; message: string } }).error;
      await settle({ status: 'failed', error: { code: error.code, message: error.message } });
      return admitted.result;
    }
    const result = await instrumented(
      { phase: 'confirm', tool: tool.name, effect: tool.effect, arguments: claimed.arguments, actor, threadId: claimed.threadId },
      () => execute(tool, admitted.value, ctx, options.signal),
    );
    const failure = typeof result === 'object' && result !== null && 'error' in result ? (result as { error: { code: string; message: string } }).error : undefined;
    await settle(
      failure === undefined
        ? { status: 'executed', result: result as JsonValue }
        : { status: 'failed', error: { code: failure.code, message: failure.message } },
    );
    return result;
  };

  return {
    tools,
    settings,
    confirmations: store,
    definitions: () => (rendered ??= Object.freeze(renderTools(tools))),
    tool: (name) => byName.get(name),
    dispatch,
    precheck: (name: string, actor: Actor): ToolResult | undefined => {
      const tool = byName.get(name);
      return tool === undefined ? errorResult('unknown_tool', `No tool named '${name.slice(0, 80)}'.`) : actorRefusal(tool, actor);
    },
    confirm,
    expirePending: () => store.expire(clock()),
  };
}
