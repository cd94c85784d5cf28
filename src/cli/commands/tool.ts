import { Option } from 'commander';
import type { Command } from 'commander';
import { splitConfig, storeLocation } from '../../config/index.js';
import { createChatDispatcher, createMemoryConfirmationStore, createSqliteConfirmationStore, isToolError } from '../../tools/index.js';
import type { ToolResult } from '../../tools/index.js';
import { addAppOptions, openCliApp, parseJsonOption } from '../app-options.js';
import type { AppOptions } from '../app-options.js';
import { CliFailure, CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';

interface ToolOptions extends AppOptions {
  readonly list?: boolean;
  readonly strategy?: 'discovery' | 'direct';
  readonly json?: boolean;
  readonly confirm?: string;
  readonly reject?: boolean;
}

/**
 * `plumb tool`: list the chat tools, run one call through the dispatcher, or resolve a pending
 * confirmation. Pending confirmations live in a table of the journal's SQLite file (the `store`
 * setting), so a second run can approve what the first one held (with an in-memory journal they
 * last one process only).
 */
export function registerToolCommand(program: Command, io: CliIo): void {
  const command = program
    .command('tool')
    .description('List the chat tools, run one tool call through the dispatcher, or confirm a held call; prints JSON')
    .argument('[name]', 'tool to call, e.g. query')
    .argument('[arguments]', `its arguments as a JSON object, e.g. '{"manager":"Part","fields":["name"]}'`)
    .option('--list', 'list the tools with their JSON Schemas')
    .addOption(new Option('--strategy <strategy>', "tool strategy (default: the configuration's toolStrategy)").choices(['discovery', 'direct']))
    .option('--confirm <confirmation_id>', 'approve a held call (with --reject: reject it)')
    .option('--reject', 'with --confirm: reject the held call instead')
    .option('--json', 'machine output: one line of JSON');
  addAppOptions(command).action(async (name: string | undefined, rawArguments: string | undefined, options: ToolOptions) => {
    const modes = [options.list === true, options.confirm !== undefined, name !== undefined].filter(Boolean).length;
    if (modes !== 1) throw new CliUsageError('give a tool name and its JSON arguments, or --list, or --confirm <confirmation_id>');
    if (options.reject === true && options.confirm === undefined) throw new CliUsageError('--reject needs --confirm <confirmation_id>');
    const args = rawArguments === undefined ? {} : parseJsonOption(rawArguments, 'the tool arguments');
    await using opened = await openCliApp(options);
    const { actor, config } = opened;
    const { app, tools } = opened.opened;
    const journal = storeLocation(config, opened.loaded.root);
    const shared = journal.kind === 'sqlite' ? createSqliteConfirmationStore({ path: journal.path }) : undefined;
    const confirmations = shared ?? createMemoryConfirmationStore();
    const print = (value: unknown): void => io.stdout(`${options.json === true ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`);
    try {
      const dispatcher = createChatDispatcher({
        app,
        settings: { ...splitConfig(config).tools, ...(options.strategy === undefined ? {} : { toolStrategy: options.strategy }) },
        hostTools: tools,
        confirmations,
        onError: (error) => io.stderr(`plumb: tool error: ${error instanceof Error ? error.message : String(error)}\n`),
      });
      if (options.list === true) {
        const definitions = dispatcher.definitions().map((definition) => ({ ...definition, effect: dispatcher.tool(definition.name)?.effect }));
        if (options.json === true) {
          print(definitions);
          return;
        }
        for (const definition of definitions) {
          io.stdout(`${definition.name} (${definition.effect ?? 'read'})\n  ${definition.description}\n  ${JSON.stringify(definition.parameters)}\n\n`);
        }
        return;
      }
      let result: ToolResult;
      if (options.confirm !== undefined) {
        result = await dispatcher.confirm(options.confirm, { actor, confirmed: options.reject !== true });
      } else {
        if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new CliUsageError('the tool arguments must be a JSON object');
        result = await dispatcher.dispatch({ name: name ?? '', arguments: args }, { actor });
      }
      print(result);
      if (isToolError(result)) throw new CliFailure(`${result.error.code}: ${result.error.message}`);
    } finally {
      shared?.close();
    }
  });
}
