import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionRequest, Provider, ProviderEvent } from '../../providers/index.js';
import { openSqliteStore } from '../../store/index.js';
import { createEngine } from '../index.js';
import { alice, key, testTools } from '../../../test/support/engine-kit.js';

/** A provider that answers a tool call carrying opaque state (as Gemini's thought signature), then text, and keeps every request. */
function signingProvider(): Provider & { readonly requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    name: 'signing',
    model: 'test',
    requests,
    checkConfiguration: () => [],
    async *complete(request): AsyncIterable<ProviderEvent> {
      requests.push(request);
      await Promise.resolve();
      if (requests.length % 2 === 1) {
        yield { type: 'tool_call', id: `c${requests.length}`, name: 'lookup', arguments: '{"q":"bolt"}', providerData: { thoughtSignature: `sig-${requests.length}` } };
        yield { type: 'done', finishReason: 'tool_calls' };
      } else {
        yield { type: 'text', text: 'Done.' };
        yield { type: 'done', finishReason: 'stop' };
      }
    },
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("a provider's opaque call state", () => {
  it('goes back with the call in the next round and in later turns, also after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-provider-data-'));
    dirs.push(dir);
    const path = join(dir, 'chat.db');
    const log = { writes: [], reads: [] };
    const provider = signingProvider();
    const store = await openSqliteStore({ path });
    const engine = createEngine({ store, provider, tools: testTools(log) });
    const first = await engine.ask({ actor: alice, requestKey: key(), text: 'find the bolt' });
    await engine.close();
    await store.close();
    const assistantCall = (request: CompletionRequest) => request.messages.find((message) => message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0);
    expect(assistantCall(provider.requests[1]!)).toMatchObject({ toolCalls: [{ id: 'c1', providerData: { thoughtSignature: 'sig-1' } }] });

    const reopened = await openSqliteStore({ path });
    const again = createEngine({ store: reopened, provider, tools: testTools(log) });
    await again.ask({ actor: alice, threadId: first.events[0]!.thread_id, requestKey: key(), text: 'and again' });
    await again.close();
    await reopened.close();
    expect(assistantCall(provider.requests[2]!)).toMatchObject({ toolCalls: [{ id: 'c1', providerData: { thoughtSignature: 'sig-1' } }] });
  });
});
