/** The Plumb side of the engine benches: a scripted provider and one tool, the same turn in each. */
import { z } from 'zod';
import { collect, createEngine } from '../src/engine/index.js';
import type { Provider, ProviderEvent } from '../src/providers/index.js';
import type { Store } from '../src/store/index.js';
import { defineTool } from '../src/tools/index.js';

export const rows = { rows: [{ name: 'Bolt', sku: 'B-1' }] };
export const input = z.object({ q: z.string() });

/** Tool calls since the last user message, from the tail of a message list. */
export function callsSoFar<T>(messages: readonly T[], isTool: (m: T) => boolean, isUser: (m: T) => boolean): number {
  let count = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (isUser(message)) break;
    if (isTool(message)) count++;
  }
  return count;
}

/** K tool calls, one per round, then a final text; a request without tools (a summary) gets a short summary. */
export function plumbProvider(k: number): Provider {
  return {
    name: 'bench',
    model: 'bench',
    checkConfiguration: () => [],
    async *complete(request): AsyncIterable<ProviderEvent> {
      if (request.tools.length === 0) {
        yield { type: 'text', text: 'The user asked for the SKU of the bolt, again and again: it is B-1.' };
        yield { type: 'usage', inputTokens: 10, outputTokens: 5 };
        yield { type: 'done', finishReason: 'stop' };
        return;
      }
      const done = callsSoFar(request.messages, (m) => m.role === 'tool', (m) => m.role === 'user');
      if (done < k) yield { type: 'tool_call', id: `c${done}`, name: 'lookup', arguments: `{"q":"x${done}"}` };
      else yield { type: 'text', text: 'Bolt has SKU B-1.' };
      yield { type: 'usage', inputTokens: 10, outputTokens: 5 };
      yield { type: 'done', finishReason: done < k ? 'tool_calls' : 'stop' };
      await Promise.resolve();
    },
  };
}

/** An engine over `store` with the bench's provider and tool; `send` runs one turn in the session named and checks it answered. */
export function plumbEngine(store: Store, k: number): { send: (sessionKey: string, requestKey: string) => Promise<void>; close: () => Promise<void> } {
  const engine = createEngine({
    store,
    provider: plumbProvider(k),
    tools: [defineTool({ name: 'lookup', description: 'Looks a part up.', input, effect: 'read', handler: () => rows })],
    settings: { recoverOnStart: false },
  });
  return {
    send: async (sessionKey, requestKey) => {
      const { answer, events } = await collect(engine.send({ actor: { kind: 'anonymous', sessionKey }, requestKey, text: 'What is the SKU of the bolt?' }));
      if (answer === '') throw new Error(`plumb: no answer (${JSON.stringify(events.filter((event) => event.type === 'error'))})`);
    },
    close: () => engine.close(),
  };
}
