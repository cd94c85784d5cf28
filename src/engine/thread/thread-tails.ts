import type { ChatMessage } from '../../providers/index.js';
import type { ItemRecord } from '../../store/index.js';
import type { PageContext } from '../context/index.js';

/**
 * A thread's context history as its last finished run left it, converted: the next run starts from
 * it instead of converting and counting the whole history again (a long thread's turn would else
 * cost in proportion to the thread).
 */
export interface KeptHistory {
  /** The window's first ordinal (right after the summary's marker; 0 without one). */
  readonly startOrdinal: number;
  /** The last ordinal it covers: the run's last item (a finished turn's). */
  readonly through: number;
  /** The messages of the items from `startOrdinal` through `through`. */
  readonly messages: readonly ChatMessage[];
  /** Their raw tokens, and whether one of them is a cut result. */
  readonly raw: number;
  readonly cut: boolean;
  /** The page context in effect at its end (the latest snapshot among its items). */
  readonly snapshot?: PageContext;
}

interface Tail {
  readonly items: readonly ItemRecord[];
  readonly history: KeptHistory | undefined;
}

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
  readonly #tails = new Map<string, Tail>();
  #held = 0;

  /** `keep`: items remembered per thread (the most a turn's context reads before its user item). */
  constructor(maxItems: number, keep: number) {
    this.#maxItems = maxItems;
    this.#keep = keep;
  }

  /** The thread's items with ordinals after `afterOrdinal`, when the remembered tail ends at `lastOrdinal` and reaches back that far (the kept array itself when that is all of it: not to be changed). */
  tail(threadId: string, afterOrdinal: number, lastOrdinal: number): readonly ItemRecord[] | undefined {
    const tail = this.#tails.get(threadId);
    if (tail === undefined) return undefined;
    const items = tail.items;
    const first = items[0];
    const last = items.at(-1);
    if (first === undefined || last === undefined || last.ordinal !== lastOrdinal || first.ordinal > afterOrdinal + 1) return undefined;
    // Most recently used last in the map's order.
    this.#tails.delete(threadId);
    this.#tails.set(threadId, tail);
    const start = afterOrdinal + 1 - first.ordinal;
    return start <= 0 ? items : items.slice(start);
  }

  /** The thread's kept items, all of them, when they end at `lastOrdinal` (as `tail` from the first kept one). */
  kept(threadId: string, lastOrdinal: number): readonly ItemRecord[] | undefined {
    const first = this.#tails.get(threadId)?.items[0];
    return first === undefined ? undefined : this.tail(threadId, first.ordinal - 1, lastOrdinal);
  }

  /** The converted history kept with the thread's items, when it ends where they end (read right after `kept` found them current). */
  history(threadId: string): KeptHistory | undefined {
    const tail = this.#tails.get(threadId);
    return tail?.history !== undefined && tail.history.through === tail.items.at(-1)?.ordinal ? tail.history : undefined;
  }

  /**
   * Remembers the thread's items as a run left them (in ordinal order, consecutive), unless they are
   * its first turn's only: the last `keep`, or every item from ordinal `from` on when that is more
   * (the history the next turn's context starts at), within the bound; with them the converted
   * history, when the run left one that the kept items reach back to.
   */
  remember(threadId: string, items: readonly ItemRecord[], from = Number.POSITIVE_INFINITY, history?: KeptHistory): void {
    this.forget(threadId);
    const first = items[0];
    // A turn's items are consecutive (one active turn per thread): first and last of one turn from ordinal 1 is the thread's first turn.
    if (this.#maxItems === 0 || first === undefined || (first.ordinal === 1 && items.at(-1)?.turnId === first.turnId)) return;
    const start = from <= first.ordinal ? 0 : items.findIndex((item) => item.ordinal >= from);
    const since = start < 0 ? 0 : items.length - start;
    const count = Math.min(Math.max(this.#keep, since), this.#maxItems);
    // The run is over: its items no longer change, so all of them are kept as they are, without a copy.
    const kept = count >= items.length ? items : items.slice(-count);
    const reaches = history !== undefined && (kept[0]?.ordinal ?? Infinity) <= Math.max(1, history.startOrdinal);
    this.#tails.set(threadId, { items: kept, history: reaches ? history : undefined });
    this.#held += kept.length;
    for (const [oldest, evicted] of this.#tails) {
      if (this.#held <= this.#maxItems) break;
      this.#tails.delete(oldest);
      this.#held -= evicted.items.length;
    }
  }

  forget(threadId: string): void {
    const tail = this.#tails.get(threadId);
    if (tail === undefined) return;
    this.#tails.delete(threadId);
    this.#held -= tail.items.length;
  }
}

/**
 * How many items before a turn a thread's tail holds, and the engine keeps per thread: enough for
 * the history since the summary's marker of most threads. When the marker is not in it (or the
 * thread has no summary), the whole thread is read.
 */
export const tailOrdinals = 200;
