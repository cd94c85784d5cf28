import { PlumbError } from '../../core/index.js';
import type { Actor, JsonValue } from '../../core/index.js';
import type { ChatMessage } from '../../providers/index.js';
import type { ItemRecord, NewItem, StepPatch, ThreadRecord, TokenUsage, TurnRecord } from '../../store/index.js';
import { newItems, retryReason, runIdOf, runMarks, runNumberAt, startsRun, withoutStoredResult, withoutSuperseded } from '../shared/index.js';
import type { ChatEvent, DoneEvent, EventChannel, RunEvent, RunPhase, StopMode } from '../shared/index.js';
import { generatedTitle, tailOrdinals, unansweredQuestions, unansweredResult } from '../thread/index.js';
import type { KeptHistory } from '../thread/index.js';
import type { PageContext } from '../context/index.js';
import type { EngineParts } from './parts.js';
import type { SessionHandle } from './router-types.js';
import type { TurnCounters } from './turn-state.js';

/** What a step changes on its turn and thread; the run adds the usage not yet written. */
type StepChange = Omit<StepPatch, 'addUsage'>;

/**
 * One run of a turn (from acceptance, a confirmation or a retry to `done`, an error or a pause).
 * Mutable by design: the loop's steps update it in order; nothing else sees it.
 */
export class TurnRun {
  readonly parts: EngineParts;
  readonly actor: Actor;
  readonly thread: ThreadRecord;
  readonly turnId: string;
  readonly channel: EventChannel<ChatEvent>;
  readonly controller = new AbortController();
  /** The thread's items, loaded once and extended as the run appends (replaced, not spliced, when loaded: a long thread's tail is one copy). */
  #items: ItemRecord[];
  get items(): ItemRecord[] {
    return this.#items;
  }
  counters: TurnCounters;
  /** Usage of the turn so far (committed plus this run's pending rounds). */
  usage: TokenUsage;
  /** Usage of rounds not yet written to the turn. */
  pendingUsage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  cancelMode: 'immediate' | 'graceful' | undefined;
  /** The graceful deadline passed with tools still running. */
  deadlinePassed = false;
  /** Writes that were still running when the run was aborted (immediate cancel or the graceful deadline). */
  writesCutOff = 0;
  runningWrites = 0;
  /** Extra messages for the next round only (a recovery prompt). */
  /** Text held back while a recovery round may still discard it. */
  textBuffer: string[] | undefined;
  extraMessages: { role: 'assistant' | 'user'; content: string }[] = [];
  /**
   * The context, opened at the run's first round: where verbatim history starts, the summary before
   * it and the ordinal of the last item it covers (0 without one); moved by a compaction.
   * `failedCompaction`: a summary of it failed its ceiling, so pressure alone does not try again in
   * this run. `tally`: the history's raw tokens, and whether it holds a cut result, over the first
   * `seen` of `items` (a round counts only what was appended since the last), and the messages of
   * the turns before this one, once converted (`kept`: those the thread's last run left converted,
   * through their last ordinal).
   */
  window:
    | {
        readonly startOrdinal: number;
        readonly summary: string | null;
        readonly through: number;
        readonly failedCompaction?: boolean;
        readonly tally: { seen: number; raw: number; cut: boolean; earlier?: readonly ChatMessage[]; kept?: KeptHistory; snapshot?: PageContext };
      }
    | undefined;
  /** False when the caller cannot ask a person (plain HTTP): a write that needs confirmation fails the turn. */
  readonly canConfirm: boolean;
  /** The thread's router session while this run reads or checks with it. */
  session: SessionHandle | undefined;
  /** Wall time this run spent in each stage, in milliseconds (tool calls summed, concurrent ones too). */
  readonly latency = { router: 0, model: 0, tools: 0 };
  readonly startedAt = performance.now();
  /** How the run ended; undefined while it runs, and for a run that paused on a confirmation. */
  ended: { readonly status: 'completed' | 'failed' | 'cancelled'; readonly code: string | null } | undefined;
  /** A planned turn's own allow-listed record, for the turn's diagnostics. */
  planned: Readonly<Record<string, JsonValue>> | undefined;
  /** The language a new router session of the thread reads in (the sender's choice). */
  readonly language: string | undefined;
  /** The question this run's new turn answers (`engine.answer` on a router question): bound when it is read. */
  readonly answering: string | undefined;
  /** The message's supplemental context: read by this run's provider rounds only, never stored. */
  readonly supplementalContext: string | undefined;
  /** The time zone the router reads this turn's dates in, when the request chose one. */
  readonly timeZone: string | undefined;
  /**
   * How much of the thread `items` holds: this turn's items only (a new turn, until its first
   * model round: it may wait for a slot, and a router turn may need no model at all), a recent tail
   * of it (enough for the context window of a long thread, checked when the window is chosen), or
   * all of it.
   */
  #loaded: 'turn' | 'tail' | 'whole';
  /** The converted history the thread's last run left, when `loadThread` continued from its kept items. */
  keptHistory: KeptHistory | undefined;
  /** The commit of the latest staged step, while one is on its way; events wait behind it. */
  #staged: Promise<void> | undefined;
  #held: ChatEvent[] = [];
  /** A staged step's commit was lost: events are dropped until the turn's failure is recorded. */
  #dropping = false;
  /** Why a staged step was lost, until the turn's next write is refused with it. */
  #lost: Error | undefined;
  #gracefulTimer: ReturnType<typeof setTimeout> | undefined;
  #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  /** The run passed `turnDeadlineSeconds`: it stops as a cancel would, and ends `deadline_exceeded`. */
  timedOut = false;
  #streamController: AbortController | undefined;
  #run: number;
  phase: RunPhase | undefined;

