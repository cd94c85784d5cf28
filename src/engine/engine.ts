import { nanoid } from 'nanoid';
import { PlumbError, actorKey, isPlumbError } from '../core/index.js';
import type { Actor, JsonValue } from '../core/index.js';
import type { Provider } from '../providers/index.js';
import type { BeginTurnResult, ItemRecord, Store, ThreadRecord, TurnRecord } from '../store/index.js';
import { LANGUAGES } from '../router/index.js';
import { createDispatcher } from '../tools/index.js';
import type { ChatApp, Tool, ToolSettings, ToolSettingsInput } from '../tools/index.js';
import { storeConfirmations } from './confirmation-adapter.js';
import { EventChannel } from './event-channel.js';
import { collect } from './events.js';
import type { ChatEvent, Collected } from './events.js';
import { HookBus } from './hooks.js';
import type { EngineHooks, HookListener, HookName, Logger } from './hooks.js';
import { newItems, retryReason, toolCallOf, toolResultOf } from './journal.js';
import { replayEvents } from './replay.js';
import { recoverInterruptedTurns } from './restart.js';
import { parseEngineSettings } from './settings.js';
import type { EngineSettings, EngineSettingsInput } from './settings.js';
import { buildSystemPrompt } from './system-prompt.js';
import { reportCall } from './tool-step.js';
import { renderAnswer } from './answer/index.js';
import { driveTurn } from './router-turn.js';
import type { AnswerRenderer, EngineReader, RoutingParts } from './router-types.js';
import { LiveSessions } from './live-sessions.js';
import { TurnRun, tailOrdinals } from './turn-run.js';
import { TurnSlots } from './turn-slots.js';
import { ThreadTails } from './thread-tails.js';
import type { EngineParts } from './turn-run.js';
import { emptyCounters, errorCodeOf, replayCounters } from './turn-state.js';

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

export interface SendRequest {
  readonly actor: Actor;
  readonly threadId?: string;
  readonly requestKey: string;
  readonly text: string;
  /** Aborting stops reading the events; an accepted turn still finishes and is journaled. */
  readonly signal?: AbortSignal;
  /**
   * False when the caller cannot ask the person to confirm (a plain HTTP request): a write that
   * needs confirmation then ends the turn with `confirmation_required_transport` instead of pausing.
   * Default true.
   */
  readonly canConfirm?: boolean;
  /**
   * The language the router reads this turn in (`en`, `pt-BR`), chosen by the person (never guessed
   * from the text); the thread's router session goes on in it. Default: the session's language, at
   * first the vocabulary's `settings.language`.
   */
  readonly language?: string;
  /** Start a new thread for this turn instead of continuing the owner's latest one (ignored with `threadId`). */
  readonly newThread?: boolean;
}

export interface ConfirmRequest {
  readonly actor: Actor;
  readonly confirmationId: string;
  readonly confirmed: boolean;
  readonly signal?: AbortSignal;
  /** As in `send`: false when a further write of the resumed turn could not be confirmed. */
  readonly canConfirm?: boolean;
}

export interface CancelRequest {
  readonly threadId: string;
  readonly mode: 'immediate' | 'graceful';
  /** When given, only the thread's owner may cancel. */
  readonly actor?: Actor;
}

export interface RetryRequest {
  readonly actor: Actor;
  readonly turnId: string;
  readonly requestKey: string;
  readonly signal?: AbortSignal;
}

