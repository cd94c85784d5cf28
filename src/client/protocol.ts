/**
 * The chat protocol as a client sees it (docs/protocol.md): the events every transport sends and
 * the request and answer shapes of the HTTP routes. Declared here, not imported: the client
 * depends on nothing but the protocol, and runs in a browser as it is.
 */

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

interface EventBase {
  readonly thread_id: string;
  readonly turn_id: string;
  /** The run of the turn that sent it: `<turn id>.r<n>`, a retry or regenerate being the next (docs/protocol.md, "Runs"); empty on a refusal no run sent. */
  readonly run_id: string;
}

export interface PlanEvent extends EventBase {
  readonly type: 'plan';
  readonly outcome: 'run' | 'ask' | 'declined' | 'unread';
  readonly language: string;
  readonly steps: readonly { readonly kind: string; readonly text: string; readonly tool: string | null; readonly arguments: Readonly<Record<string, JsonValue>> }[];
}
export interface ToolCallEvent extends EventBase {
  readonly type: 'tool_call';
  readonly id: string;
  readonly name: string;
  readonly args: JsonValue;
}
export interface ToolResultEvent extends EventBase {
  readonly type: 'tool_result';
  readonly id: string;
  readonly name: string;
  readonly result: JsonValue;
}
export interface TextChunkEvent extends EventBase {
  readonly type: 'text_chunk';
  readonly content: string;
}
export interface ConfirmMutationEvent extends EventBase {
  readonly type: 'confirm_mutation';
  /** The confirmation id to answer with `confirm`. */
  readonly id: string;
  readonly mutation: string;
  readonly input: JsonValue;
  readonly expires_at: string;
  /** The sentence a person confirms, when the router planned the write. */
  readonly message?: string;
}
export interface RetryEvent extends EventBase {
  readonly type: 'retry';
  /** This retry, from 1, of at most `limit`. */
  readonly attempt: number;
  readonly limit: number;
  readonly code: string;
  /** Why, in words to show: `rate limited`, `no first byte in time`, … */
  readonly reason: string;
  readonly delay_ms: number;
  /** When the next attempt starts (ISO 8601). */
  readonly next_at: string;
  /** After a timeout: the clock that ran out, and how long it waited. */
  readonly timeout?: { readonly stage: 'first_byte' | 'between_events' | 'attempt' | 'tool'; readonly elapsed_ms: number };
}

/** What a turn's run is doing (docs/protocol.md, "Run phase"). */
export type RunPhase = 'queued' | 'reading' | 'calling_model' | 'running_tool' | 'awaiting_approval' | 'awaiting_answer' | 'retrying' | 'stopping' | 'compacting' | 'done';
/** The run's phase changed (a server with `phaseEvents`; live views always). */
export interface PhaseEvent extends EventBase {
  readonly type: 'phase';
  readonly phase: RunPhase;
}
export interface DoneEvent extends EventBase {
  readonly type: 'done';
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number };
}
export interface ErrorEvent extends EventBase {
  readonly type: 'error';
  readonly code: string;
  readonly message: string;
  readonly retry_after_seconds?: number;
  /** `not_retryable`: why (`effect_outcome_unknown`, `not_latest`, `active`, `completed`, or the failure's own code); `not_regenerable`: `not_latest`, `active` or `not_completed`. */
  readonly reason?: string;
}

/** Every event a turn streams. An event of a type this client does not know is passed on as it came. */
export type PlumbEvent = PlanEvent | ToolCallEvent | ToolResultEvent | TextChunkEvent | ConfirmMutationEvent | RetryEvent | PhaseEvent | DoneEvent | ErrorEvent;

/** One turn as `POST {chat}` and `POST {chat}stream/` take it. */
export interface TurnInput {
  readonly text: string;
  /** Continue this thread (default: the actor's latest). */
  readonly thread?: string;
  readonly newThread?: boolean;
  /** The language the router reads the turn in, as the person chose it: `en`, `pt-BR`. */
  readonly language?: string;
  /** The turn's request key (`Idempotency-Key`): sending it again replays the same turn. Default: a new one. */
  readonly requestKey?: string;
  /** Documents or records the page shows: the thread's model context from this message on (docs/protocol.md, "Page context"). */
  readonly references?: readonly PageReference[];
  /** Facts of the page (`value`: the identity a router context parameter takes); an empty list clears them. */
  readonly context?: readonly PageContextItem[];
  /** Text the model reads for this message only; never stored. */
  readonly supplementalContext?: string;
  /** The IANA time zone the router reads this message's dates in (`Europe/Lisbon`). */
  readonly timeZone?: string;
}

export interface PageReference {
  readonly kind: string;
  readonly label: string;
  readonly text: string;
  readonly truncated?: boolean;
}

export interface PageContextItem {
  readonly kind: string;
  readonly title: string;
  readonly text: string;
  readonly value?: string | number;
}

/** What `POST {chat}` and `POST {chat}confirm/` answer: the turn's events, its answer text, its thread. */
export interface TurnAnswer {
  readonly events: readonly PlumbEvent[];
  readonly answer: string;
  readonly thread: string | undefined;
}

