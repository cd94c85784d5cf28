import type { Command } from 'commander';
import type { App } from '../../data/index.js';
import { checkConfiguration } from '../../server/index.js';
import { openApp } from '../app-options.js';
import { CliFailure } from '../program.js';
import type { CliIo } from '../program.js';

interface CheckOptions {
  readonly config?: string;
  readonly demo?: boolean;
  readonly db?: string;
  readonly json?: boolean;
}

export function registerCheckCommand(program: Command, io: CliIo): void {
  program
    .command('check')
    .description('Validate the configuration (settings, allow-lists, exposure, provider) without serving; exit 1 on any problem')
    .option('--config <file>', 'configuration file (default: plumb.config.json|.js|.mjs|.ts in the current directory)')
    .option('--demo', 'check against the embedded demo shop')
    .option('--db <path>', "the demo's SQLite file (default .plumb/demo.sqlite)")
    .option('--json', 'print { ok, file, problems } as JSON')
    .action(async (options: CheckOptions) => {
      const app: App | undefined = options.demo === true || options.db !== undefined ? await openApp(options) : undefined;
      try {
        const checked = await checkConfiguration({ ...(options.config === undefined ? {} : { path: options.config }), ...(app === undefined ? {} : { app }) });
        const { problems } = checked;
        // A file that did not load is still the file that was checked.
        const file = checked.file ?? options.config;
        if (options.json === true) io.stdout(`${JSON.stringify({ ok: problems.length === 0, file: file ?? null, problems }, null, 2)}\n`);
        else {
          io.stdout(`Checked ${file ?? '(defaults: no plumb.config.* found)'}${app === undefined ? ' (no app: pass --demo or --db to check exposure and allow-lists)' : ''}\n`);
          for (const problem of problems) io.stdout(`  ${problem.code}: ${problem.message}\n`);
          if (problems.length === 0) io.stdout('  no problems\n');
        }
        if (problems.length > 0) throw new CliFailure(`${problems.length} problem${problems.length === 1 ? '' : 's'} found`);
      } finally {
        await app?.close();
      }
    });
}
