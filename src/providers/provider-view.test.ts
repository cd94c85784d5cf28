import { describe, expect, it } from 'vitest';
import { createAiSdkProvider, createProvider, createScriptedProvider, describeProvider, providerSummary, withStreamGuard } from './index.js';
import type { Provider } from './index.js';

const secret = 'sk-test-DO-NOT-SHOW-4242';

describe("a provider's settings, readable", () => {
  it.each(['openai', 'anthropic', 'ollama', 'gemini'] as const)('%s shows its model, base URL and limits, and never the key nor a header value', async (name) => {
    const provider = await createProvider({ provider: name, model: 'm-1', apiKey: secret, baseUrl: 'http://127.0.0.1:9/v1', timeoutSeconds: 12, maxTokens: 300, headers: { Authorization: `Bearer ${secret}`, 'X-Title': secret } });
    const view = describeProvider(provider);
    expect(view).toMatchObject({ name, model: 'm-1', baseUrl: 'http://127.0.0.1:9/v1', apiKeySource: 'apiKey', timeoutSeconds: 12, maxTokens: 300 });
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(providerSummary(view)).not.toContain(secret);
    expect(providerSummary(view)).toBe(`${name}: model m-1, baseUrl http://127.0.0.1:9/v1, API key from apiKey, timeoutSeconds 12, streamTimeoutSeconds 30, maxTokens 300`);
    // The engine's wrapper shows the same view.
    expect(describeProvider(withStreamGuard(provider))).toEqual(view);
  });

  it('names the environment variable a key came from, not the key', async () => {
    const provider = await createProvider({ provider: 'openai', env: { OPENAI_API_KEY: secret } });
    const view = describeProvider(provider);
    expect(view.apiKeySource).toBe('OPENAI_API_KEY');
    expect(JSON.stringify(view)).not.toContain(secret);
  });

  it('shows a scripted, an AI SDK and a custom provider by what they have', async () => {
    expect(describeProvider(createScriptedProvider({ model: 'script-1', completions: [{ text: 'hi' }] }))).toEqual({ name: 'scripted', model: 'script-1' });
    const model = { specificationVersion: 'v3', provider: 'acme', modelId: 'small', supportedUrls: {}, doGenerate: () => Promise.reject(new Error('unused')), doStream: () => Promise.reject(new Error('unused')) };
    expect(describeProvider(createAiSdkProvider(model as never, { timeoutSeconds: 5 }))).toEqual({ name: 'ai-sdk', model: 'acme/small', timeoutSeconds: 5, streamTimeoutSeconds: 30, parseTextToolCalls: false });
    const custom: Provider = { name: 'mine', model: 'x', checkConfiguration: () => [], complete: () => ({ async *[Symbol.asyncIterator]() {} }) };
    expect(describeProvider(custom)).toEqual({ name: 'mine', model: 'x' });
    expect(providerSummary(describeProvider(custom))).toBe('mine: model x');
    expect(describeProvider(await createProvider({ provider: custom }))).toEqual({ name: 'mine', model: 'x' });
  });
});
