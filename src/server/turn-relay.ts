import { isPlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { Audit } from './audit.js';
import { fieldsOf, textOf } from './engine-port.js';
import type { EngineEvent } from './engine-port.js';

/** An error event as the transports send it. */
export interface ErrorEventBody {
  readonly type: 'error';
  readonly code: string;
  readonly message: string;
  readonly retry_after_seconds?: number;
}

export const genericChatError: ErrorEventBody = Object.freeze({ type: 'error', code: 'chat_error', message: 'Something went wrong while answering. Please try again.' });

/** Codes an engine may throw whose message is meant for the client; anything else becomes `chat_error`. */
const publicCodes = new Set([
  'bad_message',
  'thread_not_found',
  'turn_not_found',
  'turn_in_progress',
  'server_busy',
  'request_conflict',
  'confirmation_unavailable',
  'confirmation_pending',
  'question_unavailable',
  'bad_answer',
  'queued_message_unavailable',
  'bad_event',
  'rate_limited',
  'rate_limit_unavailable',
  'session_required',
  'no_provider',
  'invalid_context',
  'context_not_queued',
  'invalid_time_zone',
]);

/** Maps a thrown value to a public error event; unexpected failures are reported and hidden. */
export function publicError(error: unknown, report: (error: unknown) => void): ErrorEventBody {
  if (isPlumbError(error) && publicCodes.has(error.code)) {
    const retry = (error.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
    return { type: 'error', code: error.code, message: error.message, ...(typeof retry === 'number' ? { retry_after_seconds: retry } : {}) };
  }
  report(error);
  return genericChatError;
}

export interface RelayOptions {
  readonly transport: string;
  readonly actor: Actor;
  readonly audit: Audit;
  /** Called for each event, in order; a failing sink (a client gone) never stops the turn. */
  readonly send: (event: EngineEvent) => void;
  readonly report: (error: unknown) => void;
  /** Reported usage from `done` (when the provider wrapper does not record it). */
  readonly onUsage?: (usage: { inputTokens: number; outputTokens: number }) => Promise<void>;
  /** A token budget refusal that ended the turn, to report as `rate_limited` instead of a failure. */
  readonly refusal?: () => { readonly retryAfterSeconds: number; readonly budget: string; readonly unavailable?: boolean } | undefined;
}

export interface RelayOutcome {
  readonly events: readonly EngineEvent[];
  readonly answer: string;
  readonly threadId: string | undefined;
  /** The id of a `confirm_mutation` the turn stopped on, if any. */
  readonly pendingConfirmation: string | undefined;
}

/**
 * Reads a turn's events to the end, always: the turn belongs to the journal, not to the client.
 * Audits messages and tools, collects the answer (every text chunk of the turn, as a stream's
 * reader shows it: a retry drops the text since the last tool call, a tool call drops nothing), and
 * turns a thrown failure into one error event.
 */
export async function relayTurn(events: () => AsyncIterable<EngineEvent>, options: RelayOptions): Promise<RelayOutcome> {
  const all: EngineEvent[] = [];
  // The answer is `settled` (text up to the last tool call) + `attempt` (text of the current provider attempt).
  let settled = '';
  let attempt = '';
  let threadId: string | undefined;
  let pending: string | undefined;
  const deliver = (event: EngineEvent): void => {
    all.push(event);
    try {
      options.send(event);
    } catch (error) {
      options.report(error);
    }
  };
  try {
    for await (const event of events()) {
      const fields = fieldsOf(event);
      if (typeof fields.thread_id === 'string') threadId = fields.thread_id;
      switch (event.type) {
        case 'text_chunk':
          attempt += textOf(fields.content);
          break;
        case 'retry':
          attempt = '';
          break;
        case 'tool_call':
          settled += attempt;
          attempt = '';
          options.audit.tool({ transport: options.transport, actor: options.actor, threadId, kind: 'tool_call', id: textOf(fields.id), name: textOf(fields.name), payload: fields.args });
          break;
        case 'tool_result':
          options.audit.tool({ transport: options.transport, actor: options.actor, threadId, kind: 'tool_result', id: textOf(fields.id), name: textOf(fields.name), payload: fields.result });
          break;
        case 'confirm_mutation':
          pending = textOf(fields.id);
          options.audit.tool({ transport: options.transport, actor: options.actor, threadId, kind: 'confirm_mutation', id: textOf(fields.id), name: textOf(fields.mutation), payload: fields.input });
          break;
        case 'error': {
          const refused = options.refusal?.();
          if (refused !== undefined && fields.code !== 'rate_limited' && fields.code !== 'rate_limit_unavailable') {
            deliver({
              ...(event as object),
              type: 'error',
              code: refused.unavailable === true ? 'rate_limit_unavailable' : 'rate_limited',
              message:
                refused.unavailable === true
                  ? `The shared rate limits cannot be checked right now. Try again in ${refused.retryAfterSeconds} seconds.`
                  : `Chat token budget exhausted (${refused.budget}). Try again in ${refused.retryAfterSeconds} seconds.`,
              retry_after_seconds: refused.retryAfterSeconds,
            } as EngineEvent);
            continue;
          }
          break;
        }
        case 'done': {
          const usage = fields.usage as { input_tokens?: number; output_tokens?: number } | undefined;
          if (options.onUsage !== undefined && usage !== undefined) {
            await options.onUsage({ inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 }).catch(options.report);
          }
          break;
        }
        default:
          break;
      }
      deliver(event);
    }
  } catch (error) {
    deliver(publicError(error, options.report));
  }
  const answer = settled + attempt;
  if (answer !== '') options.audit.message({ transport: options.transport, actor: options.actor, threadId, role: 'assistant', text: answer });
  return { events: all, answer, threadId, pendingConfirmation: pending };
}
