import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands.js';
import { CliFailure, CliOutcome, CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { plumbVersion } from './version.js';

/** The program for one run: the command `argv` names is loaded in full, the others listed by summary. */
export async function buildProgram(io: CliIo, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('plumb')
    .description('Grounded, durable chat agents over your application\'s own data and actions.')
    .version(plumbVersion, '-V, --version')
    .showHelpAfterError(false)
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: () => undefined,
    })
    .exitOverride();
  await registerCommands(program, io, argv);
  for (const command of program.commands) command.exitOverride().configureOutput({ outputError: () => undefined });
  return program;
}

/** Runs the CLI and returns the process exit code: 0 success, 1 failure, 2 bad usage. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let program: Command;
  try {
    program = await buildProgram(io, argv);
  } catch (error) {
    return failure(error, io);
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return failure(error, io);
  }
}

/** The exit code for a failure, with its one-line reason on stderr. */
async function failure(error: unknown, io: CliIo): Promise<number> {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
    io.stderr(`plumb: ${oneLine(error.message.replace(/^error: /, ''))}\n`);
    return 2;
  }
  if (error instanceof CliUsageError) {
    io.stderr(`plumb: ${oneLine(error.message)}\n`);
    return 2;
  }
  if (error instanceof CliFailure) {
    io.stderr(`plumb: ${oneLine(error.message)}\n`);
    return 1;
  }
  if (error instanceof CliOutcome) {
    io.stderr(`plumb: ${oneLine(error.message)}\n`);
    return error.exitCode;
  }
  // Loaded only on this path: the core's face pulls in kysely, which `plumb --help` never needs.
  const { isPlumbError } = await import('../core/index.js');
  if (isPlumbError(error)) {
    io.stderr(`plumb: ${error.code}: ${oneLine(error.message)}\n`);
    return 1;
  }
  io.stderr(`plumb: unexpected failure: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
  return 1;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
