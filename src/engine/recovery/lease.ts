import { hostname } from 'node:os';
import type { Store } from '../../store/index.js';

export interface EngineLeaseOptions {
  readonly store: Store;
  readonly ttlMs: number;
  readonly ids: () => string;
  /** After each renewal (recovery runs here). */
  readonly onHeartbeat: () => Promise<void>;
  /** The lease lapsed before it was renewed; `id` is the new one, already acquired. */
  readonly onLost: (lostId: string, id: string) => Promise<void>;
  readonly onError: (error: unknown) => void;
}

/**
 * The engine's lease in the journal (docs/store.md, "Leases"): acquired when the engine starts,
 * renewed every third of its time to live, released when it closes. Every turn the engine runs
 * records it; another engine's recovery ends those turns only once it lapsed. A renewal that comes
 * too late finds the lease lost for good: a new one is acquired and the engine is told.
 */
export class EngineLease {
  readonly #options: EngineLeaseOptions;
  readonly #holder = `${hostname()}:${process.pid}`;
  #id: string;
  #timer: ReturnType<typeof setInterval> | undefined;
  #beating: Promise<void> | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: EngineLeaseOptions) {
    this.#options = options;
    this.#id = options.ids();
  }

  get id(): string {
    return this.#id;
  }

  async acquire(): Promise<void> {
    await this.#options.store.acquireLease({ id: this.#id, holder: this.#holder, ttlMs: this.#options.ttlMs });
  }

  startHeartbeat(): void {
    if (this.#closed !== undefined || this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      // One beat at a time: a slow store skips a tick rather than piling renewals up.
      if (this.#beating !== undefined) return;
      this.#beating = this.#beat().finally(() => (this.#beating = undefined));
    }, Math.max(100, Math.floor(this.#options.ttlMs / 3)));
    this.#timer.unref();
  }

  async #beat(): Promise<void> {
    const { store, ttlMs } = this.#options;
    try {
      if ((await store.renewLease(this.#id, ttlMs)) === undefined && this.#closed === undefined) {
        const lost = this.#id;
        this.#id = this.#options.ids();
        await store.acquireLease({ id: this.#id, holder: this.#holder, ttlMs });
        await this.#options.onLost(lost, this.#id);
      }
      await this.#options.onHeartbeat();
    } catch (error) {
      this.#options.onError(error);
    }
  }

  /** Stops the heartbeat and releases the lease (its remaining active turns are then orphaned at once). Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      if (this.#timer !== undefined) clearInterval(this.#timer);
      await this.#beating;
      try {
        await this.#options.store.releaseLease(this.#id);
      } catch (error) {
        this.#options.onError(error);
      }
    })();
    return this.#closed;
  }
}
