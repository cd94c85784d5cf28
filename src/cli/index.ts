export { runCli, buildProgram, CliUsageError, CliFailure } from './program.js';
export type { CliIo } from './program.js';
