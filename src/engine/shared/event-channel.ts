/**
 * A bounded, single-reader queue between a running turn and whoever reads its events. The turn
 * awaits `push` only when the buffer is full; a reader that stops (`return`) detaches, and the turn
 * keeps running with its events dropped (they are in the journal).
 */
export class EventChannel<T> implements AsyncIterable<T> {
  readonly #capacity: number;
  readonly #buffer: T[] = [];
  #reader: ((result: IteratorResult<T, undefined>) => void) | undefined;
  #spaceWaiters: (() => void)[] = [];
  #closed = false;
  #detached = false;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Adds an event; returns a promise only when the turn must wait for the reader. */
  push(value: T): Promise<void> | undefined {
    if (this.#closed || this.#detached) return undefined;
    const reader = this.#reader;
    if (reader !== undefined) {
      this.#reader = undefined;
      reader({ value, done: false });
      return undefined;
    }
    this.#buffer.push(value);
    if (this.#buffer.length < this.#capacity) return undefined;
    return new Promise<void>((resolve) => this.#spaceWaiters.push(resolve));
  }

  /** No more events: the reader finishes after draining the buffer. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.({ value: undefined, done: true });
    this.#release();
  }

  /** The reader leaves: buffered and later events are dropped, and the writer never waits again. */
  detach(): void {
    this.#detached = true;
    this.#buffer.length = 0;
    this.#release();
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.({ value: undefined, done: true });
  }

  get detached(): boolean {
    return this.#detached;
  }

  #release(): void {
    const waiters = this.#spaceWaiters;
    this.#spaceWaiters = [];
    for (const resolve of waiters) resolve();
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: (): Promise<IteratorResult<T, undefined>> => {
        if (this.#buffer.length > 0) {
          const value = this.#buffer.shift() as T;
          if (this.#buffer.length < this.#capacity) this.#release();
          return Promise.resolve({ value, done: false });
        }
        if (this.#closed || this.#detached) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#reader = resolve;
        });
      },
      return: (): Promise<IteratorResult<T, undefined>> => {
        this.detach();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
