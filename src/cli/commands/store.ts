import { resolve } from 'node:path';
import type { Command } from 'commander';
import { backupStore, inspectStore, vacuumStore } from '../../server/index.js';
import type { JournalInspection, ThreadInspection } from '../../server/index.js';
import { addConfigOptions, addDatabaseOption, loadCliConfig } from '../app-options.js';
import type { AppOptions } from '../app-options.js';
import { CliOutcome } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';
import { journalName } from '../journal-name.js';

type StoreOptions = Pick<AppOptions, 'config' | 'demo' | 'database' | 'db'>;

interface InspectOptions extends StoreOptions {
  readonly thread?: string;
  readonly json?: boolean;
}

interface BackupOptions extends StoreOptions {
  readonly force?: boolean;
  readonly json?: boolean;
}

/**
 * `plumb store inspect | backup | vacuum`: what the configured journal holds (read-only), a copy of
 * it, its free space given back (docs/cli.md, "plumb store").
 */
export function registerStoreCommand(program: Command, io: CliIo): void {
  const store = program.command('store').description('Look after the configured journal (the store setting): store inspect, store backup, store vacuum');
  addDatabaseOption(addConfigOptions(store.command('inspect').description('Print what the journal holds: threads, turns by status, confirmations by status and outcome, live leases, stuck turns, orphaned confirmations, migrations, sizes; or one thread\'s turns and confirmations')))
    .option('--thread <id>', "print this thread's turns and confirmations instead")
    .option('--json', 'print the report as JSON')
    .action(async (options: InspectOptions) => {
      const { config, root } = await loadCliConfig(options);
      const report = await inspectStore(config, { root, ...(options.thread === undefined ? {} : { threadId: options.thread }) });
      const journal = journalName(config, root);
      if (options.json === true) io.stdout(`${JSON.stringify({ store: journal, ...report }, null, 2)}\n`);
      else io.stdout('thread' in report ? threadText(report) : censusText(journal, report));
    });

  addDatabaseOption(addConfigOptions(store.command('backup').argument('<file>', 'the copy to write (its folder must exist)').description('Copy a SQLite journal into <file> while servers keep running (SQLite\'s online backup API); for PostgreSQL, print the pg_dump line and exit 3')))
    .option('--force', 'replace <file> when it exists')
    .option('--json', 'print the report as JSON')
    .action(async (file: string, options: BackupOptions) => {
      const { config, root } = await loadCliConfig(options);
      const report = await backupStore(config, { root, file: resolve(file), force: options.force === true });
      if (options.json === true) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      if (report.kind === 'postgres') {
        if (options.json !== true) io.stdout(`${report.command}\n`);
        throw new CliOutcome(`the journal is on PostgreSQL, which plumb does not copy itself: run the pg_dump line above (the password in PGPASSWORD or ~/.pgpass); restore with: ${report.restore}`, 3);
      }
      if (options.json !== true) io.stdout(`Backed up ${journalName(config, root)} to ${report.file}: ${bytes(report.bytes)} (${report.pages} pages) in ${report.ms} ms.\n`);
    });

  addDatabaseOption(addConfigOptions(store.command('vacuum').description('Give back the space of deleted rows: SQLite VACUUM (writers wait while it runs) and a WAL truncate; PostgreSQL VACUUM (ANALYZE) of the journal tables')))
    .option('--json', 'print the report as JSON')
    .action(async (options: StoreOptions & { readonly json?: boolean }) => {
      const { config, root } = await loadCliConfig(options);
      const report = await vacuumStore(config, { root });
      if (options.json === true) io.stdout(`${JSON.stringify({ store: journalName(config, root), ...report }, null, 2)}\n`);
      else io.stdout(`Vacuumed ${journalName(config, root)} in ${report.ms} ms: ${sizesText(report.before)} → ${sizesText(report.after)}.\n`);
    });
}

function censusText(journal: string, report: JournalInspection): string {
  const { pending, claimed, resolved } = report.confirmations;
  const outcomes = Object.entries(resolved);
  const resolvedCount = outcomes.reduce((sum, [, count]) => sum + count, 0);
  const { applied, pending: unapplied } = report.migrations;
  const rows: [string, string][] = [
    ['threads', String(report.threads)],
    ['turns', Object.entries(report.turns).map(([status, count]) => `${status} ${count}`).join(', ')],
    ['confirmations', `pending ${pending}, claimed ${claimed}, resolved ${resolvedCount}${outcomes.length === 0 ? '' : ` (${outcomes.map(([outcome, count]) => `${outcome} ${count}`).join(', ')})`}`],
    ['live leases', String(report.liveLeases)],
    ['stuck turns', `${report.stuckTurns}${report.stuckTurns === 0 ? '' : ' (accepted or running, their lease lapsed: the next engine to start on the journal ends them)'}`],
    ['orphaned confirmations', `${report.orphanedConfirmations}${report.orphanedConfirmations === 0 ? '' : ' (pending or claimed, their turn ended: plumb cleanup deletes them with their thread)'}`],
  ];
  if (report.exists) {
    rows.push(['migrations', `${applied.length} applied${applied.length === 0 ? '' : ` (${applied.join(', ')})`}, ${unapplied.length === 0 ? 'none pending' : `pending: ${unapplied.join(', ')}`}`]);
    rows.push(['size', sizesText(report.sizes)]);
  }
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return `${[`Journal ${journal}${report.exists ? '' : ' (none yet: nothing recorded)'}:`, ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`)].join('\n')}\n`;
}

/** Each part's bytes, and their total when there are several. */
function sizesText(sizes: Readonly<Record<string, number>>): string {
  const parts = Object.entries(sizes);
  const total = parts.reduce((sum, [, size]) => sum + size, 0);
  return `${bytes(total)}${parts.length > 1 ? ` (${parts.map(([part, size]) => `${part} ${bytes(size)}`).join(', ')})` : ''}`;
}

function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = count / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
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
