import type { Actor, JsonValue } from '../core/index.js';
import type { AnswerRequest, CancelRequest, ConfirmRequest, HookPayloads, ItemPageRequest, ItemPageView, QueueChange, RetryRequest, SendRequest, ThreadPageRequest, ThreadPageView, ThreadState } from '../engine/index.js';

/**
 * What the chat service needs from the engine. `createEngine` (src/engine) satisfies it; tests and
 * hosts may pass any object of this shape. Events follow docs/protocol.md; clients and this
 * server read only the fields they know.
 */
export interface ChatEngine {
  /** Settles once the engine's startup recovery is done (`GET /readyz` waits for it); a stand-in engine may have none. */
  readonly ready?: Promise<void>;
  /** The engine's own request shapes: one definition of what a turn and a confirmation carry. */
  send(input: SendRequest): AsyncIterable<EngineEvent>;
  confirm(input: ConfirmRequest): AsyncIterable<EngineEvent>;
  readonly threads: {
    list(actor: Actor, options?: { readonly limit?: number }): Promise<readonly unknown[]>;
    /** The thread's items; throws `thread_not_found` for a thread that is not the actor's. */
    history(request: { readonly actor: Actor; readonly threadId: string }): Promise<readonly unknown[]>;
    // What follows serves the routes of docs/protocol.md "Threads and pages" and "Live thread views"; a stand-in engine without one leaves its route out.
    view?(request: { readonly actor: Actor; readonly threadId: string }): Promise<{ readonly turns: readonly { readonly id: string }[] }>;
    page?(request: { readonly actor: Actor } & ThreadPageRequest): Promise<ThreadPageView>;
    items?(request: { readonly actor: Actor; readonly threadId: string } & ItemPageRequest): Promise<ItemPageView>;
    rename?(request: { readonly actor: Actor; readonly threadId: string; readonly title: string | null }): Promise<unknown>;
    fork?(request: { readonly actor: Actor; readonly threadId: string; readonly itemId: string }): Promise<{ readonly thread: unknown; readonly text?: string }>;
    delete?(request: { readonly actor: Actor; readonly threadId: string }): Promise<boolean>;
    state?(request: { readonly actor: Actor; readonly threadId: string }): Promise<ThreadState>;
  };
  /** Stops the thread's active turn (`POST {url}cancel/`, the `cancel` frame); resolves with it once it settled, undefined when none was active. */
  cancel?(input: CancelRequest): Promise<{ readonly id: string; readonly status: string; readonly failureCode: string | null } | undefined>;
  /** Runs a stopped or failed turn again (`POST {url}retry/`, the `retry` frame). */
  retry?(input: RetryRequest): AsyncIterable<EngineEvent>;
  /** Answers a turn's question (`POST {url}answer/`, the `answer` frame): the resumed turn's events. */
  answer?(input: AnswerRequest): AsyncIterable<EngineEvent>;
  /** The thread queue (`{url}queue/…` routes, the `queue_*` frames); a stand-in engine without it leaves them out. */
  readonly queue?: {
    list(request: { readonly actor: Actor; readonly threadId: string }): Promise<QueueChange['queue']>;
    edit(request: { readonly actor: Actor; readonly queueId: string; readonly text: string; readonly expectedText?: string }): Promise<QueueChange>;
    remove(request: { readonly actor: Actor; readonly queueId: string }): Promise<QueueChange>;
    sendNow(request: { readonly actor: Actor; readonly queueId: string }): Promise<QueueChange>;
  };
  /**
   * The engine's hooks: the server listens to `turnDiagnostics` for the audit log, and to `error`
   * for its log, `onError` and (a host's failing permission) the audit log. Optional for a stand-in engine.
   */
  on?: {
    (name: 'turnDiagnostics', listener: (payload: { readonly actor: Actor; readonly threadId: string; readonly turnId: string; readonly record: Readonly<Record<string, JsonValue>> }) => void): () => void;
    (name: 'error', listener: (payload: HookPayloads['error']) => void): () => void;
  };
}

/** The part of every event the transports rely on. */
export interface EngineEvent {
  readonly type: string;
}

/** A view of an event's fields for the transports (events are plain JSON objects). */
export type EventFields = Readonly<Record<string, JsonValue | undefined>>;

export const fieldsOf = (event: EngineEvent): EventFields => event as unknown as EventFields;

/** A field as text: strings as they are, anything else as JSON. */
export const textOf = (value: JsonValue | undefined): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));
