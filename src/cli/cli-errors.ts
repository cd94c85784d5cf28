/** How a command says it failed; the program turns each into its exit code and one line. */
/** A usage problem: exit 2 with a one-line reason. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** The command failed on its own terms (an error result, a failed check): exit 1. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
}
