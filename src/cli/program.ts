import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands.js';
import { plumbVersion } from './version.js';

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

/** A usage problem: exit 2 with a one-line reason. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** The command failed on its own terms (an error result, a failed check): exit 1. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
}

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
