import { PlumbError } from '../../core/index.js';

/**
 * At most `limit` turns run their steps at once in this engine; the others, already accepted
 * (their user item committed), wait in order of arrival. Bounding the turns in flight bounds the
 * memory they hold at once, and with it the garbage collector's work: a loaded server answers
 * more turns a second running 64 at a time than running all of them interleaved. `maxWaiting`
 * bounds the queue: past it a new message is refused with `server_busy` before anything is written.
 */
export class TurnSlots {
  readonly #limit: number | null;
  readonly #maxWaiting: number;
  #running = 0;
  /** Waiting turns in arrival order; `#head` is the next one (no array shift per release). */
  #queue: (() => void)[] = [];
  #head = 0;

  constructor(limit: number | null, maxWaiting: number) {
    this.#limit = limit;
    this.#maxWaiting = maxWaiting;
  }

  /** Refuses a new turn that would have to wait when the queue is full; called before the turn is accepted. */
  checkRoom(): void {
    const slotFree = this.#limit === null || this.#running < this.#limit;
    if (!slotFree && this.#queue.length - this.#head >= this.#maxWaiting) {
      throw new PlumbError('server_busy', `The server is answering as many messages as it can (${this.#maxWaiting} waiting). Try again in a moment.`);
    }
  }

  /**
   * Takes a slot: undefined when one is free now, else a promise that settles when the turn's
   * slot comes up — or when `signal` aborts (a cancelled turn goes on at once, to end itself).
   */
  acquire(signal: AbortSignal): Promise<void> | undefined {
    if (this.#limit === null || this.#running < this.#limit) {
      this.#running++;
      return undefined;
    }
    return new Promise<void>((resolve) => {
      let done = false;
      const start = (): void => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', start);
        this.#running++;
        resolve();
      };
      signal.addEventListener('abort', start, { once: true });
      this.#queue.push(start);
    });
  }

  /** Gives a slot back and starts the next waiting turn, if any. */
  release(): void {
    this.#running--;
    while (this.#head < this.#queue.length && (this.#limit === null || this.#running < this.#limit)) {
      const next = this.#queue[this.#head++]!;
      next();
    }
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }
}
