import { PlumbError } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import type { BeginTurnResult, QueuedMessage, Store } from '../../store/index.js';
import { activeTurnStatuses } from '../../store/index.js';
import type { EventChannel } from '../shared/index.js';
import type { ChatEvent } from '../shared/index.js';
import { holdsQueue, runIdOf } from '../shared/index.js';
import type { QueuedView } from './thread-ops.js';

/** Who waits on a queued message: the stream of the `send` that queued it. */
interface Waiter {
  readonly channel: EventChannel<ChatEvent>;
  readonly canConfirm: boolean;
  readonly settle: () => void;
}

/** A queued message begun as its thread's turn, handed to the engine to run. */
export interface QueuedStart {
  readonly message: QueuedMessage;
  readonly begun: Extract<BeginTurnResult, { outcome: 'created' }>;
  /** The sender's stream, or a detached one when nobody waits in this process. */
  readonly channel: EventChannel<ChatEvent>;
  readonly canConfirm: boolean;
}

export interface ThreadQueueOptions {
  readonly store: Store;
  readonly limit: () => number;
  readonly lease: () => string;
  /** Runs a queued message's turn to its end or pause. */
  readonly run: (start: QueuedStart) => Promise<void>;
  readonly channel: () => EventChannel<ChatEvent>;
  /** Stops the thread's current attempt gracefully (a person's stop), resolving once it ended; nothing when none runs here. */
  readonly stop: (threadId: string) => Promise<void>;
  /** A thread's queue changed (for views). */
  readonly changed: (threadId: string) => void;
  readonly report: (error: unknown) => void;
  /** Keeps background work, so that the engine's close waits for it. */
  readonly track: (task: Promise<void>) => void;
}

/**
 * The thread queue (docs/engine.md, "Queue and steering"): a message sent while its thread is busy
 * (a turn running, or waiting on a confirmation or a question) is journaled in the store's queue
 * and its stream waits; when the thread's turn ends, the queue's head becomes the next turn (one
 * at a time, whichever engine ends the turn), unless a person stopped that turn. "Send now" marks
 * a message, moves it to the head, stops the current attempt and runs the message next.
 */
export class ThreadQueue {
  readonly #options: ThreadQueueOptions;
  readonly #waiters = new Map<string, Waiter[]>();
  /** Per thread, the promotion under way: one at a time. */
  readonly #promoting = new Map<string, Promise<void>>();
  #closed = false;

  constructor(options: ThreadQueueOptions) {
    this.#options = options;
  }

