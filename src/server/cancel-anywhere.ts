import type { Actor } from '../core/index.js';
import { PlumbError } from '../core/index.js';
import { activeTurnStatuses } from '../store/index.js';
import type { Store, TurnStatus } from '../store/index.js';
import type { ChatEngine } from './engine-port.js';
import type { ThreadEvents } from './thread-events.js';

export interface CancelledTurn {
  readonly id: string;
  readonly status: string;
  readonly failureCode: string | null;
}

export interface CancelTurnRequest {
  readonly threadId: string;
  readonly mode: 'immediate' | 'graceful';
  readonly actor: Actor;
  /** The client went away: stop waiting (the request to stop the turn stays sent). */
  readonly signal?: AbortSignal;
}

/** Stops the thread's active turn; resolves with it once it settled, undefined when none was active (or the wait was aborted). */
export type CancelTurn = (request: CancelTurnRequest) => Promise<CancelledTurn | undefined>;

export interface CancelAnywhereOptions {
  /** The journal the engine writes, and the notices of every process on it. */
  readonly store: Store;
  readonly events: ThreadEvents;
  /** Longest wait for another process to stop the turn; past it, `cancel_timeout`. Milliseconds. */
  readonly timeoutMs: number;
  /** How often the turn is re-read while waiting, since a notice may be lost. Milliseconds, default 250. */
  readonly pollMs?: number;
}

/**
 * A cancel that reaches the turn wherever it runs: the engine's own first (a turn of this process,
 * or a waiting one); when the thread's latest turn is still active, it runs in another process,
 * which is asked over `events` to stop it, and the answer waits until the journal says it ended.
 */
export function cancelAnywhere(cancel: NonNullable<ChatEngine['cancel']>, options: CancelAnywhereOptions): CancelTurn {
  return async ({ threadId, mode, actor, signal }) => {
    const local = await cancel({ threadId, mode, actor });
    if (local !== undefined) return local;
    const latest = (await options.store.listTurns(threadId)).at(-1);
    if (latest === undefined || !isActive(latest.status)) return undefined;
    return stopElsewhere(options, { threadId, mode, turnId: latest.id, ...(signal === undefined ? {} : { signal }) });
  };
}

function stopElsewhere(options: CancelAnywhereOptions, request: { readonly threadId: string; readonly turnId: string; readonly mode: 'immediate' | 'graceful'; readonly signal?: AbortSignal }): Promise<CancelledTurn | undefined> {
  const { store, events } = options;
  const { threadId, turnId, mode, signal } = request;
  return new Promise((resolve, reject) => {
    let finished = false;
    const finish = (settle: () => void): void => {
      if (finished) return;
      finished = true;
      unsubscribe();
      clearInterval(poll);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const check = (): void => {
      store.getTurn(turnId).then(
        (turn) => {
          if (turn === undefined) finish(() => resolve(undefined));
          else if (!isActive(turn.status)) finish(() => resolve({ id: turn.id, status: turn.status, failureCode: turn.failureCode }));
        },
        (error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    };
    const onAbort = (): void => finish(() => resolve(undefined));
    const unsubscribe = events.subscribe(threadId, (notice) => {
      if (notice.resync === true || (notice.turnId === turnId && notice.turnStatus !== undefined && !isActive(notice.turnStatus))) check();
    });
    const poll = setInterval(check, options.pollMs ?? 250);
    const timer = setTimeout(() => finish(() => reject(new PlumbError('cancel_timeout', `The turn runs in another process, which did not stop it within ${options.timeoutMs} ms (cancelTimeoutMs).`, { details: { turnId } }))), options.timeoutMs);
    if (signal?.aborted === true) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    // Asked only once listening, so that a turn that stops at once is not missed; checked once in case it already ended.
    events.requestCancel({ threadId, mode });
    check();
  });
}

function isActive(status: TurnStatus): boolean {
  return activeTurnStatuses.includes(status);
}
