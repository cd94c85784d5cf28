import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { isCancelled, isConfirmationRequired, isToolError } from '../tools/index.js';
import type { DispatchInstrument, ToolResult } from '../tools/index.js';
import { genAi, plumbAttributes, spanNames } from './attributes.js';
import { asText } from './content.js';

/** What a call came to, for `plumb.tool.outcome`. */
function outcomeOf(result: ToolResult): 'result' | 'error' | 'confirmation_required' | 'cancelled' {
  if (isToolError(result)) return 'error';
  if (isConfirmationRequired(result)) return 'confirmation_required';
  if (isCancelled(result)) return 'cancelled';
  return 'result';
}

/**
 * The dispatcher instrument: each call is one `execute_tool {name}` span, a child of the active
 * span (the turn's, or an MCP request's), with the tool's name, effect and outcome; an error result
 * sets `error.type` to its code. Arguments and results only with `captureContent`.
 */
export function toolSpans(tracer: Tracer, captureContent: boolean): DispatchInstrument {
  return async (call, run) => {
    const span = tracer.startSpan(spanNames.tool(call.tool), {
      kind: SpanKind.INTERNAL,
      attributes: {
        [genAi.operationName]: 'execute_tool',
        [genAi.toolName]: call.tool,
        [genAi.toolType]: 'function',
        [plumbAttributes.toolPhase]: call.phase,
        ...(call.effect === undefined ? {} : { [plumbAttributes.toolEffect]: call.effect }),
        ...(call.threadId === undefined ? {} : { [genAi.conversationId]: call.threadId }),
        ...(captureContent ? { [genAi.toolCallArguments]: asText(call.arguments ?? {}) } : {}),
      },
    });
    if (!trace.isSpanContextValid(span.spanContext())) return run();
    try {
      const result = await context.with(trace.setSpan(context.active(), span), run);
      const outcome = outcomeOf(result);
      span.setAttribute(plumbAttributes.toolOutcome, outcome);
      if (isToolError(result)) {
        span.setAttribute(genAi.errorType, result.error.code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error.code });
      }
      if (captureContent) span.setAttribute(genAi.toolCallResult, asText(result));
      return result;
    } finally {
      span.end();
    }
  };
}
