export { runCli, buildProgram } from './program.js';
export { CliUsageError, CliFailure } from './cli-errors.js';
export type { CliIo } from './cli-io.js';
