import type { Command } from 'commander';
import type { CliIo } from './program.js';
import { registerGraphqlCommand } from './commands/graphql.js';
import { registerServeCommand } from './commands/serve.js';
import { registerCheckCommand } from './commands/check.js';
import { registerCleanupCommand } from './commands/cleanup.js';
import { registerRouteCommand } from './commands/route.js';
import { registerToolCommand } from './commands/tool.js';
import { registerAskCommand } from './commands/ask.js';
import { registerInitCommand } from './commands/init.js';
import { registerIntrospectCommand } from './commands/introspect.js';
import { registerMigrateCommand } from './commands/migrate.js';

/** Every `plumb` command, one file each under `commands/`. */
export function registerCommands(program: Command, io: CliIo): void {
  registerGraphqlCommand(program, io);
  registerServeCommand(program, io);
  registerCheckCommand(program, io);
  registerCleanupCommand(program, io);
  registerRouteCommand(program, io);
  registerToolCommand(program, io);
  registerAskCommand(program, io);
  registerInitCommand(program, io);
  registerIntrospectCommand(program, io);
  registerMigrateCommand(program, io);
}
