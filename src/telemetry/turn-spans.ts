import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Tracer } from '@opentelemetry/api';
import type { Actor } from '../core/index.js';
import { collect } from '../engine/index.js';
import type { ChatEvent, Engine } from '../engine/index.js';
import { genAi, plumbAttributes, spanNames } from './attributes.js';
import { errorType } from './error-type.js';

type TurnOperation = 'send' | 'confirm' | 'retry';

function actorKind(actor: Actor): string {
  return actor.kind;
}

/**
 * Runs `start` (an engine call that begins a turn) under a new `invoke_agent plumb` span, so that
 * the turn's model and tool spans are its children, and reads its events through: the thread,
 * the router's outcome, the usage at `done`, `error.type` at `error`. The span ends when the
 * caller has read the turn to its end (or stopped reading).
 */
function tracedTurn(tracer: Tracer, captureContent: boolean, operation: TurnOperation, attributes: Attributes, input: string | undefined, start: () => AsyncIterable<ChatEvent>): AsyncIterable<ChatEvent> {
  const span = tracer.startSpan(spanNames.turn, {
    kind: SpanKind.INTERNAL,
    attributes: {
      [genAi.operationName]: 'invoke_agent',
      [genAi.agentName]: 'plumb',
      [plumbAttributes.turnOperation]: operation,
      ...attributes,
      ...(captureContent && input !== undefined ? { [genAi.inputMessages]: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: input }] }]) } : {}),
    },
  });
  // No SDK registered (the API's no-op tracer): nothing to observe, nothing to propagate.
  if (!trace.isSpanContextValid(span.spanContext())) return start();
  // The engine starts the turn's task inside `send`: under this context, its spans are the turn's children.
  const events = context.with(trace.setSpan(context.active(), span), start);
  let answer = '';
  const observe = (event: ChatEvent): void => {
    if (event.thread_id !== '') span.setAttribute(genAi.conversationId, event.thread_id);
    if (event.turn_id !== '') span.setAttribute(plumbAttributes.turnId, event.turn_id);
    switch (event.type) {
      case 'plan':
        span.setAttribute(plumbAttributes.routerOutcome, event.outcome);
        break;
      case 'text_chunk':
        if (captureContent) answer += event.content;
        break;
      case 'tool_call':
      case 'retry':
        answer = '';
        break;
      case 'done':
        span.setAttributes({ [genAi.usageInputTokens]: event.usage.input_tokens, [genAi.usageOutputTokens]: event.usage.output_tokens });
        break;
      case 'error':
        span.setAttribute(genAi.errorType, event.code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: event.code });
        break;
      default:
        break;
    }
  };
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const event of events) {
          observe(event);
          yield event;
        }
        if (captureContent) span.setAttribute(genAi.outputMessages, JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }]));
      } catch (error) {
        const type = errorType(error);
        span.setAttribute(genAi.errorType, type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
        throw error;
      } finally {
        span.end();
      }
    },
  };
}

/**
 * The engine with a span per turn: `send`, `ask`, `confirm` (the resumed turn) and `retry` each
 * start an `invoke_agent plumb` span; every other member is the engine's own, bound to it (a
 * proxy, so that what the engine adds later passes through unchanged).
 */
export function traceEngine(engine: Engine, tracer: Tracer, captureContent: boolean): Engine {
  const send: Engine['send'] = (request) =>
    tracedTurn(tracer, captureContent, 'send', { 'plumb.actor.kind': actorKind(request.actor), ...(request.threadId === undefined ? {} : { [genAi.conversationId]: request.threadId }) }, request.text, () => engine.send(request));
  const traced: Partial<Engine> = {
    send,
    ask: (request) => collect(send(request)),
    confirm: (request) => tracedTurn(tracer, captureContent, 'confirm', { 'plumb.actor.kind': actorKind(request.actor), 'plumb.confirmation.approved': request.confirmed }, undefined, () => engine.confirm(request)),
    retry: (request) => tracedTurn(tracer, captureContent, 'retry', { 'plumb.actor.kind': actorKind(request.actor), [plumbAttributes.turnId]: request.turnId }, undefined, () => engine.retry(request)),
  };
  return new Proxy(engine, {
    get(target, property) {
      if (Object.hasOwn(traced, property)) return traced[property as keyof Engine];
      const value: unknown = Reflect.get(target, property, target);
      // The engine's methods use its private fields: they run with the engine as `this`.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
