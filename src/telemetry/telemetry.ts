import { trace } from '@opentelemetry/api';
import type { Tracer, TracerProvider } from '@opentelemetry/api';
import type { Engine } from '../engine/index.js';
import type { Provider } from '../providers/index.js';
import type { DispatchInstrument } from '../tools/index.js';
import { toolSpans } from './tool-spans.js';
import { traceProvider } from './provider-spans.js';
import { traceEngine } from './turn-spans.js';

export interface TelemetryOptions {
  /** Default: the global one (`trace.getTracerProvider()`), a no-op until the host registers an SDK. */
  readonly tracerProvider?: TracerProvider;
  /** Record prompts, answers, tool arguments and results on spans. Default false: names, counts and codes only. */
  readonly captureContent?: boolean;
}

/** The three seams a turn is traced through: the engine (turn spans), the provider (model spans), the dispatcher (tool spans). */
export interface Telemetry {
  readonly tracer: Tracer;
  readonly captureContent: boolean;
  readonly traceEngine: (engine: Engine) => Engine;
  readonly traceProvider: (provider: Provider) => Provider;
  readonly instrumentTools: DispatchInstrument;
}

/**
 * Plumb's OpenTelemetry spans, by the GenAI semantic conventions, through `@opentelemetry/api`
 * only: without a registered SDK every span is a no-op.
 */
export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer('plumb');
  const captureContent = options.captureContent ?? false;
  return {
    tracer,
    captureContent,
    traceEngine: (engine) => traceEngine(engine, tracer, captureContent),
    traceProvider: (provider) => traceProvider(provider, tracer, captureContent),
    instrumentTools: toolSpans(tracer, captureContent),
  };
}
