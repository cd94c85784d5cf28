import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, openSqliteStore } from '../../store/index.js';
import type { ChatEvent } from '../index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';
import { tempDirEach } from '../../../test/support/temp.js';

const kit = trackedKits();

const twoReadsThenAnswer = {
  completions: [
    { toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'bolt' } }] },
    { toolCalls: [{ id: 'c2', name: 'lookup', arguments: { q: 'nut' } }] },
    { text: ['Bolt and ', 'nut.'] },
  ],
};

describe('read steps are staged', () => {
  const dir = tempDirEach('plumb-staged-');

  it.each([
    ['an instant model (each step commits with the next write)', twoReadsThenAnswer],
    [
      'a model that takes its time (each step commits at the end of its event-loop turn)',
      { completions: twoReadsThenAnswer.completions.map((completion, index) => (index === 0 ? completion : { ...completion, delayMs: 20 })) },
    ],
  ])('shows a read step’s events only once the step is committed, and completes the turn in order: %s', async (_, script) => {
    const path = join(dir.path, 'chat.db');
    const { engine } = kit(script, {}, { store: await openSqliteStore({ path }) });
    const observer = new Database(path, { readonly: true });
    const committedKinds = (threadId: string): string[] =>
      (observer.prepare('SELECT kind FROM plumb_items WHERE thread_id = ? ORDER BY ordinal').all(threadId) as { kind: string }[]).map((row) => row.kind);
    const seen: { type: string; committed: string[] }[] = [];
    for await (const event of engine.send({ actor: alice, requestKey: key(), text: 'Bolt and nut?' })) {
      seen.push({ type: event.type, committed: committedKinds(event.thread_id) });
    }
    observer.close();
    const results = seen.filter((entry) => entry.type === 'tool_result');
    expect(results).toHaveLength(2);
    // Each tool_result reached the reader with its step already in the journal another connection reads.
    expect(results[0]!.committed.filter((kind) => kind === 'tool_result').length).toBeGreaterThanOrEqual(1);
    expect(results[1]!.committed.filter((kind) => kind === 'tool_result')).toHaveLength(2);
    expect(seen.map((entry) => entry.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'tool_result', 'text_chunk', 'text_chunk', 'done']);
    expect(seen.at(-1)!.committed).toEqual(['user_text', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant_text']);
  });

  it('fails the turn when a staged step’s commit is lost, without showing what was lost', async () => {
    const memory = createMemoryStore();
    // A store whose staged commits fail (a disk error at COMMIT): the items are not kept.
    const store = new Proxy(memory, {
      get(target, property) {
        if (property === 'stageItems') {
          return async (turnId: string) => {
            const committed = Promise.reject(new Error('disk I/O error'));
            committed.catch(() => undefined);
            return { records: [{ id: 'lost', threadId: (await target.getTurn(turnId))!.threadId, turnId, ordinal: 99, kind: 'tool_result', data: {}, createdAt: 0 }], committed };
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const { engine } = kit(twoReadsThenAnswer, {}, { store });
    const events: ChatEvent[] = [];
    for await (const event of engine.send({ actor: alice, requestKey: key(), text: 'Bolt and nut?' })) events.push(event);
    // The lost step's result never reaches the reader; the turn's next step is refused and fails it.
    expect(events.map((event) => event.type)).toEqual(['tool_call', 'error']);
    expect(events[1]).toMatchObject({ type: 'error', code: 'chat_error' });
    const threadId = events[0]!.thread_id;
    expect((await memory.listItems(threadId)).map((item) => item.kind)).toEqual(['user_text', 'error']);
    expect(await memory.getTurn(events[0]!.turn_id)).toMatchObject({ status: 'failed', failureCode: 'chat_error' });
  });
});
