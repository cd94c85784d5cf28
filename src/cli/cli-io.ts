/** What a command writes to; injected so that tests and embedding hosts can capture it. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** stderr is a terminal (progress bars draw there); false or absent: plain lines. */
  readonly stderrIsTTY?: boolean;
  /** stdout is a terminal: `plumb ask` streams the answer there (and erases a retried attempt's text); false or absent: each round's text once it is final. */
  readonly stdoutIsTTY?: boolean;
  /** stdout's width in columns, when it is a terminal. */
  readonly stdoutColumns?: number;
}
