import { PlumbError } from '../core/index.js';
import type { Provider } from '../providers/index.js';
import type { Store, TurnRecord } from '../store/index.js';
import type { ChatApp, DispatchInstrument, Tool, ToolSettings, ToolSettingsInput } from '../tools/index.js';
import type { PlannedRunner } from '../planned/index.js';
import { HookBus, collect } from './shared/index.js';
import type { ChatEvent, Collected, EngineHooks, HookListener, HookName, Logger } from './shared/index.js';
import { ThreadQueue, ThreadTails, queueApi, tailOrdinals, threadsApi } from './thread/index.js';
import type { QueueApi, ThreadsApi } from './thread/index.js';
import { EngineRecovery } from './recovery/index.js';
import { ConfirmationExpiry, TurnRunner, answer, buildParts, cancel, confirm, retry, runQueued, send } from './turn/index.js';
import type { AnswerRenderer, AnswerRequest, CancelRequest, ConfirmRequest, EngineParts, EngineReader, RetryRequest, SendRequest, TurnHost } from './turn/index.js';
import { parseEngineSettings } from './settings.js';
import type { EngineSettings, EngineSettingsInput } from './settings.js';

export type { AnswerRequest, CancelRequest, ConfirmRequest, RetryRequest, SendRequest } from './turn/index.js';

export interface EngineOptions {
  /** The host's data (managers for the schema context, GraphQL for the data tools). */
  readonly app?: ChatApp;
  readonly store: Store;
  /** Without one, a turn that needs the model fails with `no_provider`. */
  readonly provider?: Provider;
  readonly tools: readonly Tool[];
  readonly settings?: EngineSettingsInput;
  /** The dispatcher's settings (allowed mutations, confirmTimeoutSeconds, result bounds). */
  readonly toolSettings?: ToolSettings | ToolSettingsInput;
  readonly hooks?: EngineHooks;
  /**
   * Planned read orchestration (`createPlannedRunner` from `plumb-agent/planned`): fresh turns the router
   * leaves unread are planned, executed with read tools and synthesized instead of one tool loop.
   */
  readonly planned?: PlannedRunner;
  /** Wraps every tool call the engine's dispatcher runs (tracing: `plumb-agent/telemetry`). */
  readonly instrumentTools?: DispatchInstrument;
  readonly logger?: Logger;
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly clock?: () => number;
  readonly ids?: () => string;
  /** In [0, 1): the retry jitter. Default `Math.random`. */
  readonly random?: () => number;
  /**
   * Reads turns first (`createAppReader`, or any object of that shape): with it, and the `router`
   * setting on, each turn is read by the thread's router session before any model is asked.
   */
  readonly reader?: EngineReader;
  /** Writes a router-run turn's answer from its results. Default: the grounded renderer (`renderAnswer`). */
  readonly answer?: AnswerRenderer;
}


export interface Engine {
  readonly settings: EngineSettings;
  /** Settles once restart recovery is done; every operation waits for it. */
  readonly ready: Promise<void>;
  send(request: SendRequest): AsyncIterable<ChatEvent>;
  /** `send`, read to the end: `{ events, answer }`. */
  ask(request: SendRequest): Promise<Collected>;
  confirm(request: ConfirmRequest): AsyncIterable<ChatEvent>;
  /** Cancels the thread's active turn; resolves with the turn once it settled (undefined when none was active). */
  cancel(request: CancelRequest): Promise<TurnRecord | undefined>;
  retry(request: RetryRequest): AsyncIterable<ChatEvent>;
  /**
   * Answers a question (docs/engine.md, "Questions to the person"): a model's or a tool's resumes
   * its waiting turn with the answer as the call's result, and streams the rest of it; a router's
   * starts the reply's turn, read as the answer to that question. `question_unavailable` when it is
   * not the actor's, was answered, or its turn went on; `bad_answer` when it does not take this answer.
   */
  answer(request: AnswerRequest): AsyncIterable<ChatEvent>;
  readonly queue: QueueApi;
  readonly threads: ThreadsApi;
  on<K extends HookName>(name: K, listener: HookListener<K>): () => void;
  /** Resolves lapsed confirmations now (as their timers would) and resumes their turns; returns how many. */
  expirePending(): Promise<number>;
  /** Ends now (as the lease heartbeat does) the turns whose engine's lease lapsed; returns how many. */
  recover(): Promise<number>;
  /** Cancels active turns immediately, waits for them, clears timers. The store stays open. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}


/** Creates an engine: the turn loop over a store, a provider and a tool set. */
export function createEngine(options: EngineOptions): Engine {
  return new PlumbEngine(options);
}

/**
 * The façade: wires the rooms (thread, turn, recovery; context and shared below them) and holds
 * the engine's start and close. Each operation is one room's.
 */
class PlumbEngine implements Engine {
  readonly settings: EngineSettings;
  readonly ready: Promise<void>;
  readonly threads: ThreadsApi;
  readonly queue: QueueApi;
  readonly #store: Store;
  readonly #hooks: HookBus;
  readonly #parts: EngineParts;
  readonly #queue: ThreadQueue;
  readonly #runner: TurnRunner;
  readonly #expiry: ConfirmationExpiry;
  readonly #recovery: EngineRecovery;
  readonly #host: TurnHost;
  #closed = false;

