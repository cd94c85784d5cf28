import { describe, expect, it } from 'vitest';
import { ProviderError, createScriptedProvider, guardStream, withStreamGuard } from './index.js';
import type { Provider, ProviderEvent } from './index.js';

async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const request = (signal = new AbortController().signal) => ({ messages: [{ role: 'user' as const, content: 'hi' }], tools: [], signal });

describe('stream guard', () => {
  it('passes a complete stream through unchanged', async () => {
    const provider = withStreamGuard(createScriptedProvider({ completions: [{ text: ['a', 'b'] }] }), { timeoutSeconds: 5 });
    expect(await collect(provider.complete(request()))).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      { type: 'usage', inputTokens: 0, outputTokens: 0 },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('fails with a retryable provider_timeout when the first event is later than timeoutSeconds', async () => {
    const provider = withStreamGuard(createScriptedProvider({ completions: [{ delayMs: 60_000, text: 'late' }] }), { timeoutSeconds: 0.05 });
    const error = await collect(provider.complete(request())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_timeout', retryable: true });
    expect((error as Error).message).toMatch(/timeoutSeconds/);
  });

  it('fails with provider_timeout when a later event is later than streamTimeoutSeconds', async () => {
    const provider = withStreamGuard(createScriptedProvider({ completions: [{ chunkDelayMs: 60_000, text: ['a', 'b'] }] }), {
      timeoutSeconds: 5,
      streamTimeoutSeconds: 0.05,
    });
    const seen: ProviderEvent[] = [];
    const outcome = (async () => {
      for await (const event of provider.complete(request())) seen.push(event);
    })();
    await expect(outcome).rejects.toMatchObject({ code: 'provider_timeout', message: expect.stringMatching(/streamTimeoutSeconds/) });
    expect(seen).toEqual([{ type: 'text', text: 'a' }]);
  });

  it('fails with provider_timeout when the whole stream outlasts attemptTimeoutSeconds, however steadily it trickles', async () => {
    const chunks = Array.from({ length: 500 }, (_, index) => `w${index}`);
    const provider = withStreamGuard(createScriptedProvider({ completions: [{ chunkDelayMs: 10, text: chunks }] }), {
      timeoutSeconds: 5,
      streamTimeoutSeconds: 5,
      attemptTimeoutSeconds: 0.1,
    });
    const seen: ProviderEvent[] = [];
    const outcome = (async () => {
      for await (const event of provider.complete(request())) seen.push(event);
    })();
    await expect(outcome).rejects.toMatchObject({ code: 'provider_timeout', retryable: true, message: expect.stringMatching(/attemptTimeoutSeconds/) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(chunks.length);
  });

  it('answers provider_stream_cut when a stream ends without done', async () => {
    const bare: Provider = {
      name: 'bare',
      model: 'm',
      checkConfiguration: () => [],
      async *complete() {
        await Promise.resolve();
        yield { type: 'text', text: 'half' };
      },
    };
    await expect(collect(withStreamGuard(bare).complete(request()))).rejects.toMatchObject({ code: 'provider_stream_cut', retryable: true });
  });

  it('turns an unclassified throw into provider_network', async () => {
    const broken = (): AsyncIterable<ProviderEvent> => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new TypeError('fetch failed')) }),
    });
    await expect(collect(guardStream(broken, { provider: 'x', signal: new AbortController().signal }))).rejects.toMatchObject({
      code: 'provider_network',
      retryable: true,
    });
  });

  it('rethrows the caller signal reason on abort, even if the inner stream ignores its signal', async () => {
    const deaf = (): AsyncIterable<ProviderEvent> => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<ProviderEvent>>(() => undefined) }),
    });
    const controller = new AbortController();
    const outcome = collect(guardStream(deaf, { provider: 'x', signal: controller.signal }));
    const reason = new Error('user cancelled');
    controller.abort(reason);
    await expect(outcome).rejects.toBe(reason);
  });

  it('aborts the inner stream when the consumer stops early', async () => {
    let innerSignal: AbortSignal | undefined;
    const open = (signal: AbortSignal): AsyncIterable<ProviderEvent> => {
      innerSignal = signal;
      return createScriptedProvider({ completions: [{ text: ['a', 'b', 'c'] }] }).complete(request(signal));
    };
    for await (const event of guardStream(open, { provider: 'x', signal: new AbortController().signal })) {
      expect(event).toEqual({ type: 'text', text: 'a' });
      break;
    }
    expect(innerSignal?.aborted).toBe(true);
  });

  it('leaves the inner signal unaborted when the stream ends normally', async () => {
    let innerSignal: AbortSignal | undefined;
    const open = (signal: AbortSignal): AsyncIterable<ProviderEvent> => {
      innerSignal = signal;
      return createScriptedProvider({ completions: [{ text: 'a' }] }).complete(request(signal));
    };
    const events = await collect(guardStream(open, { provider: 'x', signal: new AbortController().signal }));
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    expect(innerSignal?.aborted).toBe(false);
  });

  it('rejects a non-positive timeout as provider_config_invalid', () => {
    expect(() => withStreamGuard(createScriptedProvider({ completions: [{ text: 'x' }] }), { timeoutSeconds: 0 })).toThrowError(
      expect.objectContaining({ code: 'provider_config_invalid' }),
    );
  });
  it('gives every stream the caller\'s inner controller and leaves it usable after a normal end', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const open = (signal: AbortSignal): AsyncIterable<ProviderEvent> => {
      seen.push(signal);
      return createScriptedProvider({ completions: [{ text: 'ok' }] }).complete({ ...request(), signal });
    };
    const options = { provider: 'scripted', signal: new AbortController().signal, innerController: controller };
    await collect(guardStream(open, options));
    await collect(guardStream(open, options));
    expect(seen).toEqual([controller.signal, controller.signal]);
    expect(controller.signal.aborted).toBe(false);
  });

  it('aborts the caller\'s inner controller on a timeout, and uses a fresh one once it is aborted', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const open = (completion: { delayMs?: number; text: string }) => (signal: AbortSignal): AsyncIterable<ProviderEvent> => {
      seen.push(signal);
      return createScriptedProvider({ completions: [completion] }).complete({ ...request(), signal });
    };
    const options = { provider: 'scripted', signal: new AbortController().signal, innerController: controller, timeoutSeconds: 0.05 };
    await expect(collect(guardStream(open({ delayMs: 60_000, text: 'late' }), options))).rejects.toMatchObject({ code: 'provider_timeout' });
    expect(controller.signal.aborted).toBe(true);
    expect(await collect(guardStream(open({ text: 'ok' }), options))).toContainEqual({ type: 'text', text: 'ok' });
    expect(seen[1]).not.toBe(controller.signal);
  });

  it('cuts off a stream that ignores its signal when the clock runs out', async () => {
    const deaf = (): AsyncIterable<ProviderEvent> => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<ProviderEvent>>(() => undefined) }),
    });
    await expect(collect(guardStream(deaf, { provider: 'deaf', signal: new AbortController().signal, timeoutSeconds: 0.05 }))).rejects.toMatchObject({
      code: 'provider_timeout',
    });
  });
});
