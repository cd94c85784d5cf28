import type { Command } from 'commander';
import { inspectStore } from '../../server/index.js';
import type { JournalInspection, ThreadInspection } from '../../server/index.js';
import { addConfigOptions, addDatabaseOption, loadCliConfig } from '../app-options.js';
import type { CliIo } from '../cli-io.js';
import { journalName } from '../journal-name.js';

interface InspectOptions {
  readonly config?: string;
  readonly demo?: boolean;
  readonly database?: string;
  readonly db?: string;
  readonly thread?: string;
  readonly json?: boolean;
}

/** `plumb store inspect`: what the configured journal holds, read-only (docs/cli.md, "plumb store inspect"). */
export function registerStoreCommand(program: Command, io: CliIo): void {
  const store = program.command('store').description('Read the configured journal (the store setting): store inspect');
  addDatabaseOption(addConfigOptions(store.command('inspect').description('Print what the journal holds: threads, turns by status, confirmations by status and outcome, live leases; or one thread\'s turns and confirmations')))
    .option('--thread <id>', "print this thread's turns and confirmations instead")
    .option('--json', 'print the report as JSON')
    .action(async (options: InspectOptions) => {
      const { config, root } = await loadCliConfig(options);
      const report = await inspectStore(config, { root, ...(options.thread === undefined ? {} : { threadId: options.thread }) });
      const journal = journalName(config, root);
      if (options.json === true) io.stdout(`${JSON.stringify({ store: journal, ...report }, null, 2)}\n`);
      else io.stdout('thread' in report ? threadText(report) : censusText(journal, report));
    });
}

function censusText(journal: string, report: JournalInspection): string {
  const { pending, claimed, resolved } = report.confirmations;
  const outcomes = Object.entries(resolved);
  const resolvedCount = outcomes.reduce((sum, [, count]) => sum + count, 0);
  const lines = [
    `Journal ${journal}${report.exists ? '' : ' (none yet: nothing recorded)'}:`,
    `  threads:        ${report.threads}`,
    `  turns:          ${Object.entries(report.turns).map(([status, count]) => `${status} ${count}`).join(', ')}`,
    `  confirmations:  pending ${pending}, claimed ${claimed}, resolved ${resolvedCount}${outcomes.length === 0 ? '' : ` (${outcomes.map(([outcome, count]) => `${outcome} ${count}`).join(', ')})`}`,
    `  live leases:    ${report.liveLeases}`,
  ];
  return `${lines.join('\n')}\n`;
}

function threadText(report: ThreadInspection): string {
  const { thread } = report;
  const title = thread.title === null ? '' : ` "${thread.title}"`;
  return [
    `Thread ${thread.id}${title} (owner ${thread.owner}, created ${thread.createdAt}, updated ${thread.updatedAt})`,
    '',
    'Turns:',
    ...table(['ID', 'STATUS', 'ERROR'], report.turns.map((turn) => [turn.id, turn.status, turn.errorCode ?? '-'])),
    '',
    'Confirmations:',
    ...table(['ID', 'TOOL', 'STATUS', 'OUTCOME', 'RESOLVED AT'], report.confirmations.map((c) => [c.id, c.tool, c.status, c.outcome ?? '-', c.resolvedAt ?? '-'])),
    '',
  ].join('\n');
}

/** Rows under a header, each column as wide as its widest cell; `(none)` for no rows. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  if (rows.length === 0) return ['  (none)'];
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows].map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()}`);
}
