import { Option } from 'commander';
import type { Command } from 'commander';

/** `--router on|off`, shared by `ask` and `serve`: off sends every turn to the model loop. */
export function addRouterOption(command: Command): Command {
  return command.addOption(
    new Option('--router <mode>', 'read each turn with the deterministic router first (on), or send every turn to the model (off; needs --provider)').choices(['on', 'off']),
  );
}

export type RouterMode = 'on' | 'off';