export interface ThreadView {
  readonly thread: ThreadRecord;
  readonly turns: readonly TurnRecord[];
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
  readonly threads: {
    list(actor: Actor, options?: { readonly limit?: number }): Promise<readonly ThreadRecord[]>;
    view(request: { readonly actor: Actor; readonly threadId: string }): Promise<ThreadView>;
    history(request: { readonly actor: Actor; readonly threadId: string }): Promise<readonly ItemRecord[]>;
    delete(request: { readonly actor: Actor; readonly threadId: string }): Promise<boolean>;
  };
  on<K extends HookName>(name: K, listener: HookListener<K>): () => void;
  /** Resolves lapsed confirmations now (as their timers would) and resumes their turns; returns how many. */
  expirePending(): Promise<number>;
  /** Cancels active turns immediately, waits for them, clears timers. The store stays open. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

interface ActiveRun {
  readonly run: TurnRun;
  readonly settled: Promise<void>;
}

/** Creates an engine: the turn loop over a store, a provider and a tool set. */
export function createEngine(options: EngineOptions): Engine {
  return new PlumbEngine(options);
}

class PlumbEngine implements Engine {
  readonly settings: EngineSettings;
  readonly ready: Promise<void>;
  readonly threads: Engine['threads'];
  readonly #store: Store;
  readonly #parts: EngineParts;
  readonly #hooks: HookBus;
  readonly #clock: () => number;
  readonly #active = new Map<string, ActiveRun>();
  readonly #slots: TurnSlots;
  readonly #tails: ThreadTails;
  readonly #bindings = new Map<string, { readonly turnId: string; readonly callId: string }>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #tasks = new Set<Promise<void>>();
  #closed = false;

  constructor(options: EngineOptions) {
    this.settings = parseEngineSettings(options.settings);
    this.#slots = new TurnSlots(this.settings.maxConcurrentTurns, this.settings.maxWaitingTurns);
    this.#tails = new ThreadTails(this.settings.threadTailCacheItems, tailOrdinals(this.settings.maxRecentMessages));
    this.#store = options.store;
    this.#clock = options.clock ?? Date.now;
    this.#hooks = new HookBus(options.hooks, options.logger);
    const clock = this.#clock;
    const routing = routingParts(options, this.settings);
    // The dispatcher also holds the reader's read tools (the router's data-read steps call them); the model is not offered them.
    const modelTools = new Set(options.tools.map((tool) => tool.name));
    const readTools = routing === undefined ? [] : routing.reader.readTools.filter((tool) => !modelTools.has(tool.name));
    const dispatcher = createDispatcher({
      tools: [...options.tools, ...readTools],
      app: options.app,
      settings: options.toolSettings,
      confirmations: storeConfirmations(options.store, (threadId) => (threadId === undefined ? undefined : this.#bindings.get(threadId))),
      clock: () => new Date(clock()),
      ids: options.ids ?? (() => nanoid()),
      onError: (error, report) =>
        this.#hooks.emit('error', { error, code: 'tool_failed', threadId: report.threadId, source: report.phase === 'handler' ? 'tool' : 'confirmation_store' }),
    });
    this.#parts = {
      store: options.store,
      provider: options.provider,
      dispatcher,
      toolDefinitions: readTools.length === 0 ? dispatcher.definitions() : dispatcher.definitions().filter((definition) => modelTools.has(definition.name)),
      settings: this.settings,
      hooks: this.#hooks,
      systemPrompt: buildSystemPrompt(options.app, this.settings.systemPrompt, this.settings.maxSchemaManagersInPrompt),
      clock,
      random: options.random ?? Math.random,
      bindConfirmation: (threadId, binding) => {
        if (binding === undefined) this.#bindings.delete(threadId);
        else this.#bindings.set(threadId, binding);
      },
      scheduleExpiry: (confirmationId, expiresAt) => this.#scheduleExpiry(confirmationId, expiresAt),
      routing,
      tails: this.#tails,
    };
    this.threads = {
      list: async (actor, listOptions) => {
        await this.#usable();
        return this.#store.listThreads(this.#owner(actor), listOptions);
      },
      view: async ({ actor, threadId }) => {
        const thread = await this.#ownedThread(actor, threadId);
        return { thread, turns: await this.#store.listTurns(thread.id) };
      },
      history: async ({ actor, threadId }) => {
        const thread = await this.#ownedThread(actor, threadId);
        return this.#store.listItems(thread.id);
      },
      delete: async ({ actor, threadId }) => {
        const thread = await this.#ownedThread(actor, threadId);
        const active = this.#active.get(thread.id);
        if (active !== undefined) {
          active.run.cancel('immediate');
          await active.settled;
        }
        this.#tails.forget(thread.id);
        return this.#store.deleteThread(thread.id);
      },
    };
    this.ready = this.#start();
    this.ready.catch(() => undefined);
  }

  on<K extends HookName>(name: K, listener: HookListener<K>): () => void {
    return this.#hooks.on(name, listener);
  }

  async #start(): Promise<void> {
    if (this.settings.recoverOnStart) {
      try {
        await recoverInterruptedTurns(this.#store);
      } catch (error) {
        this.#hooks.emit('error', { error, code: 'chat_error', source: 'recovery' });
      }
    }
    for (const turn of await this.#store.turnsWithStatus('waiting')) {
      for (const pending of await this.#store.pendingConfirmations(turn.id)) this.#scheduleExpiry(pending.id, pending.expiresAt);
    }
  }

  async #usable(): Promise<void> {
    if (this.#closed) throw new PlumbError('engine_closed', 'The engine is closed. Create a new engine.');
    await this.ready;
  }

  #owner(actor: Actor): string {
    const owner = actorKey(actor);
    if (owner === undefined) throw new PlumbError('session_required', 'An anonymous visitor needs a session key to keep a conversation.');
    return owner;
  }

  /**
   * A resent request key: the turn's events as its journal tells them. A turn this process is still
   * running is waited for, so that the replay ends with its `done` or `error`; one another process is
   * running ends the replay with `turn_in_progress` instead of leaving the caller without an end.
   */
  async #replay(turn: TurnRecord, channel: EventChannel<ChatEvent>): Promise<void> {
    let current = turn;
    if (current.status === 'accepted' || current.status === 'running') {
      const active = this.#active.get(current.threadId);
      if (active !== undefined && active.run.turnId === current.id) {
        await active.settled;
        current = (await this.#store.getTurn(current.id)) ?? current;
      }
    }
    const items = await this.#store.listItems(current.threadId, { turnId: current.id });
    const events = replayEvents(current, items);
    if (current.status === 'accepted' || current.status === 'running') {
      events.push({ thread_id: current.threadId, turn_id: current.id, type: 'error', code: 'turn_in_progress', message: 'This message is still being answered elsewhere; its answer will be in the thread. Read the thread, or resend the key later.' });
    }
    for (const event of events) {
      const waiting = channel.push(event);
      if (waiting !== undefined) await waiting;
    }
  }

  /** A turn in a thread of its own; a replayed request key keeps its first thread and the new one is dropped. */
  async #beginInNewThread(owner: string, title: string, request: SendRequest): Promise<BeginTurnResult> {
    const created = await this.#store.createThread({ owner, title });
    const begun = await this.#store.beginTurn({ threadId: created.id, requestKey: request.requestKey, input: request.text });
    if (begun.turn.threadId !== created.id) await this.#store.deleteThread(created.id);
    return begun;
  }

  async #ownedThread(actor: Actor, threadId: string): Promise<ThreadRecord> {
    await this.#usable();
    const owner = this.#owner(actor);
    const thread = await this.#store.getThread(threadId);
    if (thread === undefined || thread.owner !== owner) throw threadNotFound(threadId);
    return thread;
  }

