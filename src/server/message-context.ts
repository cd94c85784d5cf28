import { isPlumbError } from '../core/index.js';
import { isTimeZone, parsePageContext } from '../engine/index.js';
import type { SendRequest } from '../engine/index.js';

/** A chat request's page context and time zone, as HTTP bodies and WebSocket frames spell them. */
export interface MessageContextFields {
  readonly references?: unknown;
  readonly context?: unknown;
  readonly supplemental_context?: unknown;
  readonly time_zone?: unknown;
}

export type MessageContext = Pick<SendRequest, 'references' | 'context' | 'supplementalContext' | 'timeZone'>;

/**
 * The fields for the engine, checked before the message is admitted (no budget spent, nothing
 * audited): `invalid_context` or `invalid_time_zone` with the engine's message otherwise.
 */
export function messageContextOf(body: MessageContextFields): { readonly fields: MessageContext } | { readonly code: string; readonly message: string } {
  if (body.time_zone !== undefined && !isTimeZone(body.time_zone)) {
    return { code: 'invalid_time_zone', message: `Unknown time zone ${JSON.stringify(body.time_zone)} in 'time_zone'. Send an IANA time zone name such as 'Europe/Lisbon' or 'UTC'.` };
  }
  try {
    parsePageContext({ references: body.references, context: body.context, supplementalContext: body.supplemental_context });
  } catch (error) {
    if (isPlumbError(error)) return { code: error.code, message: error.message.replace('supplementalContext', 'supplemental_context') };
    throw error;
  }
  return {
    fields: {
      ...(body.references === undefined ? {} : { references: body.references as MessageContext['references'] }),
      ...(body.context === undefined ? {} : { context: body.context as MessageContext['context'] }),
      ...(body.supplemental_context === undefined ? {} : { supplementalContext: body.supplemental_context as string }),
      ...(body.time_zone === undefined ? {} : { timeZone: body.time_zone }),
    },
  };
}
