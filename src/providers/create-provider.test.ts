import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createProvider } from './index.js';
import type { ProviderEvent } from './index.js';
import { tempDirEach } from '../../test/support/temp.js';

async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [], signal: new AbortController().signal };

describe('createProvider', () => {
  const dir = tempDirEach('plumb-provider-');

  it.each([
    ['openai', 'gpt-4.1-mini'],
    ['anthropic', 'claude-3-5-haiku-latest'],
    ['ollama', 'gemma4:e4b'],
    ['gemini', 'gemini-2.5-flash'],
  ])('builds %s with its default model %s', async (name, model) => {
    const provider = await createProvider({ provider: name, env: {} });
    expect(provider.name).toBe(name);
    expect(provider.model).toBe(model);
  });

  it('passes settings through to the adapter', async () => {
    const provider = await createProvider({ provider: 'openai', model: 'qwen3:8b', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(provider.model).toBe('qwen3:8b');
    expect(provider.checkConfiguration()).toEqual([]);
  });

  it('builds scripted:FILE relative to cwd', async () => {
    writeFileSync(join(dir.path, 'turn.yaml'), 'completions:\n  - text: scripted hello\n');
    const provider = await createProvider({ provider: 'scripted:turn.yaml', cwd: dir.path });
    expect(provider.name).toBe('scripted');
    expect(await collect(provider.complete(request))).toContainEqual({ type: 'text', text: 'scripted hello' });
  });

  it('answers provider_unknown for an unknown name, listing the choices', async () => {
    await expect(createProvider({ provider: 'opnai' })).rejects.toMatchObject({
      code: 'provider_unknown',
      message: expect.stringContaining('openai, anthropic, ollama, gemini, scripted:FILE'),
    });
  });

  it('loads a custom provider class from a module path, instantiating it with the settings', async () => {
    writeFileSync(
      join(dir.path, 'echo-provider.mjs'),
      `export class EchoProvider {
        constructor(settings) { this.name = 'echo'; this.model = settings.model ?? 'echo-1'; }
        checkConfiguration() { return []; }
        async *complete(request) {
          yield { type: 'text', text: 'echo: ' + request.messages.at(-1).content };
          yield { type: 'usage', inputTokens: 1, outputTokens: 1 };
          yield { type: 'done', finishReason: 'stop' };
        }
      }`,
    );
    const provider = await createProvider({ provider: './echo-provider.mjs#EchoProvider', cwd: dir.path, model: 'echo-2' });
    expect(provider).toMatchObject({ name: 'echo', model: 'echo-2' });
    expect(await collect(provider.complete(request))).toContainEqual({ type: 'text', text: 'echo: hi' });
    const byDefault = await createProvider({ provider: './echo-provider.mjs', cwd: dir.path });
    expect(byDefault.model).toBe('echo-1');
  });

  it('names the missing package when a provider module depends on one that is not installed', async () => {
    writeFileSync(join(dir.path, 'needs-sdk.mjs'), "import 'plumb-test-absent-sdk';\nexport default class X {}\n");
    await expect(createProvider({ provider: './needs-sdk.mjs', cwd: dir.path })).rejects.toMatchObject({
      code: 'provider_package_missing',
      message: expect.stringContaining('npm install plumb-test-absent-sdk'),
    });
  });

  it('answers provider_unknown for a module path that does not exist and config_invalid for a non-provider export', async () => {
    await expect(createProvider({ provider: './nope.mjs', cwd: dir.path })).rejects.toMatchObject({ code: 'provider_unknown' });
    writeFileSync(join(dir.path, 'not-provider.mjs'), 'export default { hello: 1 };\n');
    await expect(createProvider({ provider: './not-provider.mjs', cwd: dir.path })).rejects.toMatchObject({ code: 'provider_config_invalid' });
  });

  it('accepts an AI SDK language model object directly', async () => {
    const provider = await createProvider({ provider: new MockLanguageModelV3({ provider: 'mock', modelId: 'm' }) });
    expect(provider).toMatchObject({ name: 'ai-sdk', model: 'mock/m' });
  });
});
