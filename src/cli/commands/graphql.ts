import type { Command } from 'commander';
import { addAppOptions, openCliApp, parseJsonOption } from '../app-options.js';
import type { AppOptions } from '../app-options.js';
import { CliFailure, CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';

interface GraphqlOptions extends AppOptions {
  readonly variables?: string;
}

export function registerGraphqlCommand(program: Command, io: CliIo): void {
  const command = program
    .command('graphql')
    .description('Execute a GraphQL document against the app as an actor and print { data, errors } as JSON')
    .argument('<document>', "the GraphQL document, e.g. '{ materialList { items { name } } }'")
    .option('--variables <json>', 'variables as a JSON object');
  addAppOptions(command).action(async (document: string, options: GraphqlOptions) => {
    const variables = options.variables === undefined ? undefined : parseJsonOption(options.variables, '--variables');
    if (variables !== undefined && (variables === null || typeof variables !== 'object' || Array.isArray(variables))) {
      throw new CliUsageError('--variables must be a JSON object');
    }
    await using opened = await openCliApp(options);
    const result = await opened.opened.app.graphql({
      actor: opened.actor,
      document,
      ...(variables === undefined ? {} : { variables: variables as Record<string, unknown> }),
    });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    if (result.errors !== undefined && result.errors.length > 0) {
      throw new CliFailure(`the result has ${result.errors.length} error(s): ${result.errors[0]?.message ?? ''}`);
    }
  });
}