  constructor(options: EngineOptions) {
    this.settings = parseEngineSettings(options.settings);
    this.#store = options.store;
    this.#hooks = new HookBus(options.hooks, options.logger);
    const clock = options.clock ?? Date.now;
    const tails = new ThreadTails(this.settings.threadTailCacheItems, tailOrdinals);
    this.#expiry = new ConfirmationExpiry({ host: () => this.#host, closed: () => this.#closed });
    this.#parts = buildParts(options, this.settings, this.#hooks, {
      clock,
      tails,
      scheduleExpiry: (confirmationId, expiresAt) => this.#expiry.schedule(confirmationId, expiresAt),
      lease: () => this.#recovery.lease.id,
    });
    this.#runner = new TurnRunner({
      parts: this.#parts,
      // Without a queue (maxQueuedMessages 0) a turn's end reads none; one left from before runs when an engine starts.
      promote: (threadId) => {
        if (this.settings.maxQueuedMessages > 0) this.#queue.promote(threadId);
      },
    });
    this.#recovery = new EngineRecovery({
      store: options.store,
      hooks: this.#hooks,
      clock,
      leaseSeconds: this.settings.leaseSeconds,
      recoverOnStart: this.settings.recoverOnStart,
      held: () => [...this.#runner.active.values()].map((active) => ({ turnId: active.run.turnId, cancel: (mode: 'immediate') => active.run.cancel(mode) })),
      promote: (threadId) => this.#queue.promote(threadId),
    });
    this.#queue = new ThreadQueue({
      store: options.store,
      limit: () => this.settings.maxQueuedMessages,
      lease: () => this.#recovery.lease.id,
      run: (start) => runQueued(this.#host, start),
      channel: () => this.#runner.channel(),
      stop: async (threadId) => {
        await cancel(this.#host, { threadId, mode: 'graceful' });
      },
      changed: (threadId) => this.#hooks.emit('queueChanged', { threadId }),
      report: (error) => this.#hooks.emit('error', { error, code: 'chat_error', source: 'queue' }),
      track: (task) => this.#runner.track(task),
    });
    this.#host = {
      parts: this.#parts,
      runner: this.#runner,
      queue: this.#queue,
      expiry: this.#expiry,
      lease: () => this.#recovery.lease.id,
      usable: () => this.#usable(),
    };
    const threadDeps = {
      store: options.store,
      queue: this.#queue,
      tails,
      hooks: this.#hooks,
      usable: () => this.#usable(),
      stopActive: (threadId: string) => this.#runner.stopActive(threadId),
      titleLabel: this.#parts.titleLabel,
      clock,
    };
    this.queue = queueApi(threadDeps);
    this.threads = threadsApi(threadDeps);
    this.ready = this.#start();
    this.ready.catch(() => undefined);
  }

  on<K extends HookName>(name: K, listener: HookListener<K>): () => void {
    return this.#hooks.on(name, listener);
  }

  async #start(): Promise<void> {
    await this.#recovery.start(async () => {
      for (const turn of await this.#store.turnsWithStatus('waiting')) {
        for (const pending of await this.#store.pendingConfirmations(turn.id)) this.#expiry.schedule(pending.id, pending.expiresAt);
      }
    });
    if (!this.#closed) this.#recovery.lease.startHeartbeat();
  }

  async #usable(): Promise<void> {
    if (this.#closed) throw new PlumbError('engine_closed', 'The engine is closed. Create a new engine.');
    await this.ready;
  }

  send(request: SendRequest): AsyncIterable<ChatEvent> {
    const channel = this.#runner.channel();
    return this.#runner.spawn(channel, () => send(this.#host, request, channel), request.signal);
  }

  async ask(request: SendRequest): Promise<Collected> {
    return collect(this.send(request));
  }

  answer(request: AnswerRequest): AsyncIterable<ChatEvent> {
    const channel = this.#runner.channel();
    return this.#runner.spawn(channel, () => answer(this.#host, request, channel), request.signal);
  }

  confirm(request: ConfirmRequest): AsyncIterable<ChatEvent> {
    const channel = this.#runner.channel();
    return this.#runner.spawn(channel, () => confirm(this.#host, request, channel), request.signal);
  }

  retry(request: RetryRequest): AsyncIterable<ChatEvent> {
    const channel = this.#runner.channel();
    return this.#runner.spawn(channel, () => retry(this.#host, request, channel), request.signal);
  }

  async cancel(request: CancelRequest): Promise<TurnRecord | undefined> {
    return cancel(this.#host, request);
  }

  async expirePending(): Promise<number> {
    return this.#expiry.expirePending();
  }

  async recover(): Promise<number> {
    await this.#usable();
    return this.#recovery.recover();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue.close();
    this.#expiry.clearAll();
    this.#runner.stopAll();
    await this.#runner.settle();
    // Released once nothing runs under it: what is left active (nothing, normally) is orphaned at once.
    await this.ready.catch(() => undefined);
    await this.#recovery.lease.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
