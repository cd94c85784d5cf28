import { isPlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { RunReader, withRunIds } from '../engine/index.js';
import type { RunItem, RunPhase, ThreadState, TurnProjection } from '../engine/index.js';
import type { Store, TurnStatus } from '../store/index.js';
import type { ThreadEvents } from './thread-events.js';
import { followThread } from './thread-follow.js';

/**
 * Live thread views (docs/protocol.md, "Live thread views"): any number of observers of a thread,
 * from any client or tab, over SSE or a WebSocket, in this process or another on the same journal.
 *
 * Built on the thread followers (`followThread` over `ThreadEvents`): a process follows a thread
 * once, however many of its clients observe it, and hands each batch of events, encoded once, to
 * every observer. Every event carries `seq`, the journal position it follows (an item's own
 * ordinal), so an observer that comes back with the last `seq` it saw gets what it missed replayed
 * from the journal, page by page as its connection drains, then a fresh `view` of the thread and
 * the live events. Live text is the journal's: a running round's text drafts (`text_draft` items,
 * journaled every few milliseconds as the model streams) are items like any other, so a view
 * shows a turn's text as it streams wherever the turn runs.
 *
 * Each observer costs bounded memory: drafts are coalesced for `coalesceMs` (other items and turn
 * changes go out at the end of the tick they arrive in); an observer whose connection holds more
 * than `maxPendingBatches` batches or `maxPendingBytes` not yet written loses them and is told to
 * `resubscribe` (with a fresh view) — it comes back with its last `seq`, and the journal replays.
 */

export interface ThreadViewsOptions {
  readonly store: Store;
  readonly events: ThreadEvents;
  /** Drafts gather this long before they go out. Milliseconds. */
  readonly coalesceMs: number;
  /** Batches written to one observer's connection and not yet taken by it; one more ends it with `resubscribe`. */
  readonly maxPendingBatches: number;
  /** Bytes of those batches (their JSON text); past it, the same. */
  readonly maxPendingBytes: number;
  /** Items a resumed observer may have missed and still get replayed; a larger gap answers `resubscribe` with a fresh view. */
  readonly maxReplayItems: number;
  /** The journal is read at least this often without a notice (a notice lost in transit). Milliseconds. */
  readonly pollMs?: number;
  readonly report: (error: unknown) => void;
}

/** What a view is of a thread now: the engine's `ThreadState`, as the protocol writes it. */
export interface ViewBody {
  readonly ordinal: number;
  readonly thread: { readonly id: string; readonly title: string | null; readonly title_source: string | null; readonly forked_from: JsonValue; readonly created_at: number; readonly updated_at: number };
  readonly turn: { readonly id: string; readonly run_id: string; readonly status: TurnStatus; readonly failure_code: string | null; readonly input: string; readonly projection: TurnProjection | null } | null;
  /** What the latest turn's run is doing (docs/protocol.md, "Run phase"); null without a turn. */
  readonly phase: RunPhase | null;
  readonly text: string;
  readonly confirmation: JsonValue;
  readonly question: JsonValue;
  readonly queue: JsonValue;
  /** `{ mode, requested_at }` while a person's stop of the active turn has not ended it; else null. */
  readonly stopping: { readonly mode: string; readonly requested_at: number } | null;
  /** The latest turn ended by a person's stop: the queue waits for them. */
  readonly queue_held: boolean;
}

export type ViewEvent =
  | ({ readonly type: 'view'; readonly seq: string; readonly thread_id: string } & ViewBody)
  | { readonly type: 'item'; readonly seq: string; readonly thread_id: string; readonly turn_id: string; readonly run_id: string; readonly item: RunItem }
  | { readonly type: 'turn'; readonly seq: string; readonly thread_id: string; readonly turn_id: string; readonly run_id: string; readonly status: TurnStatus }
  | { readonly type: 'phase'; readonly seq: string; readonly thread_id: string; readonly turn_id: string; readonly run_id: string; readonly phase: RunPhase }
  | { readonly type: 'resubscribe'; readonly seq: string; readonly thread_id: string; readonly reason: 'gap' | 'overflow'; readonly view: ViewBody }
  | { readonly type: 'thread_deleted'; readonly seq: string; readonly thread_id: string };

/** Events that go out together, encoded once for every observer. */
export class ViewBatch {
  readonly events: ViewEvent[];
  #json: string[] | undefined;
  #sse: string | undefined;
  #bytes = -1;

  constructor(events: ViewEvent[] = []) {
    this.events = events;
  }

  json(): readonly string[] {
    return (this.#json ??= this.events.map((event) => JSON.stringify(event)));
  }

  /** As SSE: `id: <seq>` (what `Last-Event-ID` brings back) and the event as `data:`. */
  sse(): string {
    if (this.#sse !== undefined) return this.#sse;
    const json = this.json();
    let text = '';
    for (let index = 0; index < json.length; index++) text += `id: ${this.events[index]!.seq}\ndata: ${json[index]!}\n\n`;
    return (this.#sse = text);
  }

  get bytes(): number {
    if (this.#bytes < 0) this.#bytes = this.json().reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    return this.#bytes;
  }
}

/** Where an observer's batches go: an SSE response or a WebSocket subscription. */
export interface ViewSink {
  /** Writes a batch; `drained` is called once the connection took it (written to the socket). */
  write(batch: ViewBatch, drained: () => void): void;
  /** The observer is over (it overflowed, or the views closed): end the stream or the subscription. */
  end(): void;
}

export interface ObserveInput {
  readonly threadId: string;
  /** The `seq` the observer saw last: what came after it is replayed from the journal. */
  readonly after?: number;
  /** The thread as it is now, read as its owner (`engine.threads.state`). */
  readonly state: () => Promise<ThreadState>;
  readonly sink: ViewSink;
}

export interface ThreadObserver {
  /** Stops observing (the client left); idempotent. */
  close(): void;
}

export interface ThreadViews extends AsyncDisposable {
  observe(input: ObserveInput): ThreadObserver;
  /** Observers in this process, and the threads they observe. */
  counts(): { readonly observers: number; readonly threads: number };
  close(): Promise<void>;
}

export function createThreadViews(options: ThreadViewsOptions): ThreadViews {
  const hubs = new Map<string, ThreadHub>();
  let closed = false;
  const close = async (): Promise<void> => {
    closed = true;
    for (const hub of [...hubs.values()]) hub.stop(true);
    hubs.clear();
    return Promise.resolve();
  };
  return {
    observe(input) {
      if (closed) {
        input.sink.end();
        return { close: () => undefined };
      }
      let hub = hubs.get(input.threadId);
      if (hub === undefined) {
        hub = new ThreadHub(options, input.threadId, () => hubs.delete(input.threadId));
        hubs.set(input.threadId, hub);
      }
      const observer = new Observer(options, hub, input);
      hub.observers.add(observer);
      void observer.start();
      return observer;
    },
    counts: () => ({ observers: [...hubs.values()].reduce((sum, hub) => sum + hub.observers.size, 0), threads: hubs.size }),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** The item as a view shows it: a cut tool result's whole value stays in the journal (`read_result`, the items pages). */
function shown(item: RunItem): RunItem {
  if (item.kind !== 'tool_result' || item.data === null || typeof item.data !== 'object' || Array.isArray(item.data) || !('fullResult' in item.data)) return item;
  const { fullResult: _whole, ...rest } = item.data;
  return { ...item, data: rest };
}

function itemEvent(item: RunItem): ViewEvent {
  return { type: 'item', seq: String(item.ordinal), thread_id: item.threadId, turn_id: item.turnId, run_id: item.runId, item: shown(item) };
}

function deletedBatch(threadId: string, last: number): ViewBatch {
  return new ViewBatch([{ type: 'thread_deleted', seq: String(last), thread_id: threadId }]);
}

export function viewBody(state: ThreadState): ViewBody {
  const { thread, turn } = state;
  return {
    ordinal: state.ordinal,
    thread: { id: thread.id, title: thread.title, title_source: thread.titleSource, forked_from: thread.forkedFrom, created_at: thread.createdAt, updated_at: thread.updatedAt },
    turn: turn === null ? null : { id: turn.id, run_id: state.runId ?? '', status: turn.status, failure_code: turn.failureCode, input: turn.input, projection: state.projection },
    phase: state.phase,
    text: state.text,
    confirmation: state.confirmation,
    question: state.question as JsonValue,
    queue: state.queue as unknown as JsonValue,
    stopping: state.stopping === null ? null : { mode: state.stopping.mode, requested_at: state.stopping.requestedAt },
    queue_held: state.queueHeld,
  };
}

/** One thread followed for every observer of it in this process. */
class ThreadHub {
  readonly observers = new Set<Observer>();
  readonly threadId: string;
  /** Settles once the follower runs; `last` is then the journal position it follows from. */
  readonly started: Promise<void>;
  last = 0;
  readonly #options: ThreadViewsOptions;
  readonly #controller = new AbortController();
  readonly #forget: () => void;
  #open: ViewEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #immediate: ReturnType<typeof setImmediate> | undefined;
  #stopped = false;
  /** The runs of the items followed, and the latest turn's phase, read from where the follower starts. */
  readonly #runs = new RunReader();

  constructor(options: ThreadViewsOptions, threadId: string, forget: () => void) {
    this.#options = options;
    this.threadId = threadId;
    this.#forget = forget;
    this.started = this.#seed().then(() => {
      void this.#follow();
    });
    this.started.catch((error: unknown) => {
      options.report(error);
      this.stop(true);
    });
  }

  /** Where the follower starts, and the latest turn's runs and phase up to there. */
  async #seed(): Promise<void> {
    const { store } = this.#options;
    this.last = await store.lastOrdinal(this.threadId);
    const turns = await store.listTurns(this.threadId);
    const latest = turns[turns.length - 1];
    if (latest === undefined) return;
    const items = (await store.listItems(this.threadId, { turnId: latest.id })).filter((item) => item.ordinal <= this.last);
    this.#runs.seed(latest.id, latest.status, items);
  }

  async #follow(): Promise<void> {
    const { store, events, pollMs } = this.#options;
    try {
      for await (const event of followThread({ store, events, threadId: this.threadId, afterOrdinal: this.last, signal: this.#controller.signal, ...(pollMs === undefined ? {} : { pollMs }) })) {
        const phase = this.#runs.phase;
        if (event.type === 'item') {
          this.last = event.item.ordinal;
          const [item] = await withRunIds(store, [event.item], this.#runs);
          this.#add(itemEvent(item!), event.item.kind !== 'text_draft');
        } else if (event.type === 'turn') {
          this.#runs.status(event.turnId, event.status);
          const runId = event.turnId === this.#runs.turnId ? (this.#runs.runId ?? '') : '';
          this.#add({ type: 'turn', seq: String(this.last), thread_id: this.threadId, turn_id: event.turnId, run_id: runId, status: event.status }, true);
        } else {
          this.#deleted();
          continue;
        }
        const now = this.#runs.phase;
        if (now !== phase && now !== null) this.#add({ type: 'phase', seq: String(this.last), thread_id: this.threadId, turn_id: this.#runs.turnId!, run_id: this.#runs.runId!, phase: now }, true);
      }
    } catch (error) {
      if (this.#stopped) return;
      this.#options.report(error);
      this.stop(true);
    }
  }

  /** Drafts wait up to `coalesceMs`; anything else goes at the end of this tick, with the drafts before it. */
  #add(event: ViewEvent, boundary: boolean): void {
    this.#open.push(event);
    if (boundary) {
      this.#immediate ??= setImmediate(() => this.#flush());
    } else if (this.#timer === undefined && this.#immediate === undefined) {
      this.#timer = setTimeout(() => this.#flush(), this.#options.coalesceMs);
    }
  }

  #flush(): void {
    clearTimeout(this.#timer);
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
    if (this.#open.length === 0) return;
    const batch = new ViewBatch(this.#open);
    this.#open = [];
    for (const observer of [...this.observers]) observer.deliver(batch);
  }

  /** The thread is gone: what is open goes out, then `thread_deleted` to every observer, and their streams end. */
  #deleted(): void {
    this.#flush();
    const batch = deletedBatch(this.threadId, this.last);
    for (const observer of [...this.observers]) observer.finish(batch);
    this.stop(true);
  }

  remove(observer: Observer): void {
    this.observers.delete(observer);
    if (this.observers.size === 0) this.stop(false);
  }

  /** Stops following; with `endObservers`, each observer's stream ends too (the views closed, the journal failed). */
  stop(endObservers: boolean): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#forget();
    this.#controller.abort();
    clearTimeout(this.#timer);
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    if (endObservers) for (const observer of [...this.observers]) observer.end();
    this.observers.clear();
  }
}

/** One client's view of a thread: a replay from the journal first when it resumes, then the live batches, bounded. */
class Observer implements ThreadObserver {
  readonly #options: ThreadViewsOptions;
  readonly #hub: ThreadHub;
  readonly #input: ObserveInput;
  /** Live batches that arrived while it caught up (undefined once it is live). */
  #held: ViewBatch[] | undefined = [];
  #heldBytes = 0;
  /** Batches written to the connection and not yet taken by it. */
  #inFlight = 0;
  #inFlightBytes = 0;
  #ended = false;
  #wake: (() => void) | undefined;

  constructor(options: ThreadViewsOptions, hub: ThreadHub, input: ObserveInput) {
    this.#options = options;
    this.#hub = hub;
    this.#input = input;
  }

  async start(): Promise<void> {
    try {
      await this.#hub.started;
      const state = await this.#input.state();
      const now = state.ordinal;
      const after = this.#input.after;
      const threadId = this.#input.threadId;
      if (this.#ended) return;
      if (after !== undefined && (after > now || now - after > this.#options.maxReplayItems)) {
        this.#send(new ViewBatch([{ type: 'resubscribe', seq: String(now), thread_id: threadId, reason: 'gap', view: viewBody(state) }]));
      } else {
        const runs = new RunReader();
        for (let cursor = after ?? now; cursor < now && !this.#ended; ) {
          const page = await this.#options.store.pageItems(threadId, { after: cursor, before: now + 1, limit: 150, maxBytes: 512 * 1024 });
          if (page.items.length === 0) break;
          cursor = page.items[page.items.length - 1]!.ordinal;
          await this.#sendPaced(new ViewBatch((await withRunIds(this.#options.store, page.items, runs)).map(itemEvent)));
        }
        this.#send(new ViewBatch([{ type: 'view', seq: String(now), thread_id: threadId, ...viewBody(state) }]));
      }
      const held = this.#held ?? [];
      this.#held = undefined;
      this.#heldBytes = 0;
      for (const batch of held) {
        // What the view already covers (items up to its ordinal, changes before it) is not sent twice.
        const newer = batch.events.filter((event) => (event.type === 'item' ? event.item.ordinal > now : Number(event.seq) >= now));
        if (newer.length > 0) this.#send(newer.length === batch.events.length ? batch : new ViewBatch(newer));
      }
    } catch (error) {
      // A thread deleted meanwhile ends its views, saying so; anything else is a failure to report.
      if (isPlumbError(error) && error.code === 'thread_not_found') this.finish(deletedBatch(this.#input.threadId, this.#hub.last));
      else this.#options.report(error);
      this.end();
    }
  }

  /** A live batch from the hub. */
  deliver(batch: ViewBatch): void {
    if (this.#ended) return;
    if (this.#held === undefined) {
      this.#send(batch);
      return;
    }
    this.#held.push(batch);
    this.#heldBytes += batch.bytes;
    if (this.#inFlight + this.#held.length > this.#options.maxPendingBatches || this.#inFlightBytes + this.#heldBytes > this.#options.maxPendingBytes) this.#overflow();
  }

  /**
   * Hands a batch to the connection. Past the bounds the observer overflows — unless nothing is in
   * flight, so that one large batch (a big item) still goes out alone and the view makes progress.
   */
  #send(batch: ViewBatch): void {
    if (this.#ended) return;
    const bytes = batch.bytes;
    const waiting = this.#inFlight + (this.#held?.length ?? 0);
    if (this.#inFlight > 0 && (waiting + 1 > this.#options.maxPendingBatches || this.#inFlightBytes + this.#heldBytes + bytes > this.#options.maxPendingBytes)) {
      this.#overflow();
      return;
    }
    this.#inFlight++;
    this.#inFlightBytes += bytes;
    let taken = false;
    this.#input.sink.write(batch, () => {
      if (taken) return;
      taken = true;
      this.#inFlight--;
      this.#inFlightBytes -= bytes;
      this.#wake?.();
    });
  }

  /** A replayed page: the next one is read once the connection took this one. */
  async #sendPaced(batch: ViewBatch): Promise<void> {
    this.#send(batch);
    while (!this.#ended && this.#inFlight > 0) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }

  /** Too much is waiting for this observer: drop it, tell it to resubscribe with a fresh view, end. */
  #overflow(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#held = undefined;
    this.#hub.remove(this);
    this.#wake?.();
    const threadId = this.#input.threadId;
    void this.#input
      .state()
      .then((state) => this.#input.sink.write(new ViewBatch([{ type: 'resubscribe', seq: String(state.ordinal), thread_id: threadId, reason: 'overflow', view: viewBody(state) }]), () => undefined))
      .catch((error: unknown) => this.#options.report(error))
      .finally(() => this.#input.sink.end());
  }

  /** A last batch, past the bounds and anything held (the thread's deletion), then the end. */
  finish(batch: ViewBatch): void {
    if (this.#ended) return;
    this.#input.sink.write(batch, () => undefined);
    this.end();
  }

  /** Ends the observer and its stream (the views closed, the follower failed). */
  end(): void {
    if (this.#ended) return;
    this.close();
    this.#input.sink.end();
  }

  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#held = undefined;
    this.#hub.remove(this);
    this.#wake?.();
  }
}
