import type { ItemRecord, Store, TurnStatus } from '../store/index.js';
import type { ThreadEvents, ThreadNotice } from './thread-events.js';

/** What a follower of a thread sees: each new item once, in order; turns' status changes as they are announced; last, the thread's deletion. */
export type FollowEvent = { readonly type: 'item'; readonly item: ItemRecord } | { readonly type: 'turn'; readonly turnId: string; readonly status: TurnStatus } | { readonly type: 'thread_deleted' };

export interface FollowOptions {
  readonly store: Store;
  readonly events: ThreadEvents;
  readonly threadId: string;
  /** Items after this ordinal (0: from the start). */
  readonly afterOrdinal?: number;
  readonly signal: AbortSignal;
  /** The journal is read at least this often even without a notice (a notice lost in transit). Milliseconds, default 10,000. */
  readonly pollMs?: number;
}

/**
 * A thread's items as they are committed, by whichever process runs its turns: in ordinal order,
 * with no gap and no repeat. It subscribes first, then reads the journal after `afterOrdinal`; a
 * notice whose items continue the last ordinal is used as it is, anything else (a gap, a notice
 * without items, a resync, a quiet `pollMs`) reads the journal after the last ordinal seen. Ends
 * when `signal` aborts, or with `thread_deleted` once the journal no longer has the thread (a
 * deletion's notice, or a read of the journal that finds it gone: retention in another process).
 */
export async function* followThread(options: FollowOptions): AsyncGenerator<FollowEvent, void, undefined> {
  const { store, events, threadId, signal } = options;
  const pollMs = options.pollMs ?? 10_000;
  let last = options.afterOrdinal ?? 0;
  const pending: ThreadNotice[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = events.subscribe(threadId, (notice) => {
    pending.push(notice);
    wake?.();
  });
  const onAbort = (): void => wake?.();
  signal.addEventListener('abort', onAbort, { once: true });
  let gone = false;
  /** The items after the last one seen; none, and `gone`, once the thread is deleted. */
  const read = async function* (): AsyncGenerator<FollowEvent, void, undefined> {
    const items = await store.listItems(threadId, { afterOrdinal: last });
    if (items.length === 0 && (await store.getThread(threadId)) === undefined) {
      gone = true;
      return;
    }
    for (const item of items) {
      if (item.ordinal !== last + 1) break;
      last = item.ordinal;
      yield { type: 'item', item };
    }
  };
  try {
    yield* read();
    while (!signal.aborted && !gone) {
      if (pending.length === 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, pollMs);
        });
        clearTimeout(timer);
        wake = undefined;
        if (signal.aborted) return;
      }
      const batch = pending.splice(0);
      let stale = batch.length === 0;
      for (const notice of batch) {
        const items = notice.items ?? [];
        if (items.length > 0 && items[0]!.ordinal <= last + 1 && items.every((item, index) => index === 0 || item.ordinal === items[index - 1]!.ordinal + 1)) {
          for (const item of items) {
            if (item.ordinal !== last + 1) continue;
            last = item.ordinal;
            yield { type: 'item', item };
          }
        } else if (notice.resync === true || notice.deleted === true || (notice.ordinal ?? items[items.length - 1]?.ordinal ?? 0) > last) stale = true;
        if (stale) yield* read();
        if (gone) break;
        if (notice.turnId !== undefined && notice.turnStatus !== undefined) yield { type: 'turn', turnId: notice.turnId, status: notice.turnStatus };
        stale = false;
      }
      if (stale) yield* read();
    }
    if (gone) yield { type: 'thread_deleted' };
  } finally {
    signal.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}
