import { nanoid } from 'nanoid';
import { PlumbError, actorKey, isPlumbError } from '../core/index.js';
import type { Actor, JsonValue } from '../core/index.js';
import type { Provider } from '../providers/index.js';
import type { BeginTurnResult, ItemRecord, QueuedMessage, Store, ThreadRecord, TurnRecord } from '../store/index.js';
import { LANGUAGES } from '../router/index.js';
import { askUserToolName, createAskUserTool, createDispatcher, createReadResultTool, readResultToolName } from '../tools/index.js';
import type { ChatApp, DispatchInstrument, Tool, ToolSettings, ToolSettingsInput } from '../tools/index.js';
import { storeConfirmations } from './confirmation-adapter.js';
import { EventChannel } from './shared/index.js';
import { collect } from './shared/index.js';
import type { ChatEvent, Collected } from './shared/index.js';
import { HookBus } from './shared/index.js';
import type { EngineHooks, HookListener, HookName, Logger } from './shared/index.js';
import { newItems, retryReason, storedResultOf, toolCallOf, toolResultOf } from './shared/index.js';
import { ThreadQueue, answeredResult, ownerOf, queueApi, resolveAnswer, threadNotFound, threadsApi, titleAfterTurn, turnOfQuestion, unansweredQuestions } from './thread/index.js';
import type { AnswerInput, QueueApi, QueuedStart, ThreadsApi, TitleLabel } from './thread/index.js';
import { EngineRecovery, replayEvents, replayTurn } from './recovery/index.js';
import { parseEngineSettings } from './settings.js';
import type { EngineSettings, EngineSettingsInput } from './settings.js';
import { buildSystemPrompt } from './context/index.js';
import { reportCall } from './tool-step.js';
import { writeAnswer } from '../answers/index.js';
import { driveTurn } from './router-turn.js';
import { turnDiagnostics } from './diagnostics.js';
import type { AnswerRenderer, EngineReader, RoutingParts } from './router-types.js';
import { LiveSessions } from './live-sessions.js';
import type { PlannedRunner } from '../planned/index.js';
import { TurnRun } from './turn-run.js';
import { TurnSlots } from './turn-slots.js';
import { ThreadTails, tailOrdinals } from './thread/index.js';
import type { EngineParts } from './turn-run.js';
import { emptyCounters, errorCodeOf, replayCounters } from './turn-state.js';
import { TokenEstimator } from './context/index.js';

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
   * Planned read orchestration (`createPlannedRunner` from `plumb/planned`): fresh turns the router
   * leaves unread are planned, executed with read tools and synthesized instead of one tool loop.
   */
  readonly planned?: PlannedRunner;
  /** Wraps every tool call the engine's dispatcher runs (tracing: `plumb/telemetry`). */
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

/** An answer to a question a turn put (its `question` event's `id`): free text, or one of its choices by id or value. */
export interface AnswerRequest extends AnswerInput {
  readonly actor: Actor;
  readonly questionId: string;
  /** For a router question, whose answer starts the reply's turn: its request key (default a new one). */
  readonly requestKey?: string;
  readonly signal?: AbortSignal;
  /** As in `send`. */
  readonly canConfirm?: boolean;
  /** As in `send`, for a router question's reply. */
  readonly language?: string;
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
  readonly queue: Engine['queue'];
  readonly #store: Store;
  readonly #queue: ThreadQueue;
  readonly #parts: EngineParts;
  readonly #hooks: HookBus;
  readonly #clock: () => number;
  readonly #active = new Map<string, ActiveRun>();
  readonly #slots: TurnSlots;
  readonly #tails: ThreadTails;
  readonly #bindings = new Map<string, { readonly turnId: string; readonly callId: string }>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #tasks = new Set<Promise<void>>();
  readonly #recovery: EngineRecovery;
  #closed = false;

