import type { ItemRecord, Store, TurnPatch } from '../store/index.js';
import type { ThreadEvents } from './thread-events.js';

/**
 * The store with a notice after each committed write to a thread (`ThreadEvents`): appended
 * items (a staged step once it is committed), a new turn's user item, a turn's status change, a
 * recovery's ending, a thread's deletion. Reads and everything else pass through unchanged.
 */
export function announceWrites(store: Store, events: ThreadEvents): Store {
  const announceItems = (records: readonly ItemRecord[], patch: TurnPatch | undefined): void => {
    const last = records[records.length - 1];
    if (last === undefined) return;
    events.publish({ threadId: last.threadId, turnId: last.turnId, items: records, ordinal: last.ordinal, ...(patch?.status === undefined ? {} : { turnStatus: patch.status }) });
  };
  const wrapped: Partial<Store> = {
    async beginTurn(input) {
      const begun = await store.beginTurn(input);
      if (begun.outcome === 'created') events.publish({ threadId: begun.thread.id, turnId: begun.turn.id, items: [begun.userItem], ordinal: begun.userItem.ordinal, turnStatus: 'accepted' });
      return begun;
    },
    async appendItems(turnId, items, turnPatch) {
      const records = await store.appendItems(turnId, items, turnPatch);
      announceItems(records, turnPatch);
      return records;
    },
    async stageItems(turnId, items, turnPatch) {
      const staged = await store.stageItems(turnId, items, turnPatch);
      // Announced once committed: a follower never sees what a crash could take back. A lost step is never announced.
      staged.committed.then(
        () => announceItems(staged.records, turnPatch),
        () => undefined,
      );
      return staged;
    },
    async updateTurn(id, patch, from) {
      const turn = await store.updateTurn(id, patch, from);
      if (turn !== undefined && patch.status !== undefined) events.publish({ threadId: turn.threadId, turnId: turn.id, turnStatus: turn.status });
      return turn;
    },
    async deleteThread(id) {
      const deleted = await store.deleteThread(id);
      if (deleted) events.publish({ threadId: id, deleted: true });
      return deleted;
    },
    async deleteThreadsUpdatedBefore(cutoff, options) {
      const deleted = await store.deleteThreadsUpdatedBefore(cutoff, options);
      for (const threadId of deleted) events.publish({ threadId, deleted: true });
      return deleted;
    },
    async endOrphanedTurn(turnId, end) {
      const turn = await store.endOrphanedTurn(turnId, end);
      if (turn !== undefined) events.publish({ threadId: turn.threadId, turnId: turn.id, turnStatus: turn.status, resync: true });
      return turn;
    },
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      const own = (wrapped as Record<PropertyKey, unknown>)[property];
      if (own !== undefined) return own;
      const value: unknown = Reflect.get(target, property, receiver);
      // The store's methods use its #private fields: they must run with the store itself as `this`.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
