/** How a command says it failed; the program turns each into its exit code and one line. */
/** A usage problem: exit 2 with a one-line reason. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** The command failed on its own terms (an error result, a failed check): exit 1. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
}

/**
 * The command ran and answered, but not with what was asked for, in a way a script must be able to
 * tell (`plumb ask`: 3 the turn was not read, 4 a change was not made); stdout keeps the answer.
 */
export class CliOutcome extends Error {
  override readonly name = 'CliOutcome';
  constructor(
    message: string,
    readonly exitCode: 3 | 4,
  ) {
    super(message);
  }
}