  constructor(options: EngineOptions) {
    this.settings = parseEngineSettings(options.settings);
    this.#slots = new TurnSlots(this.settings.maxConcurrentTurns, this.settings.maxWaitingTurns);
    this.#tails = new ThreadTails(this.settings.threadTailCacheItems, tailOrdinals);
    this.#store = options.store;
    this.#clock = options.clock ?? Date.now;
    this.#hooks = new HookBus(options.hooks, options.logger);
    this.#recovery = new EngineRecovery({
      store: options.store,
      hooks: this.#hooks,
      clock: this.#clock,
      leaseSeconds: this.settings.leaseSeconds,
      recoverOnStart: this.settings.recoverOnStart,
      held: () => [...this.#active.values()].map((active) => ({ turnId: active.run.turnId, cancel: (mode: 'immediate') => active.run.cancel(mode) })),
      promote: (threadId) => this.#queue.promote(threadId),
    });
    const clock = this.#clock;
    const routing = routingParts(options, this.settings);
    // The dispatcher also holds the reader's read tools (the router's data-read steps call them); the model is not offered them.
    // `ask_user` (askUserTool): the model asks the person, and the turn waits for the answer.
    const askTools = this.settings.askUserTool && !options.tools.some((tool) => tool.name === askUserToolName) ? [createAskUserTool()] : [];
    const modelTools = new Set([...options.tools, ...askTools].map((tool) => tool.name));
    const readTools = routing === undefined ? [] : routing.reader.readTools.filter((tool) => !modelTools.has(tool.name));
    const store = options.store;
    // Built in: pages through the results a model's calls returned too large to show (docs/tools.md).
    const readResult = createReadResultTool(async ({ resultId, threadId, actor }) => {
      if (threadId === undefined) return undefined;
      const thread = await store.getThread(threadId);
      const turnId = resultId.replace(/\.r\d+\.\d+$/, '');
      if (thread === undefined || thread.owner !== actorKey(actor) || turnId === resultId) return undefined;
      const item = (await store.listItems(threadId, { turnId })).find((candidate) => candidate.id === resultId);
      return item === undefined ? undefined : storedResultOf(item);
    });
    const dispatcher = createDispatcher({
      tools: [...options.tools, ...askTools, ...readTools, readResult],
      app: options.app,
      settings: options.toolSettings,
      confirmations: storeConfirmations(options.store, (threadId) => (threadId === undefined ? undefined : this.#bindings.get(threadId))),
      clock: () => new Date(clock()),
      ids: options.ids ?? (() => nanoid()),
      instrument: options.instrumentTools,
      onError: (error, report) =>
        this.#hooks.emit('error', { error, code: 'tool_failed', threadId: report.threadId, source: report.phase === 'handler' ? 'tool' : 'confirmation_store' }),
    });
    const toolDefinitions = dispatcher.definitions().filter((definition) => modelTools.has(definition.name));
    const readResultTool = dispatcher.definitions().find((definition) => definition.name === readResultToolName)!;
    this.#parts = {
      store: options.store,
      provider: options.provider,
      dispatcher,
      toolDefinitions,
      readResultTool,
      readResultTools: Object.freeze([...toolDefinitions, readResultTool]),
      tokens: new TokenEstimator(options.provider?.model ?? ''),
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
      planned: options.planned,
      joinSteered: (run) => this.#queue.join(run),
    };
    this.#queue = new ThreadQueue({
      store: options.store,
      limit: () => this.settings.maxQueuedMessages,
      lease: () => this.#recovery.lease.id,
      run: (start) => this.#runQueued(start),
      channel: () => this.#channel(),
      changed: (threadId) => this.#hooks.emit('queueChanged', { threadId }),
      report: (error) => this.#hooks.emit('error', { error, code: 'chat_error', source: 'queue' }),
      track: (task) => this.#track(task),
    });
    const threadDeps = {
      store: options.store,
      queue: this.#queue,
      tails: this.#tails,
      hooks: this.#hooks,
      usable: () => this.#usable(),
      stopActive: (threadId: string) => this.#stopActive(threadId),
      titleLabel: this.#titleLabel(),
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
        for (const pending of await this.#store.pendingConfirmations(turn.id)) this.#scheduleExpiry(pending.id, pending.expiresAt);
      }
    });
    if (!this.#closed) this.#recovery.lease.startHeartbeat();
  }

  /** Tracks background work, so that `close` waits for it. */
  #track(task: Promise<void>): void {
    this.#tasks.add(task);
    void task.finally(() => this.#tasks.delete(task));
  }

  async recover(): Promise<number> {
    await this.#usable();
    return this.#recovery.recover();
  }

  /** The router's name for a tool's rows ("parts"), for generated titles. */
  #titleLabel(): TitleLabel | undefined {
    const reader = this.#parts.routing?.reader;
    if (reader?.label === undefined) return undefined;
    return (tool, language) => reader.label!(tool, language as Parameters<NonNullable<EngineReader['label']>>[1], 2);
  }

  async #generateTitle(run: TurnRun): Promise<void> {
    try {
      await titleAfterTurn(this.#store, run.thread.id, run.turnItems(), this.#titleLabel());
    } catch (error) {
      this.#hooks.emit('error', { error, code: 'chat_error', threadId: run.thread.id, turnId: run.turnId, source: 'turn' });
    }
  }

  /** Stops the thread's active run at once and waits for it. */
  async #stopActive(threadId: string): Promise<void> {
    const active = this.#active.get(threadId);
    if (active === undefined) return;
    active.run.cancel('immediate');
    await active.settled;
  }

  async #usable(): Promise<void> {
    if (this.#closed) throw new PlumbError('engine_closed', 'The engine is closed. Create a new engine.');
    await this.ready;
  }

  /** A turn in a thread of its own; a replayed request key keeps its first thread and the new one is dropped. */
  async #beginInNewThread(owner: string, title: string, request: SendRequest): Promise<BeginTurnResult> {
    const created = await this.#store.createThread({ owner, title });
    const begun = await this.#store.beginTurn({ threadId: created.id, requestKey: request.requestKey, input: request.text, lease: this.#recovery.lease.id });
    if (begun.turn.threadId !== created.id) await this.#store.deleteThread(created.id);
    return begun;
  }

  /** A turn in a named thread: the store checks the owner in the turn's own transaction (one read, no window between check and write). */
  async #beginInOwnedThread(owner: string, threadId: string, request: SendRequest): Promise<BeginTurnResult> {
    try {
      return await this.#store.beginTurn({ threadId, owner, requestKey: request.requestKey, input: request.text, lease: this.#recovery.lease.id });
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

  async #send(request: SendRequest, channel: EventChannel<ChatEvent>, answering?: string): Promise<void> {
    await this.#usable();
    if (typeof request.text !== 'string' || request.text.trim() === '') throw new PlumbError('bad_message', 'The message text is missing or blank. Send some text.');
    if (typeof request.requestKey !== 'string' || request.requestKey === '') {
      throw new PlumbError('bad_message', 'The request key is missing. Send a unique requestKey per message so that a resend is recognised.');
    }
    if (request.language !== undefined && !(LANGUAGES as readonly string[]).includes(request.language)) {
      throw new PlumbError('bad_message', `Unknown language '${String(request.language)}'. Languages: ${LANGUAGES.join(', ')}.`);
    }
    const owner = ownerOf(request.actor);
    this.#slots.checkRoom();
    // Without a thread id: the owner's latest thread, or a new one, in the turn's own transaction;
    // `newThread`: a thread of its own (a resent request key still replays its turn, in the thread it began).
    const title = request.text.trim().slice(0, 80);
    const begun =
      request.threadId !== undefined
        ? await this.#beginInOwnedThread(owner, request.threadId, request)
        : request.newThread === true
          ? await this.#beginInNewThread(owner, title, request)
          : await this.#store.beginTurn({ owner, newThreadTitle: title, requestKey: request.requestKey, input: request.text, lease: this.#recovery.lease.id });
    const thread = begun.thread;
    const base = { thread_id: thread.id, turn_id: begun.turn.id };
    if (begun.outcome === 'busy') {
      // Queued, to run once the thread's turn is over: this stream says where, then carries it.
      const limit = this.settings.maxQueuedMessages;
      const queued = limit > 0 && (await this.#queue.wait({ threadId: thread.id, owner, actor: request.actor as unknown as JsonValue, requestKey: request.requestKey, text: request.text, language: request.language }, channel, request.canConfirm ?? true));
      if (queued) return;
      const message = limit > 0
        ? `This conversation is still answering a message and already has ${limit} waiting (maxQueuedMessages). Wait for them, or remove one.`
        : 'This conversation is still answering a message. Wait for it to finish or cancel it.';
      void channel.push({ ...base, type: 'error', code: 'turn_in_progress', message });
      return;
    }
    if (begun.outcome === 'existing') {
      if (begun.turn.input !== request.text) {
        void channel.push({ ...base, type: 'error', code: 'request_conflict', message: 'This request key was already used with different text. Use a new request key for a new message.' });
        return;
      }
      await replayTurn(this.#store, begun.turn, channel, (turn) => {
        const active = this.#active.get(turn.threadId);
        return active !== undefined && active.run.turnId === turn.id ? active.settled : undefined;
      });
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
        answering,
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
      run.startDeadline();
      await before(run);
      await driveTurn(run);
      if (run.ended?.status === 'completed' && run.thread.titleSource === null) await this.#generateTitle(run);
      if (this.#hooks.has('turnDiagnostics')) this.#hooks.emit('turnDiagnostics', { actor: run.actor, threadId: run.thread.id, turnId: run.turnId, record: turnDiagnostics(run) });
      // A run that did not hold the thread's tail leaves the kept one stale: forgotten rather than kept until evicted.
      if (run.journalIntact && run.holdsThreadTail) this.#tails.remember(run.thread.id, run.items, run.contextFrom);
      else this.#tails.forget(run.thread.id);
    } finally {
      run.dispose();
      if (slot) this.#slots.release();
      this.#active.delete(run.thread.id);
      release?.();
      // The thread is free once its turn ended (not paused on a person): its queue's next message runs.
      if (run.ended !== undefined) this.#queue.promote(run.thread.id);
    }
  }

  /** A queued message begun as its thread's turn: run as the actor who sent it. */
  async #runQueued(start: QueuedStart): Promise<void> {
    const { message, begun } = start;
    const actor = message.actor as unknown as Actor;
    this.#hooks.emit('messageReceived', { actor, threadId: begun.thread.id, turnId: begun.turn.id, text: message.text });
    const run = new TurnRun({
      parts: this.#parts,
      actor,
      thread: begun.thread,
      turn: begun.turn,
      channel: start.channel,
      items: [begun.userItem],
      counters: emptyCounters,
      canConfirm: start.canConfirm,
      language: message.language ?? undefined,
      turnItemsOnly: begun.userItem.ordinal !== 1,
    });
    try {
      await this.#run(run, () => Promise.resolve());
    } finally {
      start.channel.close();
    }
  }

  answer(request: AnswerRequest): AsyncIterable<ChatEvent> {
    const channel = this.#channel();
    return this.#spawn(channel, () => this.#answer(request, channel), request.signal);
  }

  async #answer(request: AnswerRequest, channel: EventChannel<ChatEvent>): Promise<void> {
    await this.#usable();
    const unavailable = (): PlumbError => new PlumbError('question_unavailable', 'There is no open question with that id for you: it was answered, or its conversation went on. Refresh the conversation.');
    const owner = actorKey(request.actor);
    const turnId = turnOfQuestion(request.questionId);
    const found = turnId === undefined ? undefined : await this.#store.getTurn(turnId);
    if (found === undefined || owner === undefined || found.owner !== owner) throw unavailable();
    const thread = await this.#store.getThread(found.threadId);
    if (thread === undefined) throw unavailable();
    const asked = unansweredQuestions(await this.#store.listItems(thread.id, { turnId: found.id })).find((question) => question.questionId === request.questionId);
    if (asked === undefined) throw unavailable();
    const answer = resolveAnswer(asked, request);
    if ('problem' in answer) throw new PlumbError('bad_answer', answer.problem);
    if (asked.source === 'router') {
      // The router's question ended its turn; the reply is the thread's next turn, read as the answer to it.
      const latest = (await this.#store.listTurns(thread.id)).at(-1);
      if (latest?.id !== found.id) throw unavailable();
      const requestKey = request.requestKey ?? `${request.questionId}.a`;
      return this.#send({ actor: request.actor, threadId: thread.id, requestKey, text: answer.text, ...(request.language === undefined ? {} : { language: request.language }), ...(request.canConfirm === undefined ? {} : { canConfirm: request.canConfirm }) }, channel, request.questionId);
    }
    // Claimed like a confirmation: the turn moves from waiting to running under this engine, once.
    const turn = await this.#store.updateTurn(found.id, { status: 'running', lease: this.#recovery.lease.id }, ['waiting']);
    if (turn === undefined) throw unavailable();
    const items = [...(await this.#store.listItems(thread.id))];
    const turnItems = items.filter((item) => item.turnId === turn.id);
    const open = unansweredQuestions(turnItems);
    if (!open.some((question) => question.questionId === asked.questionId)) {
      await this.#store.updateTurn(turn.id, { status: 'waiting' }, ['running']);
      throw unavailable();
    }
    const result = answeredResult(asked, answer);
    const run = new TurnRun({ parts: this.#parts, actor: request.actor, thread, turn, channel, items, counters: emptyCounters, canConfirm: request.canConfirm });
    const recorded = [newItems.answer({ questionId: asked.questionId, text: answer.text, ...(answer.choice === undefined ? {} : { choice: answer.choice }), via: 'answer' })];
    if (asked.callId !== undefined) recorded.push(newItems.toolResult({ callId: asked.callId, name: asked.tool ?? '', result }));
    if (open.length > 1) {
      // Other questions of the step are still open: the turn waits on for them.
      await run.append(recorded, { status: 'waiting' });
      const waiting = run.emit({ type: 'tool_result', id: asked.callId ?? asked.questionId, name: asked.tool ?? '', result });
      if (waiting !== undefined) await waiting;
      return;
    }
    run.counters = replayCounters(run.turnItems());
    await this.#run(run, async () => {
      await run.append(recorded, { status: 'running' });
      run.counters = replayCounters(run.turnItems());
      const waiting = run.emit({ type: 'tool_result', id: asked.callId ?? asked.questionId, name: asked.tool ?? '', result });
      if (waiting !== undefined) await waiting;
    });
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
    // A turn resumed here, wherever it paused, runs under this engine's lease from now on.
    const turn = await this.#store.updateTurn(record.turnId, { status: 'running', lease: this.#recovery.lease.id }, ['waiting']);
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
    const turn = await this.#store.updateTurn(record.turnId, { status: 'running', lease: this.#recovery.lease.id }, ['waiting']);
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
    const turn = await this.#store.updateTurn(waiting.id, { status: 'running', lease: this.#recovery.lease.id }, ['waiting']);
    if (turn === undefined) return this.#store.getTurn(waiting.id);
    for (const pending of await this.#store.pendingConfirmations(turn.id)) this.#clearExpiry(pending.id);
    const channel = this.#channel();
    channel.detach();
    const items = [...(await this.#store.listItems(thread.id, { turnId: turn.id }))];
    const run = new TurnRun({ parts: this.#parts, actor: { kind: 'anonymous' }, thread, turn, channel, items, counters: emptyCounters });
    run.cancelMode = request.mode;
    await run.cancelled();
    this.#queue.promote(thread.id);
    return this.#store.getTurn(turn.id);
  }

  retry(request: RetryRequest): AsyncIterable<ChatEvent> {
    const channel = this.#channel();
    return this.#spawn(channel, () => this.#retry(request, channel), request.signal);
  }

  async #retry(request: RetryRequest, channel: EventChannel<ChatEvent>): Promise<void> {
    await this.#usable();
    const owner = ownerOf(request.actor);
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
    const refused = retryRefusal(found, latest);
    if (refused !== undefined) {
      void channel.push({ ...base, type: 'error', code: 'not_retryable', reason: refused.reason, message: refused.message });
      return;
    }
    const turn = await this.#store.updateTurn(found.id, { status: 'running', failureCode: null, failureMessage: null, lease: this.#recovery.lease.id }, [found.status === 'cancelled' ? 'cancelled' : 'failed']);
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
    this.#queue.close();
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    for (const active of this.#active.values()) {
      active.run.cancel('immediate');
      // Nobody may be reading: a full buffer must not keep the cancelled turn from settling.
      active.run.channel.detach();
    }
    await Promise.allSettled([...this.#tasks]);
    // Released once nothing runs under it: what is left active (nothing, normally) is orphaned at once.
    await this.ready.catch(() => undefined);
    await this.#recovery.lease.close();
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
    answer: options.answer ?? writeAnswer,
    onUnread: settings.onUnread ?? (options.provider === undefined && options.planned === undefined ? 'refuse' : 'model'),
    askToRephrase: settings.askToRephrase,
    answerWith: settings.answerWith,
    live: new LiveSessions(),
  };
}

/**
 * Why a turn may not be retried, as the `reason` of `not_retryable`: its write's outcome is unknown
 * (it might run twice), a later turn exists, it is still active or completed, or it failed in a way
 * that running it again would repeat (a bound, a refusal). A turn that failed `interrupted`,
 * `rate_limited`, `deadline_exceeded` or with a provider code, or that a person stopped (cancelled
 * with nothing in flight), is retried from its committed items.
 */
export function retryRefusal(turn: TurnRecord, latest: TurnRecord | undefined): { readonly reason: string; readonly message: string } | undefined {
  const code = turn.failureCode ?? '';
  if (code === 'effect_outcome_unknown') {
    return { reason: 'effect_outcome_unknown', message: 'This turn stopped while a change was running; it cannot be retried because the change might run twice. Check the data and ask again.' };
  }
  if (latest?.id !== turn.id) return { reason: 'not_latest', message: 'Only the latest turn of a conversation can be retried; a later message was sent after this one.' };
  if (turn.status === 'accepted' || turn.status === 'running' || turn.status === 'waiting') return { reason: 'active', message: 'This turn is still running or waiting; stop it first, or wait for it to end.' };
  if (turn.status === 'completed') return { reason: 'completed', message: 'This turn completed; send the message again to ask again.' };
  const retryable = turn.status === 'cancelled' ? code === 'cancelled' : code === 'interrupted' || code === 'rate_limited' || code === 'deadline_exceeded' || code.startsWith('provider_');
  if (retryable) return undefined;
  return { reason: code === '' ? 'not_retryable' : code, message: 'Only a turn that was stopped, or that failed with interrupted, deadline_exceeded, rate_limited or a provider failure, can be retried.' };
}
