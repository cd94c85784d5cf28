/** OpenTelemetry spans for turns, model calls and tool calls, named and attributed by the GenAI semantic conventions. */
export { createTelemetry } from './telemetry.js';
export type { Telemetry, TelemetryOptions } from './telemetry.js';
export { traceProvider } from './provider-spans.js';
export { traceEngine } from './turn-spans.js';
export { toolSpans } from './tool-spans.js';
export { genAi, plumbAttributes, spanNames } from './attributes.js';
