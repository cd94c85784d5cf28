import type { CliIo } from './cli-io.js';

/**
 * A turn's answer text as `plumb ask` prints it. A provider attempt that fails is retried, and its
 * text must not stay on the screen (docs/protocol.md, the `retry` event): on a terminal the text is
 * shown as it streams and a retried attempt's is erased; anywhere else (a pipe, a file) each round's
 * text is printed once the round is over, when no retry can take it back any more.
 */
export class AnswerText {
  readonly #io: CliIo;
  /** Text of the current round not yet printed (not a terminal), or printed and still erasable (a terminal). */
  #round = '';
  #wrote = false;

  constructor(io: CliIo) {
    this.#io = io;
  }

  chunk(content: string): void {
    this.#round += content;
    if (this.#io.stdoutIsTTY === true) {
      this.#io.stdout(content);
      this.#wrote = true;
    }
  }

  /** The attempt failed and another starts: its text is taken back. */
  retry(): void {
    if (this.#io.stdoutIsTTY === true && this.#round !== '') this.#io.stdout(eraseSequence(this.#round, this.#io.stdoutColumns ?? 80));
    this.#round = '';
  }

  /** The round is over (a tool call, a confirmation, a question, the turn's end): its text stays. */
  settle(): void {
    if (this.#io.stdoutIsTTY !== true && this.#round !== '') {
      this.#io.stdout(this.#round);
      this.#wrote = true;
    }
    this.#round = '';
  }

  /** Whether any text was printed (the caller ends the line). */
  get wrote(): boolean {
    return this.#wrote;
  }
}

/** The terminal sequence that moves back over `text` (as printed from the start of a line) and clears it. */
export function eraseSequence(text: string, columns: number): string {
  const width = Math.max(1, columns);
  const rows = text.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil([...line].length / width)), 0);
  return `\r${rows > 1 ? `\u001b[${rows - 1}A` : ''}\u001b[J`;
}
