import type { ItemRecord } from '../../store/index.js';

/**
 * The recent items of the threads this engine ran last, so that a thread's next turn need not
 * read its tail back from the store. Items never change once written and a thread's ordinals are
 * consecutive, so a remembered tail is current exactly when its last ordinal is the one just
 * before the new turn's user item: anything appended in between (another process, a retry, a
 * resumed confirmation) shows as a gap and the tail is read from the store instead.
 *
 * Bounded by `maxItems` items in all; the thread used longest ago is forgotten first. A thread's
 * first turn is not remembered: many threads never get a second (a question asked once), and
 * their tails would push out those of the conversations that go on; a thread's second turn reads
 * its short tail from the store once, and its tail is kept from then on.
 */
export class ThreadTails {
  readonly #maxItems: number;
  readonly #keep: number;
  readonly #tails = new Map<string, readonly ItemRecord[]>();
  #held = 0;

  /** `keep`: items remembered per thread (the most a turn's context reads before its user item). */
  constructor(maxItems: number, keep: number) {
    this.#maxItems = maxItems;
    this.#keep = keep;
  }

  /** The thread's items with ordinals after `afterOrdinal`, when the remembered tail ends at `lastOrdinal` and reaches back that far. */
  tail(threadId: string, afterOrdinal: number, lastOrdinal: number): ItemRecord[] | undefined {
    const items = this.#tails.get(threadId);
    if (items === undefined) return undefined;
    const first = items[0];
    const last = items.at(-1);
    if (first === undefined || last === undefined || last.ordinal !== lastOrdinal || first.ordinal > afterOrdinal + 1) return undefined;
    // Most recently used last in the map's order.
    this.#tails.delete(threadId);
    this.#tails.set(threadId, items);
    return items.slice(afterOrdinal + 1 - first.ordinal);
  }

  /** The thread's kept items, all of them, when they end at `lastOrdinal` (as `tail` from the first kept one). */
  kept(threadId: string, lastOrdinal: number): ItemRecord[] | undefined {
    const first = this.#tails.get(threadId)?.[0];
    return first === undefined ? undefined : this.tail(threadId, first.ordinal - 1, lastOrdinal);
  }

  /**
   * Remembers the thread's items as a run left them (in ordinal order, consecutive), unless they are
   * its first turn's only: the last `keep`, or every item from ordinal `from` on when that is more
   * (the history the next turn's context starts at), within the bound.
   */
  remember(threadId: string, items: readonly ItemRecord[], from = Number.POSITIVE_INFINITY): void {
    this.forget(threadId);
    const first = items[0];
    // A turn's items are consecutive (one active turn per thread): first and last of one turn from ordinal 1 is the thread's first turn.
    if (this.#maxItems === 0 || first === undefined || (first.ordinal === 1 && items.at(-1)?.turnId === first.turnId)) return;
    const start = from <= first.ordinal ? 0 : items.findIndex((item) => item.ordinal >= from);
    const since = start < 0 ? 0 : items.length - start;
    const kept = items.slice(-Math.min(Math.max(this.#keep, since), this.#maxItems));
    this.#tails.set(threadId, kept);
    this.#held += kept.length;
    for (const [oldest, evicted] of this.#tails) {
      if (this.#held <= this.#maxItems) break;
      this.#tails.delete(oldest);
      this.#held -= evicted.length;
    }
  }

  forget(threadId: string): void {
    const items = this.#tails.get(threadId);
    if (items === undefined) return;
    this.#tails.delete(threadId);
    this.#held -= items.length;
  }
}

/**
 * How many items before a turn a thread's tail holds, and the engine keeps per thread: enough for
 * the history since the summary's marker of most threads. When the marker is not in it (or the
 * thread has no summary), the whole thread is read.
 */
export const tailOrdinals = 200;
