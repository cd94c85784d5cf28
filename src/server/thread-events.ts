import type { ItemRecord, TurnStatus } from '../store/index.js';

/**
 * What a process announces after a write to a thread's journal: the items it committed (their
 * ordinals say where they go), or only that the thread moved (`resync`: read the journal), and a
 * turn's new status. A notice is a doorbell, not the record: the journal is. Followers check the
 * ordinals and read the journal for anything a notice does not carry, so a lost, late or repeated
 * notice never makes them skip, repeat or reorder an item.
 */
export interface ThreadNotice {
  readonly threadId: string;
  readonly turnId?: string;
  /** Committed items, consecutive, in order (left out when they are large). */
  readonly items?: readonly ItemRecord[];
  /** The thread's last committed ordinal after the write, when known. */
  readonly ordinal?: number;
  readonly turnStatus?: TurnStatus;
  /** The journal may hold what no notice announced (a reconnect, a recovery): read it. */
  readonly resync?: boolean;
  /** The thread was deleted (by its owner, or by retention): its followers check the journal and end. */
  readonly deleted?: boolean;
}

export type ThreadListener = (notice: ThreadNotice) => void;

/**
 * A request that whichever process runs the thread's turn stop it: a cancel that reached a process
 * where the turn does not run. Every process hears it and cancels locally, a no-op where the turn
 * is not; the sender checked that the actor owns the thread.
 */
export interface TurnCancel {
  readonly threadId: string;
  readonly mode: 'immediate' | 'graceful';
}

export type CancelListener = (cancel: TurnCancel) => void;

/**
 * The transport of thread notices between processes (Redis pub/sub: `createRedisThreadEvents`) or
 * inside one (`createLocalThreadEvents`), and of cancel requests to every process. `publish` and
 * `requestCancel` never throw and never wait; a listener sees this process's own messages at once
 * and other processes' as they arrive.
 */
export interface ThreadEvents extends AsyncDisposable {
  publish(notice: ThreadNotice): void;
  /** Starts delivering the thread's notices to `listener`; returns its removal. */
  subscribe(threadId: string, listener: ThreadListener): () => void;
  /** Asks every process, this one included, to stop the thread's turn where it runs. */
  requestCancel(cancel: TurnCancel): void;
  /** Starts delivering every process's cancel requests to `listener`; returns its removal. */
  onCancel(listener: CancelListener): () => void;
  close(): Promise<void>;
}

/** The listeners of each thread, shared by the transports. */
export class ThreadListeners {
  readonly #byThread = new Map<string, Set<ThreadListener>>();

  add(threadId: string, listener: ThreadListener): { readonly first: boolean; readonly remove: () => boolean } {
    let listeners = this.#byThread.get(threadId);
    const first = listeners === undefined;
    if (listeners === undefined) this.#byThread.set(threadId, (listeners = new Set()));
    listeners.add(listener);
    const own = listeners;
    return {
      first,
      // True when it was the thread's last listener.
      remove: () => {
        own.delete(listener);
        if (own.size > 0 || this.#byThread.get(threadId) !== own) return false;
        this.#byThread.delete(threadId);
        return true;
      },
    };
  }

  deliver(notice: ThreadNotice, report: (error: unknown) => void): void {
    const listeners = this.#byThread.get(notice.threadId);
    if (listeners === undefined) return;
    for (const listener of [...listeners]) {
      try {
        listener(notice);
      } catch (error) {
        report(error);
      }
    }
  }

  threads(): readonly string[] {
    return [...this.#byThread.keys()];
  }

  /** Every listener of every thread is told to read its journal (after a gap in the transport). */
  resyncAll(report: (error: unknown) => void): void {
    for (const threadId of this.threads()) this.deliver({ threadId, resync: true }, report);
  }
}

/** The listeners of cancel requests, shared by the transports. */
export class CancelListeners {
  readonly #listeners = new Set<CancelListener>();

  add(listener: CancelListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  deliver(cancel: TurnCancel, report: (error: unknown) => void): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(cancel);
      } catch (error) {
        report(error);
      }
    }
  }
}

/** Notices within one process: a single `plumb serve` without Redis. */
export function createLocalThreadEvents(report: (error: unknown) => void = () => undefined): ThreadEvents {
  const listeners = new ThreadListeners();
  const cancels = new CancelListeners();
  let closed = false;
  const close = (): Promise<void> => {
    closed = true;
    return Promise.resolve();
  };
  return {
    publish: (notice) => {
      if (!closed) listeners.deliver(notice, report);
    },
    subscribe: (threadId, listener) => listeners.add(threadId, listener).remove,
    requestCancel: (cancel) => {
      if (!closed) cancels.deliver(cancel, report);
    },
    onCancel: (listener) => cancels.add(listener),
    close,
    [Symbol.asyncDispose]: close,
  };
}