  constructor(init: {
    parts: EngineParts;
    actor: Actor;
    thread: ThreadRecord;
    turn: TurnRecord;
    channel: EventChannel<ChatEvent>;
    items: ItemRecord[];
    counters: TurnCounters;
    canConfirm?: boolean | undefined;
    language?: string | undefined;
    answering?: string | undefined;
    /** `items` holds only this turn's items; the thread's are read on the first model round. */
    turnItemsOnly?: boolean | undefined;
    supplementalContext?: string | undefined;
    timeZone?: string | undefined;
  }) {
    this.parts = init.parts;
    this.actor = init.actor;
    this.thread = init.thread;
    this.turnId = init.turn.id;
    this.channel = init.channel;
    // A regenerated turn's runs hold confirmations for every write, and never see the superseded run.
    this.regenerating = init.items.some((item) => item.turnId === init.turn.id && item.kind === 'retry_marker' && retryReason(item) === 'regenerate');
    // Counted before the superseded items are dropped: their marks began runs too.
    this.#run = runNumberAt(init.items.filter((item) => item.turnId === init.turn.id), Infinity);
    this.#items = withoutSuperseded(init.items);
    this.counters = init.counters;
    this.usage = init.turn.usage;
    this.canConfirm = init.canConfirm ?? true;
    this.language = init.language;
    this.answering = init.answering;
    this.supplementalContext = init.supplementalContext;
    this.timeZone = init.timeZone;
    this.#loaded = init.turnItemsOnly === true ? 'turn' : 'whole';
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The controller for provider streams' signals: one per run, replaced once a stream aborted it. */
  streamController(): AbortController {
    const current = this.#streamController;
    if (current !== undefined && !current.signal.aborted) return current;
    return (this.#streamController = new AbortController());
  }

  /** No new provider round or tool may start. */
  get stopping(): boolean {
    return this.cancelMode !== undefined;
  }

  /**
   * Sends an event to the reader, stamped with the thread and turn. The event becomes the
   * channel's: callers pass a fresh object, which is stamped in place rather than copied (a copy
   * per event was a measurable share of a turn).
   */
  emit(event: RunEvent): Promise<void> | undefined {
    const stamped = event as { thread_id?: string; turn_id?: string; run_id?: string };
    stamped.thread_id = this.thread.id;
    stamped.turn_id = this.turnId;
    stamped.run_id = this.runId;
    if (this.#dropping) return undefined;
    // Behind a staged step, or behind text waiting for the next commit: in order, after it.
    if (this.#staged !== undefined || this.#held.length > 0) {
      this.#held.push(stamped as ChatEvent);
      return undefined;
    }
    return this.channel.push(stamped as ChatEvent);
  }

  /**
   * Sends an event once the run's next write is committed (text whose journal record is that
   * write: a final answer's last chunks); later events wait behind it.
   */
  emitAfterCommit(event: RunEvent): void {
    const stamped = event as { thread_id?: string; turn_id?: string; run_id?: string };
    stamped.thread_id = this.thread.id;
    stamped.turn_id = this.turnId;
    stamped.run_id = this.runId;
    if (!this.#dropping) this.#held.push(stamped as ChatEvent);
  }

  /** This run's id (`runIdOf`): a `retry` or `regenerate` mark the run writes begins the next. */
  get runId(): string {
    return runIdOf(this.turnId, this.#run);
  }

  /** What the run is doing now; with `phaseEvents`, a change is sent as a `phase` event (a phase entered again is not). */
  enter(phase: RunPhase): Promise<void> | undefined {
    if (this.phase === phase) return undefined;
    this.phase = phase;
    return this.parts.settings.phaseEvents ? this.emit({ type: 'phase', phase }) : undefined;
  }

  /** Sends the events held behind staged steps, in order: every staged step is committed. */
  #release(): void {
    this.#staged = undefined;
    const held = this.#held;
    this.#held = [];
    // Pushed without waiting for the reader: the channel holds them beyond its capacity, as many as one stretch of the turn made.
    for (const event of held) void this.channel.push(event);
  }

  addUsage(usage: TokenUsage): void {
    this.usage = { inputTokens: this.usage.inputTokens + usage.inputTokens, outputTokens: this.usage.outputTokens + usage.outputTokens };
    this.pendingUsage = {
      inputTokens: this.pendingUsage.inputTokens + usage.inputTokens,
      outputTokens: this.pendingUsage.outputTokens + usage.outputTokens,
    };
  }

  /** Appends a step's items (and the pending usage) in one transaction; keeps the local copy in step. */
  async append(items: readonly NewItem[], patch: StepChange = {}): Promise<readonly ItemRecord[]> {
    this.#refuseAfterLoss();
    return this.#commit(items, patch);
  }

  /**
   * `patch` with the router session when it changed since it was read or last written, so that the
   * step's own commit writes it (no transaction of its own); the run's ending commits do so always.
   */
  withSession(patch: StepChange): StepChange {
    const handle = this.session;
    if (handle === undefined) return patch;
    const json = handle.session.toJSON();
    return json === handle.saved ? patch : { ...patch, thread: { ...patch.thread, routerSession: json } };
  }

  async #commit(items: readonly NewItem[], patch: StepChange): Promise<readonly ItemRecord[]> {
    const records = await this.#write(patch, (full) => this.parts.store.appendItems(this.turnId, items, full, { lease: this.parts.lease() }));
    // Committed after the staged steps before it (the store commits in order), so they are too;
    // after a lost one this is the turn's failure record, whose event must be seen.
    this.#dropping = false;
    if (this.#staged !== undefined || this.#held.length > 0) this.#release();
    return records;
  }

  /**
   * Appends a step that is safe to run again (read tools and their results) without waiting for
   * its commit (`Store.stageItems`): the turn goes on at once, and its events from here on are
   * held until the step is committed, so that a client never sees what a crash could take back.
   * If that commit fails, the held events and every later one are dropped, and the turn's next
   * write is refused (the turn then fails and records it): nothing is committed after a lost
   * step as if it had been kept.
   */
  async stage(items: readonly NewItem[], patch: StepChange = {}): Promise<readonly ItemRecord[]> {
    this.#refuseAfterLoss();
    let committed: Promise<void> = Promise.resolve();
    const records = await this.#write(patch, async (full) => {
      const staged = await this.parts.store.stageItems(this.turnId, items, full, { lease: this.parts.lease() });
      committed = staged.committed;
      return staged.records;
    });
    const gate: Promise<void> = committed.then(
      () => {
        if (this.#staged === gate) this.#release();
      },
      (error: unknown) => {
        this.#staged = undefined;
        this.#held = [];
        this.#dropping = true;
        this.#lost = error instanceof Error ? error : new Error(String(error));
        this.journalIntact = false;
      },
    );
    this.#staged = gate;
    return records;
  }

  /** Writes a step with the usage not yet written; once it is in, that usage is written and the local copy is in step. */
  async #write(patch: StepChange, write: (patch: StepPatch) => Promise<readonly ItemRecord[]>): Promise<readonly ItemRecord[]> {
    const usage = this.pendingUsage;
    const hasUsage = usage.inputTokens > 0 || usage.outputTokens > 0;
    const records = await write(hasUsage ? { ...patch, addUsage: usage } : patch);
    if (hasUsage) this.pendingUsage = { inputTokens: 0, outputTokens: 0 };
    const session = patch.thread?.routerSession;
    if (session !== undefined && this.session !== undefined) this.session.saved = session;
    for (const record of records) {
      if (startsRun(record)) this.#run += 1;
      this.items.push(withoutStoredResult(record));
    }
    return records;
  }

  #refuseAfterLoss(): void {
    if (this.#lost === undefined) return;
    const lost = this.#lost;
    this.#lost = undefined;
    throw lost;
  }

  /** False once a staged step was lost: `items` then holds records the journal does not. */
  journalIntact = true;

  /** True once `items` holds the whole thread's journal. */
  get wholeThread(): boolean {
    return this.#loaded === 'whole';
  }

  /** True when `items` holds the thread's recent items, not only this turn's (worth keeping for its next turn). */
  get holdsThreadTail(): boolean {
    return this.#loaded !== 'turn';
  }

  /**
   * Makes `items` hold at least the recent part of the thread that the model's context needs: the
   * thread's last items before this turn (`tailOrdinals` of them), or all of them when the thread
   * is short. The caller checks that the tail suffices and else calls `loadWholeThread`.
   */
  async loadThread(): Promise<void> {
    if (this.#loaded !== 'turn') return;
    const first = this.items[0]?.ordinal ?? 1;
    const after = Math.max(0, first - 1 - tailOrdinals);
    // What the thread's last run left, when nothing was appended since and it reaches back as far (it
    // may reach further: the history since the summary's marker); else the store's tail.
    const kept = this.parts.tails.kept(this.thread.id, first - 1);
    const from = kept?.[0]?.ordinal;
    const usable = kept !== undefined && from !== undefined && from <= after + 1;
    // A regenerated turn's kept history may hold the run it supersedes, so it converts afresh.
    if (usable && !this.regenerating) this.keptHistory = this.parts.tails.history(this.thread.id);
    this.#items = withoutSuperseded(usable ? kept.concat(this.#items) : (await this.parts.store.listItems(this.thread.id, after === 0 ? {} : { afterOrdinal: after })).map(withoutStoredResult));
    this.#loaded = (usable ? from : after + 1) === 1 ? 'whole' : 'tail';
  }

  /** Makes `items` the whole thread's journal (once). */
  async loadWholeThread(): Promise<void> {
    if (this.#loaded === 'whole') return;
    this.#items = withoutSuperseded((await this.parts.store.listItems(this.thread.id)).map(withoutStoredResult));
    this.#loaded = 'whole';
  }

  /** Where the thread's next turn's history starts (the summary's marker, or the first item); undefined when no context was opened. */
  get contextFrom(): number | undefined {
    return this.window === undefined ? undefined : Math.max(1, this.window.through);
  }

  /** This turn's items: the last of `items` (a thread has one active turn, so its items come last), found from the end. */
  turnItems(): ItemRecord[] {
    let start = this.items.length;
    while (start > 0 && this.items[start - 1]!.turnId === this.turnId) start--;
    return this.items.slice(start);
  }

  /** The turn's answer is being regenerated: its writes all wait for a new confirmation (`DispatchContext.confirmWrites`). */
  readonly regenerating: boolean;

  /** True until the engine gives the run one of its `maxConcurrentTurns` slots. */
  waitingForSlot = true;

  cancel(requested: 'immediate' | 'graceful'): void {
    // A turn still waiting for its slot has nothing running to let finish.
    const mode = this.waitingForSlot ? 'immediate' : requested;
    if (mode === 'immediate' || this.cancelMode === undefined) this.cancelMode = mode;
    if (this.ended === undefined) void this.enter('stopping');
    if (mode === 'immediate') {
      this.writesCutOff = this.runningWrites;
      this.controller.abort(new Error('The turn was cancelled.'));
      return;
    }
    if (this.#gracefulTimer !== undefined) return;
    this.#gracefulTimer = setTimeout(() => {
      this.deadlinePassed = true;
      this.writesCutOff = this.runningWrites;
      this.controller.abort(new Error('The turn was cancelled; running tools did not finish in time.'));
    }, this.parts.settings.gracefulCancelMs);
  }

  /**
   * A person's stop: journaled first (a `stop` mark, written beside the run's own steps rather than
   * through them, so that it lands while a tool or a provider round is still running), then the run
   * is cancelled. Views show the turn `stopping` from the mark until it ends; a restart that finds
   * the mark ends the turn stopped. A mark that cannot be written (the lease is lost) still stops the run.
   */
  async requestStop(mode: StopMode): Promise<void> {
    if (this.ended === undefined && this.cancelMode === undefined) {
      const request = { mode: this.waitingForSlot ? 'immediate' : mode, requestedAt: this.parts.clock() } as const;
      try {
        const [mark] = await this.parts.store.appendItems(this.turnId, [runMarks.stop(request)], {}, { lease: this.parts.lease() });
        if (mark !== undefined) this.#insert(mark);
      } catch (error) {
        this.parts.hooks.emit('error', { error, code: 'chat_error', threadId: this.thread.id, turnId: this.turnId, source: 'turn' });
      }
    }
    this.cancel(mode);
  }

  /** Puts a record written beside the run's steps in its place in `items` (ordinal order). */
  #insert(record: ItemRecord): void {
    const at = this.items.findIndex((item) => item.ordinal > record.ordinal);
    this.items.splice(at === -1 ? this.items.length : at, 0, withoutStoredResult(record));
  }

  /**
   * Starts the run's clock (`turnDeadlineSeconds`): once it runs out, the run stops as an immediate
   * cancel stops it (the provider stream and running tools aborted) and ends `deadline_exceeded`
   * (`effect_outcome_unknown` when a write was cut off). Waiting for a slot or for a person is not counted.
   */
  startDeadline(): void {
    const seconds = this.parts.settings.turnDeadlineSeconds;
    if (seconds === null || this.#deadlineTimer !== undefined || this.ended !== undefined) return;
    this.#deadlineTimer = setTimeout(() => {
      if (this.ended !== undefined) return;
      this.timedOut = true;
      this.cancelMode = 'immediate';
      this.writesCutOff = this.runningWrites;
      this.controller.abort(new PlumbError('deadline_exceeded', `The turn ran past its deadline of ${seconds} s (turnDeadlineSeconds).`));
    }, seconds * 1000);
    this.#deadlineTimer.unref();
  }

  /** Releases timers; called once the run settles (idempotent). */
  dispose(): void {
    if (this.#gracefulTimer !== undefined) clearTimeout(this.#gracefulTimer);
    this.#gracefulTimer = undefined;
    if (this.#deadlineTimer !== undefined) clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
  }

  /** Ends the turn failed: error item and status in one transaction, then the error event. */
  async fail(code: string, message: string, extra: { retryAfterSeconds?: number; error?: unknown; items?: readonly NewItem[] } = {}): Promise<void> {
    await this.#commit([...(extra.items ?? []), newItems.error(code, message)], this.withSession({ status: 'failed', failureCode: code, failureMessage: message }));
    this.ended = { status: 'failed', code };
    void this.enter('done');
    this.parts.hooks.emit('error', { error: extra.error ?? new Error(message), code, threadId: this.thread.id, turnId: this.turnId, source: 'turn' });
    const waiting = this.emit(
      extra.retryAfterSeconds === undefined ? { type: 'error', code, message } : { type: 'error', code, message, retry_after_seconds: extra.retryAfterSeconds },
    );
    if (waiting !== undefined) await waiting;
  }

  /** Ends the turn cancelled (or failed `effect_outcome_unknown` when a write was cut off). */
  async cancelled(): Promise<void> {
    const store = this.parts.store;
    const now = this.parts.clock();
    const resolutions: NewItem[] = [];
    for (const pending of await store.pendingConfirmations(this.turnId)) {
      if (await store.resolveConfirmation(pending.id, { status: 'cancelled', reason: 'turn_cancelled' }, now)) {
        resolutions.push(newItems.confirmationResolution({ confirmationId: pending.id, callId: pending.callId, outcome: 'cancelled' }));
        resolutions.push(newItems.toolResult({ callId: pending.callId, name: pending.tool, result: { status: 'cancelled', reason: 'turn_cancelled' } }));
      }
    }
    // An open question ends with the turn: answered `cancelled`, its call with that result.
    for (const question of unansweredQuestions(this.turnItems())) {
      if (question.source === 'router') continue;
      resolutions.push(newItems.answer({ questionId: question.questionId, text: '', via: 'cancelled' }));
      if (question.callId !== undefined) resolutions.push(newItems.toolResult({ callId: question.callId, name: question.tool ?? '', result: unansweredResult(question, 'turn_cancelled') }));
    }
    if (this.timedOut) {
      const seconds = this.parts.settings.turnDeadlineSeconds ?? 0;
      if (this.writesCutOff > 0) {
        await this.fail('effect_outcome_unknown', `The turn ran past its deadline of ${seconds} s while a change was running; whether it took effect is unknown.`, { items: resolutions });
      } else {
        await this.fail('deadline_exceeded', `The turn ran past its deadline of ${seconds} s (turnDeadlineSeconds) and was stopped.`, { items: resolutions });
      }
      return;
    }
    if (this.deadlinePassed && this.writesCutOff > 0) {
      await this.fail('effect_outcome_unknown', 'The turn was cancelled while a change was still running; whether it took effect is unknown.', { items: resolutions });
      return;
    }
    // An immediate cancel that cut a write off still ends `cancelled`, but records that the
    // write's outcome is unknown, so that the turn is never retried.
    const code = this.writesCutOff > 0 ? 'effect_outcome_unknown' : 'cancelled';
    const message = code === 'cancelled' ? 'The turn was cancelled.' : 'The turn was cancelled while a change was running; whether it took effect is unknown.';
    await this.#commit([...resolutions, newItems.error(code, message)], this.withSession({ status: 'cancelled', failureCode: code, failureMessage: message }));
    this.ended = { status: 'cancelled', code };
    void this.enter('done');
    const waiting = this.emit({ type: 'error', code: 'cancelled', message });
    if (waiting !== undefined) await waiting;
  }

  /**
   * Ends the turn completed: its last items and status in one transaction, with the router session
   * and, for an untitled thread, a title from the turn (never over a person's); then `done` (with a
   * planned turn's coverage).
   */
  async done(items: readonly NewItem[], extra: Pick<DoneEvent, 'coverage' | 'clarification' | 'truncated'> = {}): Promise<void> {
    const title = this.thread.titleSource === null ? generatedTitle([...this.turnItems(), ...items], this.parts.titleLabel) : undefined;
    const patch = this.withSession({ status: 'completed', failureCode: null, failureMessage: null });
    await this.append(items, title === undefined ? patch : { ...patch, thread: { ...patch.thread, generatedTitle: title } });
    this.ended = { status: 'completed', code: null };
    void this.enter('done');
    const waiting = this.emit({ type: 'done', usage: { input_tokens: this.usage.inputTokens, output_tokens: this.usage.outputTokens }, ...extra });
    if (waiting !== undefined) await waiting;
  }
}

