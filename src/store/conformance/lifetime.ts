import { isPlumbError } from '../../core/index.js';
import { confirmation } from './suite.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of closing, and what a durable store keeps across a reopen. */
export function lifetimeCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('lifetime', () => {
    it('refuses work after close, and close is idempotent', async () => {
      await t.store.close();
      await t.store.close();
      const error = await t.store.createThread({ owner: 'user:alice' }).then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(error) && error.code).toBe('store_closed');
    });

    if (t.options.durable) it('finds every committed record after closing and reopening', async () => {
      if (t.fixture.reopen === undefined) throw new Error(`the ${t.options.name} fixture must offer reopen`);
      const { thread, turn } = await t.threadWithTurn();
      await t.store.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'persisted' } }], { status: 'waiting', addUsage: { inputTokens: 2, outputTokens: 3 } });
      await t.store.createConfirmation(confirmation('c1', thread.id, turn.id, 'user:alice', t.now + 30_000));
      await t.store.updateThread(thread.id, { summary: 's', summaryThroughItemId: 'x' });
      const before = await t.store.listItems(thread.id);
      await t.store.close();
      const reopened = await t.fixture.reopen();
      t.extraStores.push(reopened);
      expect(await reopened.listItems(thread.id)).toEqual(before);
      expect(await reopened.getTurn(turn.id)).toMatchObject({ status: 'waiting', usage: { inputTokens: 2, outputTokens: 3 } });
      expect(await reopened.getThread(thread.id)).toMatchObject({ summary: 's', summaryThroughItemId: 'x' });
      expect((await reopened.claimConfirmation('c1', 'user:alice', t.now)).outcome).toBe('claimed');
      const next = await reopened.appendItems(turn.id, [{ kind: 'assistant_text', data: { text: 'after' } }]);
      expect(next[0]?.ordinal).toBe(before.length + 1);
    });
  });
}
