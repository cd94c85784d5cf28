import type { Command } from 'commander';
import { runningPlumb } from '../../running-plumb.js';
import { checkConfiguration } from '../../server/index.js';
import { demoHost } from '../../demo/index.js';
import { addConfigOptions, addDatabaseOption } from '../app-options.js';
import { CliFailure } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';

interface CheckOptions {
  readonly config?: string;
  readonly demo?: boolean;
  readonly database?: string;
  readonly db?: string;
  readonly json?: boolean;
}

export function registerCheckCommand(program: Command, io: CliIo): void {
  addDatabaseOption(addConfigOptions(
    program
      .command('check')
      .description('Load everything the configuration names (settings, the app module, the database and its tables, the authenticate and permission modules, the provider) without serving or changing anything; exit 1 on any problem'),
  ))
    .option('--json', 'print { ok, file, problems, notes } as JSON')
    .action(async (options: CheckOptions) => {
      const overrides: Record<string, unknown> = {};
      if (options.demo === true) overrides.app = demoHost;
      const database = options.database ?? options.db;
      if (database !== undefined) overrides.database = database;
      const checked = await checkConfiguration({ ...(options.config === undefined ? {} : { path: options.config }), overrides, runningPlumb });
      const { problems, notes } = checked;
      // A file that did not load is still the file that was checked.
      const file = checked.file ?? options.config;
      if (options.json === true) io.stdout(`${JSON.stringify({ ok: problems.length === 0, file: file ?? null, problems, notes }, null, 2)}\n`);
      else {
        io.stdout(`Checked ${file ?? '(defaults: no plumb.config.* found)'}${options.demo === true ? ' with the demo app' : ''}\n`);
        for (const problem of problems) io.stdout(`  ${problem.code}: ${problem.message}\n`);
        for (const note of notes) io.stdout(`  note: ${note}\n`);
        if (problems.length === 0) io.stdout('  no problems\n');
      }
      if (problems.length > 0) throw new CliFailure(`${problems.length} problem${problems.length === 1 ? '' : 's'} found`);
    });
}
