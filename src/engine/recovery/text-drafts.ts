import { newItems } from '../shared/index.js';
import type { RunSink } from '../shared/index.js';

/** How long streamed text gathers before it is journaled as one draft (and then shown). Milliseconds. */
export const draftBatchMs = 20;

/**
 * The text of one provider round as it streams (docs/engine.md, "Journal"): nothing a client is
 * shown can be lost to a crash, so chunks are gathered for `draftBatchMs`, journaled together as a
 * `text_draft` item (staged: with group commit it shares the next commit) and only then emitted,
 * held by the run until that commit. The round's end journals what is left with the step itself: a
 * final answer's last chunks ride with its commit (`emitAfterCommit`), anything else (text before
 * tool calls, an answer cut at the length limit) is journaled as one last draft first, so that the
 * calls' events are not held behind it. A retried attempt's unshown chunks are dropped; its shown
 * ones are taken back by the `retry` event. Drafts are what was shown, never model context: the
 * step's own items carry its text.
 */
export class TextDrafts {
  readonly #run: RunSink;
  readonly #step: number;
  #chunks: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> | undefined;
  #failure: Error | undefined;

  constructor(run: RunSink, step: number) {
    this.#run = run;
    this.#step = step;
  }

  /** A chunk arrived: gathered, journaled with its batch, then shown. Never makes the stream wait. */
  chunk(content: string): undefined {
    this.#chunks.push(content);
    if (this.#timer === undefined && this.#writing === undefined) this.#schedule();
    return undefined;
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#writing = this.#journal().then(
        () => {
          this.#writing = undefined;
          if (this.#chunks.length > 0 && this.#failure === undefined) this.#schedule();
        },
        (error: unknown) => {
          this.#writing = undefined;
          this.#failure = error instanceof Error ? error : new Error(String(error));
        },
      );
    }, draftBatchMs);
  }

  /** Journals the gathered chunks as one draft, then emits them (the run holds them until it is committed). */
  async #journal(): Promise<void> {
    const chunks = this.#chunks;
    if (chunks.length === 0) return;
    this.#chunks = [];
    await this.#run.stage([newItems.draft({ text: chunks.join(''), step: this.#step })]);
    for (const content of chunks) void this.#run.emit({ type: 'text_chunk', content });
  }

  /** The attempt failed and another starts: what was not shown yet is dropped. */
  discard(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#chunks = [];
  }

  /** Waits for the batch on its way (a failed one fails the round). */
  async settled(): Promise<void> {
    if (this.#writing !== undefined) await this.#writing;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * The round is over: `answer` when its text is the turn's final answer, whose commit comes next
   * and carries the last chunks; otherwise they are journaled as one more draft now.
   */
  async finish(answer: boolean): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.settled();
    if (this.#chunks.length === 0) return;
    if (!answer) return this.#journal();
    const chunks = this.#chunks;
    this.#chunks = [];
    for (const content of chunks) this.#run.emitAfterCommit({ type: 'text_chunk', content });
  }
}
