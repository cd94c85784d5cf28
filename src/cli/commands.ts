import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';

type Register = (program: Command, io: CliIo) => void;

interface CommandEntry {
  readonly name: string;
  /** The line `plumb --help` lists; the command's own `--help` gives its whole description. */
  readonly summary: string;
  readonly load: () => Promise<Register>;
}

/**
 * Every `plumb` command, one file each under `commands/`. A command's module (and all it imports:
 * the data layer, the server, the engine) loads only when that command runs or shows its help, so
 * that `plumb --help` and `plumb --version` load commander and nothing else.
 */
const commands: readonly CommandEntry[] = [
  { name: 'graphql', summary: 'Execute a GraphQL document against the app as an actor; prints { data, errors } as JSON', load: async () => (await import('./commands/graphql.js')).registerGraphqlCommand },
  { name: 'serve', summary: 'Start the Plumb server over the configured app: chat, the console, /graphql, /healthz, /readyz', load: async () => (await import('./commands/serve.js')).registerServeCommand },
  { name: 'check', summary: 'Load everything the configuration names without serving or changing anything; exit 1 on any problem', load: async () => (await import('./commands/check.js')).registerCheckCommand },
  { name: 'cleanup', summary: 'Delete old threads and resolved or expired confirmations from the journal', load: async () => (await import('./commands/cleanup.js')).registerCleanupCommand },
  { name: 'store', summary: "Look after the configured journal: store inspect (its counts, or one thread's turns and confirmations), store backup, store vacuum", load: async () => (await import('./commands/store.js')).registerStoreCommand },
  { name: 'route', summary: 'Read one turn with the deterministic router and print its TurnPlan', load: async () => (await import('./commands/route.js')).registerRouteCommand },
  { name: 'tool', summary: 'List the chat tools, run one tool call through the dispatcher, or confirm a held call', load: async () => (await import('./commands/tool.js')).registerToolCommand },
  { name: 'ask', summary: 'Run one chat turn and print the answer (or the events as JSON lines)', load: async () => (await import('./commands/ask.js')).registerAskCommand },
  { name: 'init', summary: 'Write a small working host app into a folder', load: async () => (await import('./commands/init.js')).registerInitCommand },
  { name: 'introspect', summary: 'Print manager definitions generated from the tables of an existing database', load: async () => (await import('./commands/introspect.js')).registerIntrospectCommand },
  { name: 'migrate', summary: 'Migrations of the tables Plumb owns: status, generate, up', load: async () => (await import('./commands/migrate.js')).registerMigrateCommand },
  { name: 'eval', summary: 'Play eval datasets through the engine (no model, a scripted one, or any provider) and score every turn', load: async () => (await import('./commands/eval.js')).registerEvalCommand },
  { name: 'mcp', summary: "Serve the app's tools over the Model Context Protocol (stdio, or Streamable HTTP with --http)", load: async () => (await import('./commands/mcp.js')).registerMcpCommand },
];

/** The command an argument list runs (`help <name>` included), if it names one. */
function commandOf(argv: readonly string[]): string | undefined {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

/** Registers the command `argv` names in full and the others by name and summary only. */
export async function registerCommands(program: Command, io: CliIo, argv: readonly string[]): Promise<void> {
  const wanted = commandOf(argv);
  for (const entry of commands) {
    if (entry.name === wanted) {
      (await entry.load())(program, io);
      program.commands.at(-1)?.summary(entry.summary);
    } else {
      program.command(entry.name).summary(entry.summary).description(entry.summary).allowUnknownOption().allowExcessArguments();
    }
  }
}
