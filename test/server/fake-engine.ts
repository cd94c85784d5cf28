import { actorKey, PlumbError } from '../../src/core/index.js';
import type { Actor } from '../../src/core/index.js';
import type { ChatEngine, EngineEvent } from '../../src/server/index.js';

/**
 * A small stand-in for the engine, for transport tests only. Text decides the turn:
 * `write …` asks for a confirmation (`write briefly`: one that lapses in 100 ms); `slow …` streams 20 chunks 10 ms apart; `wait …` says nothing
 * until `release()` and then answers; `boom` throws; `usage N` reports N output tokens; anything
 * else answers `Echo: <text>` in two chunks.
 */
export interface FakeEngine extends ChatEngine {
  readonly completedTurns: string[];
  /** Lets the turns that wait (`wait …`) go on. */
  release(): void;
}

interface Thread {
  readonly id: string;
  readonly owner: string;
  readonly items: { role: string; text: string }[];
}

export function createFakeEngine(): FakeEngine {
  const threads = new Map<string, Thread>();
  const confirmations = new Map<string, { owner: string; thread: Thread; status: 'pending' | 'resolved'; mutation: string }>();
  const completedTurns: string[] = [];
  let seq = 0;
  const ownerOf = (actor: Actor): string => {
    const key = actorKey(actor);
    if (key === undefined) throw new PlumbError('session_required', 'An anonymous actor needs a session.');
    return key;
  };
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });

  return {
    completedTurns,
    release: () => release(),
    async *send({ actor, threadId, text }) {
      const owner = ownerOf(actor);
      let thread: Thread | undefined;
      if (threadId !== undefined) {
        thread = threads.get(threadId);
        if (thread === undefined || thread.owner !== owner) throw new PlumbError('thread_not_found', `No thread '${threadId}'.`);
      } else {
        thread = { id: `t${++seq}`, owner, items: [] };
        threads.set(thread.id, thread);
      }
      const base = { thread_id: thread.id, turn_id: `u${++seq}` };
      thread.items.push({ role: 'user', text });
      if (text === 'boom') throw new Error('database exploded: secret detail');
      if (text.startsWith('write')) {
        const id = `c${++seq}`;
        confirmations.set(id, { owner, thread, status: 'pending', mutation: 'createOrder' });
        yield { ...base, type: 'tool_call', id: 'call-1', name: 'mutate', args: { mutation: 'createOrder', input: { note: 'x', password: 'hunter2' } } } as EngineEvent;
        const expiresAt = text === 'write briefly' ? new Date(Date.now() + 100).toISOString() : '2030-01-01T00:00:00Z';
        yield { ...base, type: 'confirm_mutation', id, mutation: 'createOrder', input: { note: 'x' }, expires_at: expiresAt } as EngineEvent;
        return;
      }
      if (text.startsWith('slow')) {
        for (let i = 0; i < 20; i++) {
          await sleep(10);
          yield { ...base, type: 'text_chunk', content: `${i} ` } as EngineEvent;
        }
        thread.items.push({ role: 'assistant', text: 'slow done' });
        completedTurns.push(text);
        yield { ...base, type: 'done', usage: { input_tokens: 1, output_tokens: 1 } } as EngineEvent;
        return;
      }
      if (text.startsWith('wait')) await released;
      if (text.startsWith('big')) {
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 200; i++) yield { ...base, type: 'text_chunk', content: chunk } as EngineEvent;
        completedTurns.push('big');
        yield { ...base, type: 'done', usage: { input_tokens: 0, output_tokens: 0 } } as EngineEvent;
        return;
      }
      const usage = /^usage (\d+)$/.exec(text);
      yield { ...base, type: 'tool_call', id: 'q1', name: 'query', args: { manager: 'Order', api_key: 'k-123' } } as EngineEvent;
      yield { ...base, type: 'tool_result', id: 'q1', name: 'query', result: { data: [{ id: 1, token: 'abc', note: 'y'.repeat(300) }] } } as EngineEvent;
      yield { ...base, type: 'text_chunk', content: 'Echo: ' } as EngineEvent;
      yield { ...base, type: 'text_chunk', content: text } as EngineEvent;
      thread.items.push({ role: 'assistant', text: `Echo: ${text}` });
      completedTurns.push(text);
      yield { ...base, type: 'done', usage: { input_tokens: 0, output_tokens: usage === null ? 0 : Number(usage[1]) } } as EngineEvent;
    },
    async *confirm({ actor, confirmationId, confirmed }) {
      const owner = ownerOf(actor);
      const confirmation = confirmations.get(confirmationId);
      if (confirmation === undefined || confirmation.owner !== owner || confirmation.status !== 'pending') {
        throw new PlumbError('confirmation_unavailable', `Confirmation '${confirmationId}' is unknown, not yours, or already resolved.`);
      }
      confirmation.status = 'resolved';
      await Promise.resolve();
      const base = { thread_id: confirmation.thread.id, turn_id: `u${++seq}` };
      yield { ...base, type: 'tool_result', id: 'call-1', name: 'mutate', result: confirmed ? { status: 'executed', id: 9 } : { status: 'rejected' } } as EngineEvent;
      yield { ...base, type: 'text_chunk', content: confirmed ? 'Created order 9.' : 'Nothing changed.' } as EngineEvent;
      yield { ...base, type: 'done', usage: { input_tokens: 0, output_tokens: 0 } } as EngineEvent;
    },
    threads: {
      list: (actor) => Promise.resolve([...threads.values()].filter((thread) => thread.owner === actorKey(actor)).map((thread) => ({ id: thread.id }))),
      history: ({ actor, threadId }) => {
        const thread = threads.get(threadId);
        if (thread === undefined || thread.owner !== actorKey(actor)) return Promise.reject(new PlumbError('thread_not_found', `No thread '${threadId}'.`));
        return Promise.resolve(thread.items);
      },
    },
  };
}