  /** A turn in a named thread: the store checks the owner in the turn's own transaction (one read, no window between check and write). */
  async #beginInOwnedThread(owner: string, threadId: string, request: SendRequest): Promise<BeginTurnResult> {
    try {
      return await this.#store.beginTurn({ threadId, owner, requestKey: request.requestKey, input: request.text });
    } catch (error) {
      throw isPlumbError(error) && error.code === 'store_not_found' ? threadNotFound(threadId) : error;
    }
  }

  /** Runs `task` detached, feeding `channel`; its failure becomes an error event, never an unhandled rejection. */
  #spawn(channel: EventChannel<ChatEvent>, task: () => Promise<void>, signal?: AbortSignal): AsyncIterable<ChatEvent> {
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
        if (!(error instanceof PlumbError)) this.#hooks.emit('error', { error, code, source: 'turn' });
        void channel.push({ type: 'error', code, message, thread_id: '', turn_id: '' });
      } finally {
        signal?.removeEventListener('abort', onAbort);
        channel.close();
      }
    })();
    this.#tasks.add(running);
    void running.finally(() => this.#tasks.delete(running));
    return channel;
  }

  #channel(): EventChannel<ChatEvent> {
    return new EventChannel<ChatEvent>(this.settings.eventBufferSize);
  }

  send(request: SendRequest): AsyncIterable<ChatEvent> {
    const channel = this.#channel();
    return this.#spawn(channel, () => this.#send(request, channel), request.signal);
  }

  async ask(request: SendRequest): Promise<Collected> {
    return collect(this.send(request));
  }

  async #send(request: SendRequest, channel: EventChannel<ChatEvent>): Promise<void> {
    await this.#usable();
    if (typeof request.text !== 'string' || request.text.trim() === '') throw new PlumbError('bad_message', 'The message text is missing or blank. Send some text.');
    if (typeof request.requestKey !== 'string' || request.requestKey === '') {
      throw new PlumbError('bad_message', 'The request key is missing. Send a unique requestKey per message so that a resend is recognised.');
    }
    if (request.language !== undefined && !(LANGUAGES as readonly string[]).includes(request.language)) {
      throw new PlumbError('bad_message', `Unknown language '${String(request.language)}'. Languages: ${LANGUAGES.join(', ')}.`);
    }
    const owner = this.#owner(request.actor);
    this.#slots.checkRoom();
    // Without a thread id: the owner's latest thread, or a new one, in the turn's own transaction;
    // `newThread`: a thread of its own (a resent request key still replays its turn, in the thread it began).
    const title = request.text.trim().slice(0, 80);
    const begun =
      request.threadId !== undefined
        ? await this.#beginInOwnedThread(owner, request.threadId, request)
        : request.newThread === true
          ? await this.#beginInNewThread(owner, title, request)
          : await this.#store.beginTurn({ owner, newThreadTitle: title, requestKey: request.requestKey, input: request.text });
    const thread = begun.thread;
    const base = { thread_id: thread.id, turn_id: begun.turn.id };
    if (begun.outcome === 'busy') {
      void channel.push({ ...base, type: 'error', code: 'turn_in_progress', message: 'This conversation is still answering a message. Wait for it to finish or cancel it.' });
      return;
    }
    if (begun.outcome === 'existing') {
      if (begun.turn.input !== request.text) {
        void channel.push({ ...base, type: 'error', code: 'request_conflict', message: 'This request key was already used with different text. Use a new request key for a new message.' });
        return;
      }
      await this.#replay(begun.turn, channel);
      return;
    }
    this.#hooks.emit('messageReceived', { actor: request.actor, threadId: thread.id, turnId: begun.turn.id, text: request.text });
    // The turn stays `accepted` until its first step commits as `running` (one transaction fewer).
    // It holds only its own items until its first model round reads the thread's recent tail
    // (`TurnRun.loadThread`): a turn waiting for its slot holds as little as it can, and a router
    // turn that needs no model never reads it. A new thread's journal is just the user item.
    await this.#run(
      new TurnRun({
        parts: this.#parts,
        actor: request.actor,
        thread,
        turn: begun.turn,
        channel,
        items: [begun.userItem],
        counters: emptyCounters,
        canConfirm: request.canConfirm,
        language: request.language,
        turnItemsOnly: begun.userItem.ordinal !== 1,
      }),
      () => Promise.resolve(),
    );
  }

  /** Registers the run as the thread's active one, runs `before` then the loop, and unregisters. */
  async #run(run: TurnRun, before: (run: TurnRun) => Promise<void>): Promise<void> {
    let release: (() => void) | undefined;
    const settled = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#active.set(run.thread.id, { run, settled });
    let slot = false;
    try {
      await this.#slots.acquire(run.signal);
      slot = true;
      run.waitingForSlot = false;
      await before(run);
      await driveTurn(run);
      // A run that did not hold the thread's tail leaves the kept one stale: forgotten rather than kept until evicted.
      if (run.journalIntact && run.holdsThreadTail) this.#tails.remember(run.thread.id, run.items);
      else this.#tails.forget(run.thread.id);
    } finally {
      if (slot) this.#slots.release();
      this.#active.delete(run.thread.id);
      release?.();
    }
  }

  confirm(request: ConfirmRequest): AsyncIterable<ChatEvent> {
    const channel = this.#channel();
    return this.#spawn(channel, () => this.#confirm(request, channel), request.signal);
  }

  async #confirm(request: ConfirmRequest, channel: EventChannel<ChatEvent>): Promise<void> {
    await this.#usable();
    const unavailable = (threadId = '', turnId = ''): void => {
      void channel.push({
        type: 'error',
        code: 'confirmation_unavailable',
        message: 'There is no pending confirmation with that id for you, or it was already answered. Refresh the conversation.',
        thread_id: threadId,
        turn_id: turnId,
      });
    };
    const owner = actorKey(request.actor);
    const record = await this.#store.getConfirmation(request.confirmationId);
    if (record === undefined || owner === undefined || record.owner !== owner) return unavailable();
    const thread = await this.#store.getThread(record.threadId);
    const turn = await this.#store.updateTurn(record.turnId, { status: 'running' }, ['waiting']);
    if (thread === undefined || turn === undefined || record.status !== 'pending') {
      if (turn !== undefined) await this.#store.updateTurn(turn.id, { status: 'waiting' }, ['running']);
      return unavailable(record.threadId, record.turnId);
    }
    this.#clearExpiry(record.id);
    const items = [...(await this.#store.listItems(thread.id))];
    const run = new TurnRun({ parts: this.#parts, actor: request.actor, thread, turn, channel, items, counters: emptyCounters, canConfirm: request.canConfirm });
    run.counters = replayCounters(run.turnItems());
    await this.#run(run, async () => {
      const effect = this.#parts.dispatcher.tool(record.tool)?.effect ?? 'write';
      const call = { id: record.callId, name: record.tool, arguments: JSON.stringify(record.arguments) };
      if (request.confirmed) {
        // Journaled before it runs: after a crash from here on, the write's outcome is unknown.
        await run.append([newItems.confirmationResolution({ confirmationId: record.id, callId: record.callId, outcome: 'approved' })]);
      }
      run.runningWrites++;
      let result: JsonValue;
      try {
        result = (await this.#parts.dispatcher.confirm(record.id, { actor: request.actor, confirmed: request.confirmed, signal: run.signal })) as JsonValue;
      } finally {
        run.runningWrites--;
      }
      const expired = errorCodeOf(result) === 'confirmation_expired';
      const outcome = !request.confirmed ? 'rejected' : expired ? 'expired' : 'approved';
      const resolution = outcome === 'approved' ? [] : [newItems.confirmationResolution({ confirmationId: record.id, callId: record.callId, outcome })];
      await run.append([...resolution, newItems.toolResult({ callId: record.callId, name: record.tool, result })]);
      const waiting = run.emit({ type: 'tool_result', id: record.callId, name: record.tool, result });
      if (waiting !== undefined) await waiting;
      if (outcome === 'approved') reportCall(run, call, effect, result);
      else if (this.#hooks.has('mutationExecuted')) {
        this.#hooks.emit('mutationExecuted', {
          actor: request.actor,
          threadId: thread.id,
          turnId: turn.id,
          callId: record.callId,
          name: record.tool,
          arguments: record.arguments,
          status: outcome,
          result,
        });
      }
      run.counters = replayCounters(run.turnItems());
    });
  }

  #scheduleExpiry(confirmationId: string, expiresAt: number): void {
    if (this.#closed) return;
    this.#clearExpiry(confirmationId);
    const timer = setTimeout(
      () => {
        this.#timers.delete(confirmationId);
        const task = this.#expireOne(confirmationId).then(
          () => undefined,
          (error: unknown) => this.#hooks.emit('error', { error, code: 'chat_error', source: 'confirmation_store' }),
        );
        this.#tasks.add(task);
        void task.finally(() => this.#tasks.delete(task));
      },
      Math.max(0, expiresAt - this.#clock()),
    );
    timer.unref();
    this.#timers.set(confirmationId, timer);
  }

  #clearExpiry(confirmationId: string): void {
    const timer = this.#timers.get(confirmationId);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(confirmationId);
  }

  async expirePending(): Promise<number> {
    await this.#usable();
    let count = 0;
    for (const turn of await this.#store.turnsWithStatus('waiting')) {
      for (const pending of await this.#store.pendingConfirmations(turn.id)) {
        if (pending.expiresAt <= this.#clock() && (await this.#expireOne(pending.id))) count++;
      }
    }
    return count;
  }

  /** A lapsed confirmation becomes a tool result the model sees; the turn resumes with nobody reading. */
  async #expireOne(confirmationId: string): Promise<boolean> {
    if (this.#closed) return false;
    const record = await this.#store.getConfirmation(confirmationId);
    if (record === undefined || record.status !== 'pending') return false;
    const now = this.#clock();
    if (record.expiresAt > now) {
      this.#scheduleExpiry(confirmationId, record.expiresAt);
      return false;
    }
    const thread = await this.#store.getThread(record.threadId);
    const turn = await this.#store.updateTurn(record.turnId, { status: 'running' }, ['waiting']);
    if (thread === undefined || turn === undefined) return false;
    const claim = await this.#store.claimConfirmation(record.id, record.owner, now, { status: 'cancelled', reason: 'confirmation_timed_out' });
    if (claim.outcome !== 'expired') {
      await this.#store.updateTurn(turn.id, { status: 'waiting' }, ['running']);
      return false;
    }
    const channel = this.#channel();
    channel.detach();
    const items = [...(await this.#store.listItems(thread.id))];
    const run = new TurnRun({ parts: this.#parts, actor: record.actor as unknown as Actor, thread, turn, channel, items, counters: emptyCounters });
    const result: JsonValue = { error: { code: 'confirmation_expired', message: 'Nobody confirmed the change in time, so it was not made.' } };
    await this.#run(run, async () => {
      await run.append([
        newItems.confirmationResolution({ confirmationId: record.id, callId: record.callId, outcome: 'expired' }),
        newItems.toolResult({ callId: record.callId, name: record.tool, result }),
      ]);
      this.#hooks.emit('mutationExecuted', {
        actor: run.actor,
        threadId: thread.id,
        turnId: turn.id,
        callId: record.callId,
        name: record.tool,
        arguments: record.arguments,
        status: 'expired',
        result,
      });
      run.counters = replayCounters(run.turnItems());
    });
    return true;
  }

  async cancel(request: CancelRequest): Promise<TurnRecord | undefined> {
    await this.#usable();
    const thread = await this.#store.getThread(request.threadId);
    if (thread === undefined || (request.actor !== undefined && actorKey(request.actor) !== thread.owner)) {
      throw threadNotFound(request.threadId);
    }
    const active = this.#active.get(thread.id);
    if (active !== undefined) {
      active.run.cancel(request.mode);
      await active.settled;
      return this.#store.getTurn(active.run.turnId);
    }
    const waiting = (await this.#store.listTurns(thread.id)).find((turn) => turn.status === 'waiting');
    if (waiting === undefined) return undefined;
    const turn = await this.#store.updateTurn(waiting.id, { status: 'running' }, ['waiting']);
    if (turn === undefined) return this.#store.getTurn(waiting.id);
    for (const pending of await this.#store.pendingConfirmations(turn.id)) this.#clearExpiry(pending.id);
    const channel = this.#channel();
    channel.detach();
    const run = new TurnRun({ parts: this.#parts, actor: { kind: 'anonymous' }, thread, turn, channel, items: [], counters: emptyCounters });
    run.cancelMode = request.mode;
    await run.cancelled();
    return this.#store.getTurn(turn.id);
  }

  retry(request: RetryRequest): AsyncIterable<ChatEvent> {
    const channel = this.#channel();
    return this.#spawn(channel, () => this.#retry(request, channel), request.signal);
  }

  async #retry(request: RetryRequest, channel: EventChannel<ChatEvent>): Promise<void> {
    await this.#usable();
    const owner = this.#owner(request.actor);
    const found = await this.#store.getTurn(request.turnId);
    if (found === undefined || found.owner !== owner) throw new PlumbError('turn_not_found', `No turn '${request.turnId}' of yours exists.`);
    const thread = await this.#store.getThread(found.threadId);
    if (thread === undefined) throw new PlumbError('turn_not_found', `No turn '${request.turnId}' of yours exists.`);
    const base = { thread_id: found.threadId, turn_id: found.id };
    const turnItems = await this.#store.listItems(found.threadId, { turnId: found.id });
    if (turnItems.some((item) => item.kind === 'retry_marker' && retryReason(item) === 'retry' && (item.data as { requestKey?: unknown }).requestKey === request.requestKey)) {
      for (const event of replayEvents(found, turnItems)) {
        const waiting = channel.push(event);
        if (waiting !== undefined) await waiting;
      }
      return;
    }
    const turns = await this.#store.listTurns(found.threadId);
    const latest = turns[turns.length - 1];
    const retryable =
      found.status === 'failed' && (found.failureCode === 'interrupted' || found.failureCode === 'rate_limited' || (found.failureCode ?? '').startsWith('provider_'));
    if (!retryable || latest?.id !== found.id) {
      void channel.push({
        ...base,
        type: 'error',
        code: 'not_retryable',
        message:
          found.failureCode === 'effect_outcome_unknown'
            ? 'This turn stopped while a change was running; it cannot be retried because the change might run twice. Check the data and ask again.'
            : 'Only the latest turn of a conversation that failed with interrupted or a provider failure can be retried.',
      });
      return;
    }
    const turn = await this.#store.updateTurn(found.id, { status: 'running', failureCode: null, failureMessage: null }, ['failed']);
    if (turn === undefined) {
      void channel.push({ ...base, type: 'error', code: 'turn_in_progress', message: 'This turn is already being retried.' });
      return;
    }
    const items = [...(await this.#store.listItems(thread.id))];
    const run = new TurnRun({ parts: this.#parts, actor: request.actor, thread, turn, channel, items, counters: emptyCounters });
    await this.#run(run, async () => {
      await run.append([newItems.retryMarker({ reason: 'retry', requestKey: request.requestKey })]);
      run.counters = replayCounters(run.turnItems());
      await this.#finishDanglingReads(run);
    });
  }

  /** Reads that were running when the turn stopped are run again (they change nothing); writes never are. */
  async #finishDanglingReads(run: TurnRun): Promise<void> {
    const items = run.turnItems();
    const answered = new Set(items.filter((item) => item.kind === 'tool_result').map((item) => toolResultOf(item).callId));
    const dangling = items.filter((item) => item.kind === 'tool_call').map(toolCallOf).filter((call) => !answered.has(call.callId) && (call.effect === 'read' || call.effect === 'unknown'));
    if (dangling.length === 0) return;
    const results = await Promise.all(
      dangling.map(async (call) =>
        (await this.#parts.dispatcher.dispatch({ name: call.name, arguments: call.arguments }, { actor: run.actor, signal: run.signal, threadId: run.thread.id })) as JsonValue,
      ),
    );
    await run.append(dangling.map((call, index) => newItems.toolResult({ callId: call.callId, name: call.name, result: results[index] ?? null })));
    for (const [index, call] of dangling.entries()) {
      const waiting = run.emit({ type: 'tool_result', id: call.callId, name: call.name, result: results[index] ?? null });
      if (waiting !== undefined) await waiting;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    for (const active of this.#active.values()) {
      active.run.cancel('immediate');
      // Nobody may be reading: a full buffer must not keep the cancelled turn from settling.
      active.run.channel.detach();
    }
    await Promise.allSettled([...this.#tasks]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** The router side of the engine: present when a reader is given and the `router` setting is on. */
function routingParts(options: EngineOptions, settings: EngineSettings): RoutingParts | undefined {
  if (options.reader === undefined || settings.router === 'off') return undefined;
  if (settings.answerWith === 'model' && options.provider === undefined) {
    throw new PlumbError('invalid_engine_settings', "Invalid engine settings. answerWith: 'model' needs a provider; configure one or use answerWith: 'router'.");
  }
  return {
    reader: options.reader,
    answer: options.answer ?? renderAnswer,
    onUnread: settings.onUnread ?? (options.provider === undefined ? 'refuse' : 'model'),
    askToRephrase: settings.askToRephrase,
    answerWith: settings.answerWith,
    live: new LiveSessions(),
  };
}

function threadNotFound(threadId: string): PlumbError {
  return new PlumbError('thread_not_found', `No thread '${threadId}' of yours exists.`);
}
