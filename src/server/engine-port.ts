import type { Actor, JsonValue } from '../core/index.js';
import type { ConfirmRequest, SendRequest } from '../engine/index.js';

/**
 * What the chat service needs from the engine. `createEngine` (src/engine) satisfies it; tests and
 * hosts may pass any object of this shape. Events follow docs/protocol.md; clients and this
 * server read only the fields they know.
 */
export interface ChatEngine {
  /** The engine's own request shapes: one definition of what a turn and a confirmation carry. */
  send(input: SendRequest): AsyncIterable<EngineEvent>;
  confirm(input: ConfirmRequest): AsyncIterable<EngineEvent>;
  readonly threads: {
    list(actor: Actor, options?: { readonly limit?: number }): Promise<readonly unknown[]>;
    /** The thread's items; throws `thread_not_found` for a thread that is not the actor's. */
    history(request: { readonly actor: Actor; readonly threadId: string }): Promise<readonly unknown[]>;
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
