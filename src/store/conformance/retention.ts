import { isPlumbError } from '../../core/index.js';
import { confirmation } from './suite.js';
import type { ConformanceSuite } from './suite.js';

/** The store conformance cases of retention: old threads and resolved confirmations deleted in bounded batches. */
export function retentionCases(t: ConformanceSuite): void {
  const { describe, it, expect } = t.vitest;
  describe('retention', () => {
    async function endedThread(owner: string, requestKey: string, status: 'completed' | 'accepted' = 'completed') {
      const made = await t.threadWithTurn(owner, requestKey);
      if (status === 'completed') await t.store.updateTurn(made.turn.id, { status: 'completed' });
      return made;
    }

    it('deletes threads not updated since the cutoff, oldest first and in batches, keeping a thread whose turn is still active', async () => {
      const oldest = await endedThread('user:alice', 'a');
      await t.store.createConfirmation(confirmation('c-old', oldest.thread.id, oldest.turn.id, 'user:alice', t.now + 10));
      t.now += 10;
      const older = await endedThread('user:bob', 'b');
      t.now += 10;
      const busy = await endedThread('user:carol', 'c', 'accepted');
      t.now += 10;
      const cutoff = t.now;
      const recent = await endedThread('user:alice', 'd');
      expect(await t.store.deleteThreadsUpdatedBefore(cutoff, { limit: 1 })).toEqual([oldest.thread.id]);
      expect(await t.store.deleteThreadsUpdatedBefore(cutoff, { limit: 10 })).toEqual([older.thread.id]);
      expect(await t.store.deleteThreadsUpdatedBefore(cutoff)).toEqual([]);
      expect(await t.store.getThread(oldest.thread.id)).toBeUndefined();
      expect(await t.store.getTurn(oldest.turn.id)).toBeUndefined();
      expect(await t.store.listItems(oldest.thread.id)).toEqual([]);
      expect(await t.store.getConfirmation('c-old')).toBeUndefined();
      expect((await t.store.getThread(busy.thread.id))?.id).toBe(busy.thread.id);
      expect((await t.store.listTurns(recent.thread.id)).map((turn) => turn.id)).toEqual([recent.turn.id]);
      const refused = await t.store.deleteThreadsUpdatedBefore(cutoff, { limit: 0 }).then(() => undefined, (e: unknown) => e);
      expect(isPlumbError(refused) && refused.code).toBe('store_invalid_record');
    });

    it('deletes confirmations resolved before the cutoff, never pending or claimed ones', async () => {
      const { thread, turn } = await t.threadWithTurn();
      for (const id of ['pending', 'claimed', 'approved', 'lapsed']) await t.store.createConfirmation(confirmation(id, thread.id, turn.id, 'user:alice', t.now + 5));
      await t.store.claimConfirmation('claimed', 'user:alice', t.now);
      await t.store.claimConfirmation('approved', 'user:alice', t.now);
      await t.store.resolveConfirmation('approved', 'approved', t.now);
      t.now += 5;
      await t.store.claimConfirmation('lapsed', 'user:alice', t.now);
      expect(await t.store.deleteConfirmationsResolvedBefore(t.now)).toBe(1);
      expect(await t.store.getConfirmation('approved')).toBeUndefined();
      t.now += 100;
      expect(await t.store.deleteConfirmationsResolvedBefore(t.now, { limit: 5 })).toBe(1);
      expect(await t.store.deleteConfirmationsResolvedBefore(t.now)).toBe(0);
      expect((await t.store.getConfirmation('pending'))?.status).toBe('pending');
      expect((await t.store.getConfirmation('claimed'))?.status).toBe('claimed');
    });

    it('resolves the claimed confirmations of a turn as outcome unknown (recovery), after which retention applies', async () => {
      const { thread, turn } = await t.threadWithTurn();
      const other = await t.threadWithTurn('user:alice', 'r2');
      for (const id of ['cut-a', 'cut-b', 'waiting']) await t.store.createConfirmation(confirmation(id, thread.id, turn.id, 'user:alice', t.now + 50));
      await t.store.createConfirmation(confirmation('elsewhere', other.thread.id, other.turn.id, 'user:alice', t.now + 50));
      for (const id of ['cut-a', 'cut-b', 'elsewhere']) await t.store.claimConfirmation(id, 'user:alice', t.now);
      const unknown = { outcome: 'outcome_unknown' };
      const resolved = await t.store.resolveClaimedConfirmations(turn.id, unknown, t.now);
      expect(resolved.map((record) => [record.id, record.status, record.resolution, record.resolvedAt])).toEqual([
        ['cut-a', 'resolved', unknown, t.now],
        ['cut-b', 'resolved', unknown, t.now],
      ]);
      expect(await t.store.resolveClaimedConfirmations(turn.id, unknown, t.now)).toEqual([]);
      expect((await t.store.getConfirmation('waiting'))?.status).toBe('pending');
      expect((await t.store.getConfirmation('elsewhere'))?.status).toBe('claimed');
      t.now += 10;
      expect(await t.store.deleteConfirmationsResolvedBefore(t.now)).toBe(2);
      expect(await t.store.getConfirmation('cut-a')).toBeUndefined();
    });
  });
}