/** A journal item as the server keeps it (docs/store.md): its `kind` says what `data` holds. */
export interface ThreadItem {
  readonly id: string;
  readonly threadId: string;
  readonly turnId: string;
  /** The run of the turn it belongs to (docs/protocol.md, "Runs"). */
  readonly runId: string;
  readonly ordinal: number;
  readonly kind: string;
  readonly data: JsonValue;
  readonly createdAt: number;
}

/** A thread as the server lists it. */
export interface ThreadRecord {
  readonly id: string;
  readonly title: string | null;
  /** Null: the title it was created with (its first message); `generated` from its first answer or reading; `person`: a rename. */
  readonly titleSource: 'generated' | 'person' | null;
  readonly forkedFrom: { readonly threadId: string; readonly itemId: string } | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly [field: string]: JsonValue;
}

/** A turn as a history shows it: times in milliseconds since the epoch, durations in milliseconds. */
export interface TurnProjection {
  readonly outcome: 'completed' | 'failed' | 'cancelled' | null;
  readonly started_at: number;
  readonly ended_at: number | null;
  readonly elapsed_ms: number;
  readonly waiting_ms: number;
  readonly work_ms: number;
  readonly answer_item_ids: readonly string[];
}

/** What a live view says a thread is now (the `view` event, and a `resubscribe`'s `view`). */
export interface ViewState {
  /** The journal position the view was read at: later events follow it. */
  readonly ordinal: number;
  readonly thread: { readonly id: string; readonly title: string | null; readonly title_source: string | null; readonly forked_from: JsonValue; readonly created_at: number; readonly updated_at: number };
  /** The latest turn: running, waiting for a person, or how it ended. */
  readonly turn: {
    readonly id: string;
    readonly run_id: string;
    readonly status: 'accepted' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';
    readonly failure_code: string | null;
    readonly input: string;
    /** How it ended, when, where its time went, and its final answer's items (docs/protocol.md, "Turn projections"). */
    readonly projection: TurnProjection | null;
  } | null;
  /** What the latest turn's run is doing, as the journal tells it; null without a turn. */
  readonly phase: RunPhase | null;
  /** The text the running turn's current round has shown so far. */
  readonly text: string;
  /** The write waiting for a confirmation, as `confirm_mutation` gives it. */
  readonly confirmation: { readonly id: string; readonly run_id: string; readonly mutation: string; readonly input: JsonValue; readonly expires_at: string; readonly message?: string } | null;
  /** The open question, as a `question` event gives it. */
  readonly question: Readonly<Record<string, JsonValue>> | null;
  /** Messages waiting in the thread's queue, head first. */
  readonly queue: readonly { readonly id: string; readonly text: string; readonly position: number; readonly steer: boolean }[];
  /** A person asked the running turn to stop and it has not ended yet: show it stopping until its turn ends. */
  readonly stopping: { readonly mode: 'immediate' | 'graceful'; readonly requested_at: number } | null;
  /** The latest turn ended by a person's stop: nothing in the queue runs until they send one now, or remove it. */
  readonly queue_held: boolean;
}

interface ViewBase {
  /** The journal position the event follows; resume a view after the last one you applied. */
  readonly seq: string;
  readonly thread_id: string;
}
export interface ViewSnapshotEvent extends ViewBase, ViewState {
  readonly type: 'view';
}
export interface ViewItemEvent extends ViewBase {
  readonly type: 'item';
  readonly turn_id: string;
  readonly run_id: string;
  readonly item: ThreadItem;
}
export interface ViewTurnEvent extends ViewBase {
  readonly type: 'turn';
  readonly turn_id: string;
  /** The turn's current run; empty for a turn other than the thread's latest. */
  readonly run_id: string;
  readonly status: 'accepted' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';
}
/** The latest turn's run changed phase (sent on a change only). */
export interface ViewPhaseEvent extends ViewBase {
  readonly type: 'phase';
  readonly turn_id: string;
  readonly run_id: string;
  readonly phase: RunPhase;
}
/** What you hold may be stale: adopt `view`. `gap`: the journal cannot replay what you missed (read the items); `overflow`: you fell behind, and the subscription resumes from your last seq. */
export interface ViewResubscribeEvent extends ViewBase {
  readonly type: 'resubscribe';
  readonly reason: 'gap' | 'overflow';
  readonly view: ViewState;
}

/** The thread was deleted (by its owner, elsewhere, or by retention): the view's last event; it ends after it. */
export interface ViewDeletedEvent extends ViewBase {
  readonly type: 'thread_deleted';
}

/** What a live view of a thread delivers (`subscribe`); a host's own subscribe route may deliver turn events too. */
export type ViewEvent = ViewSnapshotEvent | ViewItemEvent | ViewTurnEvent | ViewPhaseEvent | ViewResubscribeEvent | ViewDeletedEvent;
export type ThreadViewEvent = ViewEvent | PlumbEvent;

/** What stopping a thread's turn found: the turn it stopped (null when none was active). */
export interface CancelOutcome {
  readonly thread: string;
  readonly turn: { readonly id: string; readonly status: string; readonly failure_code: string | null } | null;
}
