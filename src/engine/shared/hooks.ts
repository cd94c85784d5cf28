import type { Actor, JsonValue } from '../../core/index.js';

/** What each hook receives. Listeners observe; they cannot change a turn. */
export interface HookPayloads {
  readonly messageReceived: { readonly actor: Actor; readonly threadId: string; readonly turnId: string; readonly text: string };
  readonly toolCalled: {
    readonly actor: Actor;
    readonly threadId: string;
    readonly turnId: string;
    readonly callId: string;
    readonly name: string;
    readonly arguments: JsonValue;
    readonly result: JsonValue;
  };
  readonly mutationExecuted: {
    readonly actor: Actor;
    readonly threadId: string;
    readonly turnId: string;
    readonly callId: string;
    readonly name: string;
    readonly arguments: JsonValue;
    /** `executed`, `failed`, `rejected`, `expired`, `cancelled`. */
    readonly status: string;
    readonly result: JsonValue;
  };
  /** After each run of a turn (to its end, or a pause): its allow-listed diagnostic record (docs/engine.md "Diagnostics"). */
  readonly turnDiagnostics: { readonly actor: Actor; readonly threadId: string; readonly turnId: string; readonly record: Readonly<Record<string, JsonValue>> };
  /** A thread's queue changed (a message queued, edited, sent now, removed, run or joined a turn): read it again for a view. */
  readonly queueChanged: { readonly threadId: string };
  readonly error: {
    readonly error: unknown;
    readonly code: string;
    readonly threadId?: string;
    readonly turnId?: string;
    /** Whose call it was, when a tool failed. */
    readonly actor?: Actor;
    /** Where it happened: `provider`, `turn`, `tool`, `hook:<name>`, `confirmation_store`, `recovery`. */
    readonly source: string;
  };
}

export type HookName = keyof HookPayloads;
export type HookListener<K extends HookName> = (payload: HookPayloads[K]) => void | Promise<void>;
export type EngineHooks = { readonly [K in HookName]?: HookListener<K> | readonly HookListener<K>[] };

export interface Logger {
  warn(message: string, details?: Record<string, unknown>): void;
}

/**
 * The engine's listeners. A listener that throws (or rejects) is isolated: the others still run,
 * the turn goes on, and the failure is reported to the `error` listeners and the logger.
 */
export class HookBus {
  readonly #listeners: { [K in HookName]: HookListener<K>[] } = { messageReceived: [], toolCalled: [], mutationExecuted: [], turnDiagnostics: [], queueChanged: [], error: [] };
  readonly #logger: Logger | undefined;

  constructor(hooks: EngineHooks = {}, logger?: Logger) {
    this.#logger = logger;
    for (const name of Object.keys(this.#listeners) as HookName[]) {
      const given = hooks[name] as HookListener<typeof name> | readonly HookListener<typeof name>[] | undefined;
      if (given === undefined) continue;
      for (const listener of Array.isArray(given) ? given : [given]) this.on(name, listener as HookListener<typeof name>);
    }
  }

  /** Adds a listener; returns its removal. */
  on<K extends HookName>(name: K, listener: HookListener<K>): () => void {
    const list = this.#listeners[name] as HookListener<K>[];
    list.push(listener);
    return () => {
      const index = list.indexOf(listener);
      if (index >= 0) list.splice(index, 1);
    };
  }

  has(name: HookName): boolean {
    return this.#listeners[name].length > 0;
  }

  emit<K extends HookName>(name: K, payload: HookPayloads[K]): void {
    const list = this.#listeners[name] as HookListener<K>[];
    for (let i = 0; i < list.length; i++) {
      const listener = list[i]!;
      try {
        const outcome = listener(payload);
        if (outcome instanceof Promise) outcome.catch((error: unknown) => this.#failed(name, error));
      } catch (error) {
        this.#failed(name, error);
      }
    }
  }

  #failed(name: HookName, error: unknown): void {
    this.#logger?.warn(`A ${name} hook listener failed.`, { error: error instanceof Error ? error.message : String(error) });
    if (name === 'error') return; // never loop: a failing error listener is only logged
    this.emit('error', { error, code: 'chat_error', source: `hook:${name}` });
  }
}