  /**
   * Queues a message for a busy thread and waits: its stream gets `queued`, then `unqueued` and,
   * when it runs as its own turn, that turn's events. Resolves once it left the queue (and its turn
   * ended or paused) or the engine closed; false when the queue is full (nothing written).
   */
  async wait(input: { readonly threadId: string; readonly owner: string; readonly actor: JsonValue; readonly requestKey: string; readonly text: string; readonly language: string | undefined }, channel: EventChannel<ChatEvent>, canConfirm: boolean): Promise<boolean> {
    const { store } = this.#options;
    const result = await store.enqueueMessage({ threadId: input.threadId, owner: input.owner, actor: input.actor, requestKey: input.requestKey, text: input.text, language: input.language ?? null, limit: this.#options.limit() });
    if (result.outcome === 'full') return false;
    const { message } = result;
    const left = new Promise<void>((settle) => {
      const waiters = this.#waiters.get(message.id) ?? [];
      waiters.push({ channel, canConfirm, settle });
      this.#waiters.set(message.id, waiters);
    });
    void channel.push({ type: 'queued', queue_id: message.id, position: result.position, text: message.text, thread_id: message.threadId, turn_id: '', run_id: '' });
    if (result.outcome === 'queued') this.#options.changed(message.threadId);
    // The turn that made the thread busy may have ended meanwhile: the head may run at once.
    this.promote(message.threadId);
    await left;
    return true;
  }

  /**
   * Runs the thread's next queued message when the thread is free (in the background, one promotion
   * at a time). After a person's stop the queue is held: nothing runs until they send one now (or
   * the conversation goes on: a turn that ends other than stopped lets the queue run again).
   */
  promote(threadId: string, chosen?: string): void {
    if (this.#closed) return;
    const previous = this.#promoting.get(threadId);
    // The usual case, no promotion under way: it starts now, without a hop through a resolved promise.
    const next: Promise<void> = (previous === undefined ? this.#promoteOnce(threadId, chosen) : previous.then(() => this.#promoteOnce(threadId, chosen))).then(
      () => this.#promoted(threadId, next),
      (error: unknown) => {
        this.#promoted(threadId, next);
        this.#options.report(error);
      },
    );
    this.#promoting.set(threadId, next);
    this.#options.track(next);
  }

  #promoted(threadId: string, promotion: Promise<void>): void {
    if (this.#promoting.get(threadId) === promotion) this.#promoting.delete(threadId);
  }

  /**
   * "Send now": the thread's current attempt stops at once (gracefully, so that a running tool may
   * finish) and the chosen message runs as the next turn. A turn running in another process is
   * left to it: the message, moved to the head, runs when that turn ends.
   */
  sendNow(threadId: string, messageId: string): void {
    const task = this.#options.stop(threadId).then(() => this.promote(threadId, messageId));
    this.#options.track(task.catch((error: unknown) => this.#options.report(error)));
  }

  async #promoteOnce(threadId: string, chosen: string | undefined): Promise<void> {
    const { store } = this.#options;
    for (;;) {
      if (this.#closed) return;
      const queued = await store.listQueued(threadId);
      const head = chosen === undefined ? queued[0] : queued.find((message) => message.id === chosen);
      if (head === undefined) return;
      if (chosen === undefined && (await this.#heldByStop(threadId))) return;
      const taken = await store.beginQueuedTurn(head.id, { lease: this.#options.lease() });
      // Gone meanwhile (run elsewhere, removed): the next one is the head now.
      if (taken === undefined) {
        if (chosen !== undefined) return;
        continue;
      }
      if (taken.begun.outcome === 'busy') return;
      const waiters = this.#waiters.get(head.id) ?? [];
      this.#waiters.delete(head.id);
      this.#options.changed(threadId);
      if (taken.begun.outcome === 'existing') {
        // Its turn was begun before (a resend, or a crash after the acceptance): that turn is the thread's.
        this.#release(waiters, { type: 'unqueued', queue_id: head.id, reason: 'started', thread_id: threadId, turn_id: taken.begun.turn.id, run_id: runIdOf(taken.begun.turn.id, 1) });
        if (chosen !== undefined) return;
        continue;
      }
      const reader = waiters.find((waiter) => !waiter.channel.detached);
      const channel = reader?.channel ?? this.#detached();
      for (const waiter of waiters) void waiter.channel.push({ type: 'unqueued', queue_id: head.id, reason: 'started', thread_id: threadId, turn_id: taken.begun.turn.id, run_id: runIdOf(taken.begun.turn.id, 1) });
      // Nobody reads here (a plain request that went, or another process): a write still waits for a person.
      const canConfirm = reader === undefined ? true : reader.canConfirm;
      const running = this.#options.run({ message: taken.message, begun: taken.begun, channel, canConfirm }).finally(() => {
        for (const waiter of waiters) waiter.settle();
      });
      this.#options.track(running.catch((error: unknown) => this.#options.report(error)));
      return;
    }
  }

  /** The thread's latest turn ended by a person's stop: its queue waits for them. */
  async #heldByStop(threadId: string): Promise<boolean> {
    const { store } = this.#options;
    const latest = (await store.listTurns(threadId)).at(-1);
    if (latest === undefined || activeTurnStatuses.includes(latest.status)) return false;
    return holdsQueue(latest, await store.listItems(threadId, { turnId: latest.id }));
  }

  #detached(): EventChannel<ChatEvent> {
    const channel = this.#options.channel();
    channel.detach();
    return channel;
  }

  /** Sends `event` to a message's waiters and ends their streams. */
  #release(waiters: readonly Waiter[], event?: ChatEvent): void {
    for (const waiter of waiters) {
      if (event !== undefined) void waiter.channel.push(event);
      waiter.settle();
    }
  }

  /** A message left the queue other than by running here (removed, joined a turn, its thread deleted). */
  left(message: QueuedMessage, reason: 'removed', turnId = ''): void {
    const waiters = this.#waiters.get(message.id) ?? [];
    this.#waiters.delete(message.id);
    this.#release(waiters, { type: 'unqueued', queue_id: message.id, reason, thread_id: message.threadId, turn_id: turnId, run_id: '' });
  }

  /** The engine closes: streams waiting on queued messages end (the messages stay queued, and run once an engine runs their thread). */
  close(): void {
    this.#closed = true;
    for (const [id, waiters] of this.#waiters) {
      this.#release(waiters, { type: 'error', code: 'engine_closed', message: 'The server stopped before your queued message ran; it stays queued and runs once the conversation is free again.', thread_id: '', turn_id: '', run_id: '' });
      this.#waiters.delete(id);
    }
  }
}

/** The view of a thread's queue, head first (as `threads.state` shows it). */
export function queueView(messages: readonly QueuedMessage[]): QueuedView[] {
  return messages.map((message, index) => ({ id: message.id, text: message.text, position: index + 1, steer: message.steer }));
}

export function queuedMessageUnavailable(): PlumbError {
  return new PlumbError('queued_message_unavailable', 'There is no queued message with that id for you: it already ran, joined the answer, was removed or changed. Refresh the conversation.');
}
