import type { Command } from 'commander';
import { cleanupStore } from '../../server/index.js';
import { addConfigOptions, loadCliConfig } from '../app-options.js';
import { CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';
import { journalName } from '../journal-name.js';

interface CleanupOptions {
  readonly config?: string;
  readonly demo?: boolean;
  readonly batch?: string;
  readonly json?: boolean;
}

export function registerCleanupCommand(program: Command, io: CliIo): void {
  addConfigOptions(program.command('cleanup').description("Delete threads older than ttlHours and resolved or expired confirmations from the configured journal (the store setting)"))
    .option('--batch <n>', 'records deleted per transaction (default 500)')
    .option('--json', 'print the report as JSON')
    .action(async (options: CleanupOptions) => {
      const batchSize = options.batch === undefined ? undefined : Number(options.batch);
      if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1)) {
        throw new CliUsageError(`--batch must be a positive whole number of records; got '${options.batch}'.`);
      }
      const { config, root } = await loadCliConfig(options);
      const report = await cleanupStore(config, { root, ...(batchSize === undefined ? {} : { batchSize }) });
      const journal = journalName(config, root);
      if (options.json === true) {
        io.stdout(`${JSON.stringify({ store: journal, ...report }, null, 2)}\n`);
        return;
      }
      io.stdout(`Cleaned ${journal} (threads not updated since ${report.cutoff}):\n`);
      io.stdout(`  threads deleted:          ${report.threadsDeleted.length}${report.threadsDeleted.length > 0 ? ` (${report.threadsDeleted.join(', ')})` : ''}\n`);
      io.stdout(`  confirmations expired:    ${report.confirmationsExpired}\n`);
      io.stdout(`  confirmations deleted:    ${report.confirmationsDeleted}\n`);
    });
}
