import { isPlumbError } from '../../core/index.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of appends: ordinals, ids, fences, patches with them, and the reads. */
export function itemCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('items', () => {
    it('keeps items in order with stable ids and consecutive ordinals per thread', async () => {
      const { thread, turn } = await t.threadWithTurn();
      const appended = await t.store.appendItems(turn.id, [
        { kind: 'tool_call', data: { callId: 'c1', name: 'query', arguments: '{}' } },
        { id: 'fixed-id', kind: 'tool_result', data: { callId: 'c1', result: { rows: [1, 2] } } },
      ]);
      const more = await t.store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'two rows' } }]);
      expect(appended.map((item) => item.ordinal)).toEqual([2, 3]);
      expect(appended[1]?.id).toBe('fixed-id');
      expect(more[0]?.ordinal).toBe(4);
      const listed = await t.store.listItems(thread.id);
      expect(listed.map((item) => item.kind)).toEqual(['user_text', 'tool_call', 'tool_result', 'assistant_text']);
      expect(listed.map((item) => item.id)).toEqual([listed[0]?.id, appended[0]?.id, 'fixed-id', more[0]?.id]);
      expect(await t.store.listItems(thread.id, { afterOrdinal: 2 })).toEqual(listed.slice(2));
      expect(await t.store.listItems(thread.id, { turnId: turn.id })).toEqual(listed);
    });

    it('numbers each thread on its own and keeps concurrent appends gap-free', async () => {
      const a = await t.threadWithTurn('user:alice', 'a');
      const b = await t.threadWithTurn('user:bob', 'b');
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.store.appendItems(i % 2 === 0 ? a.turn.id : b.turn.id, [{ kind: 'assistant_text', data: { text: String(i) } }, { kind: 'error', data: { code: 'x' } }])),
      );
      for (const thread of [a.thread, b.thread]) {
        const ordinals = (await t.store.listItems(thread.id)).map((item) => item.ordinal);
        expect(ordinals).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
      }
    });

    it("writes a step's router session and generated title in the step's own append, never over a sourced title", async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'one' } }], { status: 'running', thread: { routerSession: '{"s":1}' } });
      const sessioned = await t.store.getThread(thread.id);
      expect(sessioned).toMatchObject({ routerSession: '{"s":1}', title: null, titleSource: null });
      expect(sessioned!.updatedAt).toBeGreaterThanOrEqual(thread.updatedAt);
      const staged = await t.store.stageItems(turn.id, [{ kind: 'assistant_text', data: { text: 'two' } }], { status: 'completed', thread: { routerSession: '{"s":2}', generatedTitle: 'Bolts' } });
      await staged.committed;
      expect(await t.store.getThread(thread.id)).toMatchObject({ routerSession: '{"s":2}', title: 'Bolts', titleSource: 'generated' });
      const updatedAt = (await t.store.getThread(thread.id))!.updatedAt;
      // A generated title replaces no title with a source (a person's, or one generated before), and moves no `updatedAt`.
      const next = (await t.store.beginTurn({ threadId: thread.id, requestKey: 'titled-2', input: 'again' })).turn;
      await t.store.appendItems(next.id, [{ kind: 'assistant_text', data: { text: 'three' } }], { thread: { generatedTitle: 'Nuts' } });
      expect(await t.store.getThread(thread.id)).toMatchObject({ title: 'Bolts', titleSource: 'generated' });
      await t.store.setThreadTitle(thread.id, 'Mine', 'person');
      await t.store.appendItems(next.id, [{ kind: 'assistant_text', data: { text: 'four' } }], { status: 'completed', thread: { generatedTitle: 'Washers' } });
      const after = await t.store.getThread(thread.id);
      expect(after).toMatchObject({ routerSession: '{"s":2}', title: 'Mine', titleSource: 'person' });
      expect(after!.updatedAt).toBeGreaterThanOrEqual(updatedAt);
    });

    it('writes nothing of a step whose append fails, its thread patch included', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await expect(t.store.appendItems(turn.id, [{ kind: 'not_a_kind' as never, data: {} }], { thread: { routerSession: '{"lost":true}', generatedTitle: 'Lost' } })).rejects.toMatchObject({ code: 'store_invalid_record' });
      expect(await t.store.getThread(thread.id)).toMatchObject({ routerSession: null, title: null, titleSource: null });
    });

    it('stages a step like an append: its records at once, committed once `committed` settles', async () => {
      const { thread, turn } = await t.threadWithTurn();
      const staged = await t.store.stageItems(turn.id, [{ kind: 'tool_call', data: { callId: 'c1' } }, { kind: 'tool_result', data: { callId: 'c1', result: [] } }], {
        status: 'running',
        addUsage: { inputTokens: 3, outputTokens: 1 },
      });
      expect(staged.records.map((item) => [item.ordinal, item.kind])).toEqual([
        [2, 'tool_call'],
        [3, 'tool_result'],
      ]);
      const next = await t.store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'done' } }], { status: 'completed', addUsage: { inputTokens: 4, outputTokens: 1 } });
      expect(next[0]?.ordinal).toBe(4);
      await staged.committed;
      expect((await t.store.listItems(thread.id)).map((item) => item.id)).toEqual([expect.any(String), ...staged.records.map((item) => item.id), next[0]?.id]);
      expect(await t.store.getTurn(turn.id)).toMatchObject({ status: 'completed', usage: { inputTokens: 7, outputTokens: 2 } });
      await expect(t.store.stageItems('missing', [{ kind: 'assistant_text', data: { text: 'x' } }])).rejects.toMatchObject({ code: 'store_not_found' });
    });

    it('appends a step and patches its turn in one transaction', async () => {
      const { turn } = await t.threadWithTurn();
      await t.store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'done' } }], { status: 'completed', addUsage: { inputTokens: 7, outputTokens: 2 } });
      expect(await t.store.getTurn(turn.id)).toMatchObject({ status: 'completed', usage: { inputTokens: 7, outputTokens: 2 } });
    });

    it('rolls back the whole step when one item fails', async () => {
      const { thread, turn } = await t.threadWithTurn();
      await t.store.appendItems(turn.id, [{ id: 'taken', kind: 'assistant_text', data: { text: 'a' } }]);
      const failure = await t.store
        .appendItems(turn.id, [{ kind: 'tool_call', data: { callId: 'c2' } }, { id: 'taken', kind: 'tool_result', data: {} }], { status: 'completed' })
        .then(() => undefined, (error: unknown) => error);
      expect(isPlumbError(failure) && failure.code).toBe('store_invalid_record');
      const bad = await t.store
        .appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'b' } }, { kind: 'error', data: { big: 10n as never } }])
        .then(() => undefined, (error: unknown) => error);
      expect(isPlumbError(bad) && bad.code).toBe('store_invalid_record');
      expect((await t.store.listItems(thread.id)).map((item) => item.ordinal)).toEqual([1, 2]);
      expect((await t.store.getTurn(turn.id))?.status).toBe('accepted');
      const next = await t.store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'c' } }]);
      expect(next[0]?.ordinal).toBe(3);
    });

    it('does not let the caller change stored data afterwards', async () => {
      const { thread, turn } = await t.threadWithTurn();
      const data = { text: 'kept', nested: { n: 1 } };
      await t.store.appendItems(turn.id, [{ kind: 'assistant_text', data }]);
      data.nested.n = 2;
      expect((await t.store.listItems(thread.id))[1]?.data).toEqual({ text: 'kept', nested: { n: 1 } });
    });

    it('refuses to append to a turn that does not exist', async () => {
      const error = await t.store.appendItems('nope', [{ kind: 'assistant_text', data: {} }]).then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(error) && error.code).toBe('store_not_found');
    });
  });
}
