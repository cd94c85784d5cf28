import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderError, createScriptedProvider } from '../index.js';
import type { ChatMessage, ProviderEvent } from '../index.js';
import { tempDirEach } from '../../../test/support/temp.js';

async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function ask(messages: ChatMessage[], signal = new AbortController().signal) {
  return { messages, tools: [], signal };
}

const user: ChatMessage = { role: 'user', content: 'How many parts are in stock?' };

describe('scripted provider', () => {
  const dir = tempDirEach('plumb-script-');

  it('plays text chunks, tool calls, usage and done, one completion per round', async () => {
    const provider = createScriptedProvider({
      completions: [
        { toolCalls: [{ name: 'query', arguments: { manager: 'Part' } }, { id: 'fixed', name: 'schema', arguments: '{"x":' }], usage: { inputTokens: 10, outputTokens: 3 } },
        { text: ['There are ', '42 parts.'], usage: { inputTokens: 20, outputTokens: 5 } },
      ],
    });
    expect(await collect(provider.complete(ask([user])))).toEqual([
      { type: 'tool_call', id: 'call_1_0', name: 'query', arguments: '{"manager":"Part"}' },
      { type: 'tool_call', id: 'fixed', name: 'schema', arguments: '{"x":' },
      { type: 'usage', inputTokens: 10, outputTokens: 3 },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
    expect(await collect(provider.complete(ask([user])))).toEqual([
      { type: 'text', text: 'There are ' },
      { type: 'text', text: '42 parts.' },
      { type: 'usage', inputTokens: 20, outputTokens: 5 },
      { type: 'done', finishReason: 'stop' },
    ]);
    expect(provider.remaining()).toBe(0);
    expect(provider.requests.map((request) => request.round)).toEqual([1, 2]);
  });

  it('answers provider_script_exhausted once every completion is used', async () => {
    const provider = createScriptedProvider({ completions: [{ text: 'only' }] });
    await collect(provider.complete(ask([user])));
    await expect(collect(provider.complete(ask([user])))).rejects.toMatchObject({ code: 'provider_script_exhausted' });
  });

  it('chooses the next completion from the last tool result with when', async () => {
    const provider = createScriptedProvider({
      completions: [
        { name: 'on-error', when: { error: 'unknown_field' }, text: 'Let me fix the field.' },
        { name: 'on-empty', when: { toolName: 'query', toolResultContains: '"items":[]' }, text: 'Nothing matches.' },
        { name: 'fallback', text: 'Done.' },
      ],
    });
    const call = { role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'query', arguments: '{}' }] };
    const empty: ChatMessage = { role: 'tool', toolCallId: 'c1', name: 'query', result: { items: [] } };
    const failed: ChatMessage = { role: 'tool', toolCallId: 'c1', name: 'query', result: { error: { code: 'unknown_field', message: 'no' } } };
    expect(await collect(provider.complete(ask([user, call, empty])))).toContainEqual({ type: 'text', text: 'Nothing matches.' });
    expect(await collect(provider.complete(ask([user, call, failed])))).toContainEqual({ type: 'text', text: 'Let me fix the field.' });
    expect(await collect(provider.complete(ask([user, call, empty])))).toContainEqual({ type: 'text', text: 'Done.' });
    expect(provider.requests.map((request) => request.completion)).toEqual(['on-empty', 'on-error', 'fallback']);
  });

  it('keeps a repeat completion available and starts over with loop', async () => {
    const repeating = createScriptedProvider({ completions: [{ when: { error: true }, repeat: true, text: 'again' }, { text: 'first' }] });
    const failed: ChatMessage = { role: 'tool', toolCallId: 'c', name: 't', result: { error: { code: 'x', message: 'y' } } };
    expect(await collect(repeating.complete(ask([user, failed])))).toContainEqual({ type: 'text', text: 'again' });
    expect(await collect(repeating.complete(ask([user, failed])))).toContainEqual({ type: 'text', text: 'again' });
    const looping = createScriptedProvider({ loop: true, completions: [{ text: 'a' }, { text: 'b' }] });
    const texts: string[] = [];
    for (let round = 0; round < 5; round++) {
      for (const event of await collect(looping.complete(ask([user])))) if (event.type === 'text') texts.push(event.text);
    }
    expect(texts).toEqual(['a', 'b', 'a', 'b', 'a']);
  });

  it('fails like a provider: a status is classified, Retry-After kept', async () => {
    const provider = createScriptedProvider({
      completions: [
        { error: { status: 429, message: 'slow down', retryAfterSeconds: 2 } },
        { error: { status: 401, message: 'bad key' } },
        { error: { code: 'provider_network', message: 'reset' } },
      ],
    });
    const first = await collect(provider.complete(ask([user]))).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(ProviderError);
    expect(first).toMatchObject({ code: 'provider_rate_limited', retryable: true, retryAfterSeconds: 2, providerMessage: 'slow down' });
    await expect(collect(provider.complete(ask([user])))).rejects.toMatchObject({ code: 'provider_auth', retryable: false });
    await expect(collect(provider.complete(ask([user])))).rejects.toMatchObject({ code: 'provider_network', retryable: true });
  });

  it('cuts the stream after cutAfterChunks events with provider_stream_cut', async () => {
    const provider = createScriptedProvider({ completions: [{ text: ['a', 'b', 'c'], cutAfterChunks: 2 }] });
    const seen: ProviderEvent[] = [];
    const outcome = (async () => {
      for await (const event of provider.complete(ask([user]))) seen.push(event);
    })();
    await expect(outcome).rejects.toMatchObject({ code: 'provider_stream_cut', retryable: true });
    expect(seen).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
  });

  it('stops waiting during delayMs when the signal aborts', async () => {
    const provider = createScriptedProvider({ completions: [{ delayMs: 60_000, text: 'late' }] });
    const controller = new AbortController();
    const outcome = collect(provider.complete(ask([user], controller.signal)));
    controller.abort(new Error('cancelled by test'));
    await expect(outcome).rejects.toThrow('cancelled by test');
  });

  it('loads JSON and YAML script files', async () => {
    const yamlPath = join(dir.path, 'script.yaml');
    writeFileSync(yamlPath, 'completions:\n  - text: "from yaml"\n    usage: { inputTokens: 1, outputTokens: 2 }\n');
    const jsonPath = join(dir.path, 'script.json');
    writeFileSync(jsonPath, JSON.stringify({ model: 'fake-1', completions: [{ text: 'from json' }] }));
    expect(await collect(createScriptedProvider(yamlPath).complete(ask([user])))).toContainEqual({ type: 'usage', inputTokens: 1, outputTokens: 2 });
    const fromJson = createScriptedProvider(jsonPath);
    expect(fromJson.model).toBe('fake-1');
    expect(await collect(fromJson.complete(ask([user])))).toContainEqual({ type: 'text', text: 'from json' });
  });

  it('rejects a malformed script with provider_script_invalid naming the field', () => {
    const path = join(dir.path, 'bad.json');
    writeFileSync(path, JSON.stringify({ completions: [{ txet: 'typo' }] }));
    expect(() => createScriptedProvider(path)).toThrow(/provider_script_invalid|completions\.0/);
    expect(() => createScriptedProvider(path)).toThrowError(expect.objectContaining({ code: 'provider_script_invalid' }));
    expect(() => createScriptedProvider(join(dir.path, 'missing.yaml'))).toThrowError(expect.objectContaining({ code: 'provider_script_invalid' }));
  });
});
