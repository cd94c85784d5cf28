import type { Command } from 'commander';
import type { CliIo } from './program.js';

/** Every `plumb` command, one file each under `commands/`. */
export function registerCommands(program: Command, io: CliIo): void {
  void program;
  void io;
}
