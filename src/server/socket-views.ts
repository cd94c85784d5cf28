import type { WebSocket } from 'ws';
import { isPlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { ChatDeps } from './chat-deps.js';
import type { ThreadObserver } from './thread-views.js';
import { corkEachTick } from './tick-cork.js';
import type { Socket } from 'node:net';
import { wholeNumber } from './whole-number.js';

/** The frames of a socket beside its turns: `subscribe` / `unsubscribe` (live views) and `cancel`. */
export interface SocketExtraFrame {
  readonly type: 'subscribe' | 'unsubscribe' | 'cancel';
  readonly thread?: unknown;
  readonly after?: unknown;
  readonly mode?: unknown;
}

export const socketExtraTypes: readonly string[] = ['subscribe', 'unsubscribe', 'cancel'];

type Send = (event: { readonly type: string } & Record<string, unknown>) => void;

/**
 * What one socket does with the frames that are not turns. A `subscribe` adds a live view of a
 * thread to the socket (its events are frames with a `seq`, which a turn's own events never have);
 * a socket holds at most `viewsPerSocket` at once, and every one of them ends with the socket.
 * A `cancel` stops the thread's active turn, the socket's own or any other (in another process
 * too, when the server follows threads), and is answered with `cancel_result`.
 */
export function socketExtras(socket: WebSocket, raw: Socket | undefined, deps: ChatDeps, actor: Actor, send: Send, currentThread: () => string | undefined): { handle(frame: SocketExtraFrame): Promise<void>; close(): void } {
  const subscriptions = new Map<string, ThreadObserver>();
  // Aborts the cancels that wait for another process when the socket ends.
  const closed = new AbortController();
  const cork = corkEachTick(raw);
  const fail = (code: string, message: string, threadId?: string): void => send({ type: 'error', code, message, ...(threadId === undefined ? {} : { thread_id: threadId }) });
  const notFound = (threadId: string): void => fail('thread_not_found', 'No thread of yours has this id.', threadId);
  const threadOf = (frame: SocketExtraFrame): string | undefined => (typeof frame.thread === 'string' && frame.thread !== '' ? frame.thread : currentThread());

  const subscribe = async (frame: SocketExtraFrame): Promise<void> => {
    const state = deps.engine.threads.state?.bind(deps.engine.threads);
    const views = deps.views;
    if (state === undefined || views === undefined) return fail('views_unavailable', 'This server does not serve live thread views (it follows no threads: see docs/protocol.md, "Live thread views").');
    const threadId = threadOf(frame);
    if (threadId === undefined) return fail('bad_event', 'A subscribe frame names its thread: {"type":"subscribe","thread":"<thread id>","after":"<seq>"?}.');
    const after = frame.after === undefined || frame.after === null ? undefined : wholeNumber(frame.after);
    if (frame.after !== undefined && frame.after !== null && after === undefined) return fail('bad_event', "'after' is the seq of a view event: a whole number, 0 or more.");
    try {
      await state({ actor, threadId });
    } catch (error) {
      if (isPlumbError(error) && (error.code === 'thread_not_found' || error.code === 'session_required')) return notFound(threadId);
      throw error;
    }
    subscriptions.get(threadId)?.close();
    subscriptions.delete(threadId);
    if (subscriptions.size >= deps.viewsPerSocket) return fail('too_many_subscriptions', `A socket follows at most ${deps.viewsPerSocket} threads at once (viewsPerSocket); unsubscribe from one first.`, threadId);
    const observer = views.observe({
      threadId,
      ...(after === undefined ? {} : { after }),
      state: () => state({ actor, threadId }),
      sink: {
        write: (batch, drained) => {
          if (socket.readyState !== socket.OPEN) return;
          cork.hold();
          const frames = batch.json();
          for (let index = 0; index < frames.length; index++) socket.send(frames[index]!, index === frames.length - 1 ? () => drained() : undefined);
        },
        end: () => {
          if (subscriptions.get(threadId) === observer) subscriptions.delete(threadId);
        },
      },
    });
    subscriptions.set(threadId, observer);
  };

  const cancel = async (frame: SocketExtraFrame): Promise<void> => {
    const engineCancel = deps.cancel;
    if (engineCancel === undefined) return fail('bad_event', 'This server cannot cancel turns.');
    const threadId = threadOf(frame);
    if (threadId === undefined) return fail('bad_event', 'A cancel frame names its thread (or follows the socket\'s own): {"type":"cancel","thread":"<thread id>","mode":"immediate"|"graceful"}.');
    if (frame.mode !== undefined && frame.mode !== 'immediate' && frame.mode !== 'graceful') return fail('bad_event', "'mode' is immediate or graceful.");
    try {
      const turn = await engineCancel({ threadId, mode: frame.mode === 'graceful' ? 'graceful' : 'immediate', actor, signal: closed.signal });
      send({ type: 'cancel_result', thread_id: threadId, turn: turn === undefined ? null : { id: turn.id, status: turn.status, failure_code: turn.failureCode } });
    } catch (error) {
      if (isPlumbError(error) && (error.code === 'thread_not_found' || error.code === 'session_required')) return notFound(threadId);
      if (isPlumbError(error) && error.code === 'cancel_timeout') return fail(error.code, error.message, threadId);
      throw error;
    }
  };

  return {
    async handle(frame) {
      if (frame.type === 'subscribe') return subscribe(frame);
      if (frame.type === 'cancel') return cancel(frame);
      const threadId = threadOf(frame);
      if (threadId !== undefined) {
        subscriptions.get(threadId)?.close();
        subscriptions.delete(threadId);
      }
    },
    close() {
      closed.abort();
      for (const observer of subscriptions.values()) observer.close();
      subscriptions.clear();
    },
  };
}
