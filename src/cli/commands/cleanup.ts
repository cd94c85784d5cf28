import type { Command } from 'commander';
import { cleanupStore, loadConfig } from '../../server/index.js';
import { CliUsageError } from '../program.js';
import type { CliIo } from '../program.js';

interface CleanupOptions {
  readonly config?: string;
  readonly batch?: string;
  readonly json?: boolean;
}

export function registerCleanupCommand(program: Command, io: CliIo): void {
  program
    .command('cleanup')
    .description('Delete threads older than ttlHours and resolved or expired confirmations from the configured database')
    .option('--config <file>', 'configuration file (default: plumb.config.json|.js|.mjs|.ts in the current directory)')
    .option('--batch <n>', 'records deleted per transaction (default 500)')
    .option('--json', 'print the report as JSON')
    .action(async (options: CleanupOptions) => {
      const batchSize = options.batch === undefined ? undefined : Number(options.batch);
      if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1)) {
        throw new CliUsageError(`--batch must be a positive whole number of records; got '${options.batch}'.`);
      }
      const { config } = await loadConfig(options.config === undefined ? {} : { path: options.config });
      const report = await cleanupStore(config, Date.now(), batchSize === undefined ? {} : { batchSize });
      if (options.json === true) {
        io.stdout(`${JSON.stringify({ database: config.database, ...report }, null, 2)}\n`);
        return;
      }
      io.stdout(`Cleaned ${config.database} (threads not updated since ${report.cutoff}):\n`);
      io.stdout(`  threads deleted:          ${report.threadsDeleted.length}${report.threadsDeleted.length > 0 ? ` (${report.threadsDeleted.join(', ')})` : ''}\n`);
      io.stdout(`  confirmations expired:    ${report.confirmationsExpired}\n`);
      io.stdout(`  confirmations deleted:    ${report.confirmationsDeleted}\n`);
    });
}
