import { PlumbError } from '../../core/index.js';
import { EventChannel } from '../shared/index.js';
import type { ChatEvent } from '../shared/index.js';
import type { ThreadQueue } from '../thread/index.js';
import { historyToKeep } from './context-step.js';
import { turnDiagnostics } from './diagnostics.js';
import { driveTurn } from './router-turn.js';
import type { EngineParts } from './parts.js';
import type { TurnRun } from './turn-run.js';
import type { ConfirmationExpiry } from './resumption.js';
import { TurnSlots } from './turn-slots.js';

/** What the turn operations (admission, resumption, retry, cancel) share of the engine. */
export interface TurnHost {
  readonly parts: EngineParts;
  readonly runner: TurnRunner;
  readonly queue: ThreadQueue;
  readonly expiry: ConfirmationExpiry;
  /** The engine's lease id, recorded by every turn it runs. */
  readonly lease: () => string;
  /** Waits for the engine's start; throws `engine_closed` once it closed. */
  readonly usable: () => Promise<void>;
}

export interface ActiveRun {
  readonly run: TurnRun;
  readonly settled: Promise<void>;
}

export interface TurnRunnerOptions {
  readonly parts: EngineParts;
  /** The thread is free: its queue's next message may run. */
  readonly promote: (threadId: string) => void;
}

/**
 * Runs turns: each thread's active run, the `maxConcurrentTurns` slots, the event channels and the
 * detached tasks that feed them (which `close` waits for).
 */
export class TurnRunner {
  readonly #options: TurnRunnerOptions;
  readonly #slots: TurnSlots;
  readonly #tasks = new Set<Promise<void>>();
  readonly active = new Map<string, ActiveRun>();

  constructor(options: TurnRunnerOptions) {
    this.#options = options;
    const settings = options.parts.settings;
    this.#slots = new TurnSlots(settings.maxConcurrentTurns, settings.maxWaitingTurns);
  }

  /** Refuses a new turn with `server_busy` when `maxWaitingTurns` already wait for a slot. */
  checkRoom(): void {
    this.#slots.checkRoom();
  }

  channel(): EventChannel<ChatEvent> {
    return new EventChannel<ChatEvent>(this.#options.parts.settings.eventBufferSize);
  }

  /** Tracks background work, so that `settle` waits for it. */
  track(task: Promise<void>): void {
    this.#tasks.add(task);
    void task.finally(() => this.#tasks.delete(task));
  }

  /** Waits for every tracked task. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.#tasks]);
  }

  /** Runs `task` detached, feeding `channel`; its failure becomes an error event, never an unhandled rejection. */
  spawn(channel: EventChannel<ChatEvent>, task: () => Promise<void>, signal?: AbortSignal): AsyncIterable<ChatEvent> {
    // A listener object with a method, not an arrow in a const: under tsx (esbuild keepNames) each such arrow is renamed at runtime.
    const onAbort = {
      handleEvent(): void {
        channel.detach();
      },
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted === true) channel.detach();
    const running = (async () => {
      try {
        await task();
      } catch (error) {
        const code = error instanceof PlumbError ? error.code : 'chat_error';
        const message = error instanceof PlumbError ? error.message : 'Something went wrong on the server. The failure was reported.';
        if (!(error instanceof PlumbError)) this.#options.parts.hooks.emit('error', { error, code, source: 'turn' });
        void channel.push({ type: 'error', code, message, thread_id: '', turn_id: '', run_id: '' });
      } finally {
        signal?.removeEventListener('abort', onAbort);
        channel.close();
      }
    })();
    this.track(running);
    return channel;
  }

  /** Registers the run as the thread's active one, runs `before` then the loop, and unregisters. */
  async run(run: TurnRun, before: (run: TurnRun) => Promise<void>): Promise<void> {
    let release: (() => void) | undefined;
    const settled = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.active.set(run.thread.id, { run, settled });
    let slot = false;
    try {
      const waiting = this.#slots.acquire(run.signal);
      if (waiting !== undefined) {
        void run.enter('queued');
        await waiting;
      }
      slot = true;
      run.waitingForSlot = false;
      run.startDeadline();
      void run.enter('reading');
      await before(run);
      await driveTurn(run);
      if (this.#options.parts.hooks.has('turnDiagnostics')) this.#options.parts.hooks.emit('turnDiagnostics', { actor: run.actor, threadId: run.thread.id, turnId: run.turnId, record: turnDiagnostics(run) });
      // A run that did not hold the thread's tail leaves the kept one stale: forgotten rather than kept until evicted.
      if (run.journalIntact && run.holdsThreadTail) this.#options.parts.tails.remember(run.thread.id, run.items, run.contextFrom, historyToKeep(run));
      else this.#options.parts.tails.forget(run.thread.id);
    } finally {
      run.dispose();
      if (slot) this.#slots.release();
      this.active.delete(run.thread.id);
      release?.();
      // The thread is free once its turn ended (not paused on a person): its queue's next message runs.
      if (run.ended !== undefined) this.#options.promote(run.thread.id);
    }
  }

  /** Stops the thread's active run at once and waits for it. */
  async stopActive(threadId: string): Promise<void> {
    const active = this.active.get(threadId);
    if (active === undefined) return;
    active.run.cancel('immediate');
    await active.settled;
  }

  /** Stops every active run at once; nobody may be reading, so a full buffer must not keep one from settling. */
  stopAll(): void {
    for (const active of this.active.values()) {
      active.run.cancel('immediate');
      active.run.channel.detach();
    }
  }
}
