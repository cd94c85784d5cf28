import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import { describeProvider } from '../providers/index.js';
import type { CompletionRequest, Provider, ProviderEvent, ToolCallPart } from '../providers/index.js';
import { genAi, plumbAttributes, spanNames } from './attributes.js';
import { inputMessages, outputMessage } from './content.js';
import { errorType } from './error-type.js';

/**
 * A provider whose every `complete` is one `chat {model}` client span, a child of the active span
 * (the turn's): the model, the output bound, the usage and finish reason it reported, and — only
 * with `captureContent` — the messages in and the answer out. Without an SDK, `complete` is the
 * provider's own.
 */
export function traceProvider(provider: Provider, tracer: Tracer, captureContent: boolean): Provider {
  return {
    name: provider.name,
    model: provider.model,
    checkConfiguration: () => provider.checkConfiguration(),
    describe: () => describeProvider(provider),
    complete: (request) => {
      const span = tracer.startSpan(spanNames.model(provider.model), {
        kind: SpanKind.CLIENT,
        attributes: {
          [genAi.operationName]: 'chat',
          [genAi.providerName]: provider.name,
          [genAi.requestModel]: provider.model,
          ...(request.maxOutputTokens === undefined ? {} : { [genAi.requestMaxTokens]: request.maxOutputTokens }),
        },
      });
      if (!trace.isSpanContextValid(span.spanContext())) return provider.complete(request);
      if (captureContent) span.setAttribute(genAi.inputMessages, inputMessages(request.messages));
      return traced(provider, request, span, captureContent);
    },
  };
}

async function* traced(provider: Provider, request: CompletionRequest, span: Span, captureContent: boolean): AsyncGenerator<ProviderEvent> {
  const active = trace.setSpan(context.active(), span);
  let inputTokens = 0;
  let outputTokens = 0;
  let finishReason: string | undefined;
  let text = '';
  const calls: ToolCallPart[] = [];
  const observe = (event: ProviderEvent): void => {
    if (event.type === 'usage') {
      inputTokens += event.inputTokens;
      outputTokens += event.outputTokens;
    } else if (event.type === 'done') finishReason = event.finishReason;
    else if (event.type === 'tool_call') calls.push({ id: event.id, name: event.name, arguments: event.arguments });
    else if (captureContent) text += event.text;
  };
  // Each step of the provider's stream runs under the model span, so that what it does (an HTTP call) is the span's child.
  const events = context.with(active, () => provider.complete(request))[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = await context.with(active, () => events.next());
      if (next.done === true) {
        finished = true;
        break;
      }
      observe(next.value);
      yield next.value;
    }
    span.setAttributes({
      [genAi.usageInputTokens]: inputTokens,
      [genAi.usageOutputTokens]: outputTokens,
      [genAi.responseModel]: provider.model,
      [plumbAttributes.toolCalls]: calls.length,
      ...(finishReason === undefined ? {} : { [genAi.responseFinishReasons]: [finishReason] }),
      ...(captureContent ? { [genAi.outputMessages]: outputMessage(text, calls, finishReason) } : {}),
    });
  } catch (error) {
    const type = errorType(error);
    span.setAttributes({ [genAi.errorType]: type, [genAi.usageInputTokens]: inputTokens, [genAi.usageOutputTokens]: outputTokens });
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    finished = true;
    throw error;
  } finally {
    // A reader that stopped early: the provider's own stream is closed as `for await` would.
    if (!finished) await events.return?.();
    span.end();
  }
}
