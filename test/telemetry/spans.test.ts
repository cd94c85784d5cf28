import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, createEngine, createMemoryStore, defineTool, toolError, userActor } from '../../src/index.js';
import type { Engine } from '../../src/index.js';
import { createScriptedProvider } from '../../src/providers/index.js';
import type { ScriptInput } from '../../src/providers/index.js';
import { createTelemetry } from '../../src/telemetry/index.js';
import { createDemoApp, demoChatHost } from '../../src/demo/index.js';
import { createChatStack, parseConfig } from '../../src/server/index.js';

const alice = userActor('alice', ['admin']);
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

// What an SDK's registration does for the context: spans started inside a turn find it as their parent.
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await tracerProvider.shutdown();
});
afterEach(() => exporter.reset());

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks up parts by a query.',
  input: z.object({ q: z.string() }),
  effect: 'read',
  handler: (args) => {
    if (args.q === 'forbidden') throw toolError('forbidden', 'Not for you.');
    return { rows: [{ name: `Part ${args.q}` }] };
  },
});

function engineWith(script: ScriptInput, captureContent = false): Engine {
  const telemetry = createTelemetry({ tracerProvider, captureContent });
  return telemetry.traceEngine(
    createEngine({
      store: createMemoryStore(),
      provider: telemetry.traceProvider(createScriptedProvider(script)),
      tools: [lookup],
      instrumentTools: telemetry.instrumentTools,
    }),
  );
}

const twoRounds: ScriptInput = {
  completions: [
    { toolCalls: [{ name: 'lookup', arguments: { q: 'bolt' } }], usage: { inputTokens: 40, outputTokens: 8 } },
    { text: 'Bolt is a part.', usage: { inputTokens: 60, outputTokens: 5 } },
  ],
};

function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

describe('OpenTelemetry spans, by the GenAI semantic conventions', () => {
  it('traces a turn as invoke_agent with each model call and tool call as its children', async () => {
    const engine = engineWith(twoRounds);
    const { answer, events } = await collect(engine.send({ actor: alice, requestKey: 'k1', text: 'what is a bolt?' }));
    expect(answer).toBe('Bolt is a part.');
    const spans = exporter.getFinishedSpans();
    const [turn] = named(spans, 'invoke_agent plumb');
    const models = named(spans, 'chat scripted');
    const [tool] = named(spans, 'execute_tool lookup');
    expect(turn).toBeDefined();
    expect(models).toHaveLength(2);
    expect(tool).toBeDefined();
    const turnId = turn!.spanContext().spanId;
    for (const child of [...models, tool!]) {
      expect(child.parentSpanContext?.spanId, child.name).toBe(turnId);
      expect(child.spanContext().traceId).toBe(turn!.spanContext().traceId);
    }
    const done = events.find((event) => event.type === 'done')!;
    expect(turn!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'plumb',
      'gen_ai.conversation.id': done.thread_id,
      'plumb.turn.id': done.turn_id,
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 13,
    });
    expect(models[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted',
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 8,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(tool!.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.type': 'function', 'plumb.tool.effect': 'read', 'plumb.tool.outcome': 'result' });
  });

  it('records no prompt, answer, arguments or result unless captureContent allows it', async () => {
    await collect(engineWith(twoRounds).send({ actor: alice, requestKey: 'k2', text: 'what is a bolt?' }));
    const contentKeys = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];
    for (const span of exporter.getFinishedSpans()) for (const key of contentKeys) expect(span.attributes[key], `${span.name} ${key}`).toBeUndefined();
    expect(JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes))).not.toContain('bolt');

    exporter.reset();
    await collect(engineWith(twoRounds, true).send({ actor: alice, requestKey: 'k3', text: 'what is a bolt?' }));
    const spans = exporter.getFinishedSpans();
    expect(named(spans, 'invoke_agent plumb')[0]!.attributes['gen_ai.input.messages']).toContain('what is a bolt?');
    expect(named(spans, 'invoke_agent plumb')[0]!.attributes['gen_ai.output.messages']).toContain('Bolt is a part.');
    expect(named(spans, 'chat scripted')[1]!.attributes['gen_ai.input.messages']).toContain('Part bolt');
    expect(named(spans, 'execute_tool lookup')[0]!.attributes).toMatchObject({ 'gen_ai.tool.call.arguments': '{"q":"bolt"}', 'gen_ai.tool.call.result': '{"rows":[{"name":"Part bolt"}]}' });
  });

  it('sets error.type to the code of a refused tool call and of a failed turn', async () => {
    const engine = engineWith({ completions: [{ toolCalls: [{ name: 'lookup', arguments: { q: 'forbidden' } }] }, { error: { status: 401, message: 'bad key' } }] });
    await collect(engine.send({ actor: alice, requestKey: 'k4', text: 'try' }));
    const spans = exporter.getFinishedSpans();
    expect(named(spans, 'execute_tool lookup')[0]!.attributes).toMatchObject({ 'error.type': 'forbidden', 'plumb.tool.outcome': 'error' });
    const failedModel = named(spans, 'chat scripted').find((span) => span.attributes['error.type'] !== undefined);
    expect(failedModel?.attributes['error.type']).toBe('provider_auth');
    expect(named(spans, 'invoke_agent plumb')[0]!.attributes['error.type']).toBe('provider_auth');
    expect(named(spans, 'invoke_agent plumb')[0]!.status.code).toBe(2);
  });

  it('costs nothing and changes nothing without an SDK: the global tracer is a no-op', async () => {
    const telemetry = createTelemetry();
    expect(telemetry.tracer.startSpan('probe').isRecording()).toBe(false);
    const engine = telemetry.traceEngine(createEngine({ store: createMemoryStore(), provider: telemetry.traceProvider(createScriptedProvider(twoRounds)), tools: [lookup], instrumentTools: telemetry.instrumentTools }));
    expect((await engine.ask({ actor: alice, requestKey: 'k5', text: 'what is a bolt?' })).answer).toBe('Bolt is a part.');
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it('are on in every chat stack once the host registers a tracer provider, with the telemetry setting', async () => {
    const app = await createDemoApp();
    trace.setGlobalTracerProvider(tracerProvider);
    try {
      await using stack = await createChatStack({ app, config: parseConfig({ store: ':memory:', telemetry: { captureContent: true } }), host: demoChatHost(app) });
      await collect(stack.engine.send({ actor: alice, requestKey: 'k6', text: 'which parts are made of steel?' }));
      const spans = exporter.getFinishedSpans();
      const [turn] = named(spans, 'invoke_agent plumb');
      expect(turn!.attributes).toMatchObject({ 'plumb.router.outcome': 'run', 'gen_ai.usage.input_tokens': 0 });
      const tools = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool');
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) expect(tool.parentSpanContext?.spanId).toBe(turn!.spanContext().spanId);
      expect(tools.some((tool) => String(tool.attributes['gen_ai.tool.call.arguments']).includes('Steel'))).toBe(true);
    } finally {
      trace.disable();
      await app.close();
    }
  });
});
