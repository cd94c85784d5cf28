import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadMigrationFiles, migrationFileNames, migrationsFolder, openDatabase, parseDatabaseUrl, redactUrl } from '../../config/index.js';
import type { LoadedConfig } from '../../config/index.js';
import { applyDataMigrations, checkTables, dataMigrationState, defineApp, migrationSource, planMigration } from '../../data/index.js';
import type { App, MigrationPlan, SchemaChange } from '../../data/index.js';
import { addConfigOptions, addDatabaseOption, loadCliConfig, noApp } from '../app-options.js';
import { displayPath } from '../display-path.js';
import { CliFailure, CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';

interface MigrateOptions {
  readonly config?: string;
  readonly demo?: boolean;
  readonly database?: string;
  readonly db?: string;
  readonly name?: string;
}

const actions = ['status', 'generate', 'up'] as const;
type Action = (typeof actions)[number];

/**
 * `plumb migrate status | generate | up`: the app's own tables through kysely's Migrator.
 * `generate` writes a migration from the difference between the managers and the database (new
 * tables, columns, indexes) and refuses what could lose data; `up` applies what is pending.
 */
export function registerMigrateCommand(program: Command, io: CliIo): void {
  addDatabaseOption(
    addConfigOptions(
      program
        .command('migrate')
        .description("Migrations of the tables Plumb owns: status (applied, pending, differences), generate (write a migration from the difference between the managers and the database), up (apply the pending ones)")
        .argument('<action>', `one of ${actions.join(', ')}`),
    ),
  )
    .option('--name <name>', 'generate: the migration\'s name (default: from what it changes)')
    .action(async (action: string, options: MigrateOptions) => {
      if (!(actions as readonly string[]).includes(action)) throw new CliUsageError(`unknown migrate action '${action}'; use ${actions.join(', ')}`);
      if (options.name !== undefined && action !== 'generate') throw new CliUsageError('--name goes with generate');
      if (options.name !== undefined && !/^[a-z0-9_]{1,60}$/.test(options.name)) throw new CliUsageError(`--name is lowercase letters, digits and _ (up to 60), got '${options.name}'`);
      const loaded = await loadCliConfig(options);
      if (loaded.host === undefined) throw noApp(loaded);
      if (loaded.host.tables === 'attach') {
        throw new CliFailure("the app attaches to tables of its own (tables: 'attach'): Plumb never creates or changes them, so it has no migrations. Change them with your own migration tools.");
      }
      const folder = migrationsFolder(loaded.config.migrations, loaded.root);
      const database = await openDatabase(parseDatabaseUrl(loaded.config.database, loaded.root));
      const app = defineApp({ managers: loaded.host.managers, database });
      try {
        await run(action as Action, { app, loaded, folder, io, ...(options.name === undefined ? {} : { name: options.name }) });
      } finally {
        await app.close();
      }
    });
}

interface Context {
  readonly app: App;
  readonly loaded: LoadedConfig;
  readonly folder: string;
  readonly io: CliIo;
  readonly name?: string;
}

async function run(action: Action, context: Context): Promise<void> {
  const { app, loaded, folder, io } = context;
  const migrations = () => loadMigrationFiles(folder, loaded.load);
  const where = redactUrl(loaded.config.database);
  switch (action) {
    case 'status': {
      const state = await dataMigrationState(app.database, migrations);
      io.stdout(`Migrations of ${where} (folder ${displayPath(folder)}):\n`);
      io.stdout(`  applied: ${state.applied.length === 0 ? 'none' : state.applied.join(', ')}\n`);
      io.stdout(`  pending: ${state.pending.length === 0 ? 'none' : state.pending.join(', ')}\n`);
      if (state.pending.length > 0) {
        io.stdout('Run plumb migrate up to apply the pending migrations.\n');
        return;
      }
      printPlan(io, await planMigration(app.database, app.managers));
      return;
    }
    case 'generate':
      return generate(context, migrations);
    case 'up': {
      const applied = await applyDataMigrations(app.database, migrations);
      io.stdout(applied.length === 0 ? `Nothing to apply: every migration in ${displayPath(folder)} is applied to ${where}.\n` : `Applied to ${where}: ${applied.join(', ')}\n`);
      const { problems, missing } = await checkTables(app.database, app.managers, 'own');
      const left = [...problems, ...missing.map((table) => `Table '${table}' does not exist.`)];
      if (left.length > 0) {
        throw new CliFailure(`the database still differs from the managers: ${left.join(' ')} Run plumb migrate generate to write a migration for it.`);
      }
      return;
    }
    default:
      return action satisfies never;
  }
}

async function generate(context: Context, migrations: () => ReturnType<typeof loadMigrationFiles>): Promise<void> {
  const { app, folder, io } = context;
  const state = await dataMigrationState(app.database, migrations);
  if (state.pending.length > 0) {
    throw new CliFailure(`${state.pending.join(', ')} ${state.pending.length === 1 ? 'is' : 'are'} not applied yet: run plumb migrate up first, so that the new migration starts from where they leave the database. Nothing was written.`);
  }
  const plan = await planMigration(app.database, app.managers);
  if (plan.destructive.length > 0) {
    printPlan(io, plan);
    throw new CliFailure(`${plan.destructive.length} difference${plan.destructive.length === 1 ? '' : 's'} could lose data, and plumb migrate generate does not write ${plan.destructive.length === 1 ? 'it' : 'them'}: write a migration by hand in ${displayPath(folder)} (export async function up(db) { … }, with kysely's schema builder), then plumb migrate up. Nothing was written.`);
  }
  if (plan.changes.length === 0) {
    io.stdout('The database matches the managers: nothing to generate.\n');
    return;
  }
  mkdirSync(folder, { recursive: true });
  const now = new Date();
  const written: string[] = [];
  // The first migration of a database whose tables Plumb created without migrations starts with
  // them as they are, so that a new database is built from the migrations alone.
  if (migrationFileNames(folder).length === 0 && plan.existing.length > 0) {
    const baseline = plan.existing.map((table): SchemaChange => ({ kind: 'createTable', table }));
    written.push(write(folder, `${stamp(now)}_baseline`, migrationSource(app.database, baseline, `The tables as they were before migrations: ${plan.existing.map((table) => table.name).join(', ')}.`)));
  }
  const name = context.name ?? defaultName(plan.changes);
  written.push(write(folder, `${stamp(new Date(now.getTime() + 1000))}_${name}`, migrationSource(app.database, plan.changes, describeChanges(plan.changes))));
  io.stdout(`Wrote ${written.map((file) => displayPath(file)).join(' and ')}:\n${plan.changes.map((change) => `  + ${describeChange(change)}\n`).join('')}Review it, then run plumb migrate up.\n`);
}

function write(folder: string, name: string, source: string): string {
  const file = join(folder, `${name}.ts`);
  writeFileSync(file, source, { flag: 'wx' });
  return file;
}

function printPlan(io: CliIo, plan: MigrationPlan): void {
  if (plan.changes.length === 0 && plan.destructive.length === 0) {
    io.stdout('The database matches the managers.\n');
    return;
  }
  for (const change of plan.changes) io.stdout(`  + ${describeChange(change)} (plumb migrate generate writes it)\n`);
  for (const difference of plan.destructive) io.stdout(`  ! ${difference}\n`);
}

function describeChange(change: SchemaChange): string {
  return change.kind === 'createTable' ? `new table '${change.table.name}' (${change.table.owner})` : `new column '${change.table}.${change.column.name}' for ${change.column.what}`;
}

function describeChanges(changes: readonly SchemaChange[]): string {
  return `${changes.map(describeChange).join('; ')}.`;
}

function defaultName(changes: readonly SchemaChange[]): string {
  const parts = changes.map((change) => (change.kind === 'createTable' ? `create_${change.table.name}` : `add_${change.table}_${change.column.name}`));
  const name = parts.join('_and_').toLowerCase().replace(/[^a-z0-9_]+/g, '_');
  return name.length <= 60 ? name : `${parts[0]!.slice(0, 40).toLowerCase().replace(/[^a-z0-9_]+/g, '_')}_and_more`;
}

/** `20261201T153000` in UTC: names sort in the order they were written. */
function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '');
}
