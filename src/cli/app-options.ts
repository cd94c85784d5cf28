import { Option } from 'commander';
import type { Command } from 'commander';
import { actorNames, loadConfig, migrationsFolder, namedActor, openHostApp } from '../config/index.js';
import type { LoadedConfig, OpenedApp, PlumbConfig, RawSettings } from '../config/index.js';
import type { Actor } from '../core/index.js';
import type { ConnectedMcpTools } from '../mcp/index.js';
import { demoHost, scaledSeed } from '../demo/index.js';
import { runningPlumb } from '../running-plumb.js';
import { CliUsageError } from './cli-errors.js';

/** The options every command that opens the app shares. */
export interface AppOptions {
  readonly config?: string;
  readonly demo?: boolean;
  readonly database?: string;
  readonly db?: string;
  readonly as?: string;
  readonly scale?: string;
}

export const configHelp = 'configuration file (default: the nearest plumb.config.ts|mts|js|mjs|json|yaml from the current folder upward)';
const scaleHelp = 'with --demo, seed a new demo database with the large synthetic shop: per unit, 1,000 parts and 10,000 order lines (100 → 100,000 parts)';

/** `--config` and `--demo`: which configuration, or the embedded demo. */
export function addConfigOptions(command: Command): Command {
  return command.option('--config <file>', configHelp).option('--demo', 'open the embedded demo shop (SQLite, seeded on first use) instead of the configured app');
}

/** `--database` (and its short form `--db`): the app's data, over the configuration's. */
export function addDatabaseOption(command: Command): Command {
  return command
    .option('--database <url>', "the app's database, overriding the configuration's: sqlite:PATH, a SQLite path, ':memory:' or postgres://…")
    .addOption(new Option('--db <url>', 'the same as --database').hideHelp());
}

export function addAppOptions(command: Command): Command {
  return addDatabaseOption(addConfigOptions(command))
    .option('--scale <n>', scaleHelp)
    .option('--as <name>', 'act as this actor: anonymous, or a name from the configuration\'s actors (the demo has alice and bob)', 'anonymous');
}

/**
 * The configuration a command runs with: the file (or none), `--demo` as the app, `--database`
 * over the file's, and the command's own overrides.
 */
export async function loadCliConfig(options: AppOptions, overrides: RawSettings = {}): Promise<LoadedConfig> {
  const given: RawSettings = { ...overrides };
  if (options.demo === true) given.app = demoHost;
  const database = options.database ?? options.db;
  if (database !== undefined) given.database = database;
  if (options.scale !== undefined && options.demo !== true) throw new CliUsageError('--scale seeds the demo: give --demo too');
  return loadConfig({ ...(options.config === undefined ? {} : { path: options.config }), overrides: given, runningPlumb });
}

/** A command's app: the configured (or demo) app, opened, with the actor `--as` names. */
export interface CliApp extends AsyncDisposable {
  readonly loaded: LoadedConfig;
  readonly config: PlumbConfig;
  readonly opened: OpenedApp;
  readonly actor: Actor;
  close(): Promise<void>;
}

export async function openCliApp(options: AppOptions, overrides: RawSettings = {}): Promise<CliApp> {
  return openLoadedApp(await loadCliConfig(options, overrides), options);
}

/** Opens the app of a configuration already loaded (`loadCliConfig`). */
export async function openLoadedApp(loaded: LoadedConfig, options: Pick<AppOptions, 'as' | 'scale'>): Promise<CliApp> {
  const { config } = loaded;
  if (loaded.host === undefined) throw noApp(loaded);
  const actor = actorFrom(config, options.as);
  const scale = parseScale(options.scale);
  const app = await openHostApp({
    host: loaded.host,
    database: config.database,
    root: loaded.root,
    migrations: { folder: migrationsFolder(config.migrations, loaded.root), load: loaded.load },
    ...(scale === undefined ? {} : { seed: () => scaledSeed(scale) }),
  });
  const opened = await withExternalTools(app, config, loaded.root);
  const close = (): Promise<void> => opened.close();
  return { loaded, config, opened, actor, close, [Symbol.asyncDispose]: close };
}

/** The tools of the `mcpServers` the configuration names join the host's (the MCP client loads only then). */
async function withExternalTools(app: OpenedApp, config: PlumbConfig, root: string): Promise<OpenedApp> {
  if (Object.keys(config.mcpServers).length === 0) return app;
  let external: ConnectedMcpTools;
  try {
    const { connectMcpServers } = await import('../mcp/index.js');
    external = await connectMcpServers(config.mcpServers, { cwd: root });
  } catch (error) {
    await app.close();
    throw error;
  }
  const close = async (): Promise<void> => {
    await external.close();
    await app.close();
  };
  return { ...app, tools: [...app.tools, ...external.tools], close, [Symbol.asyncDispose]: close };
}

/** Neither `--demo` nor a configuration with `app`: say both ways. */
export function noApp(loaded: Pick<LoadedConfig, 'file' | 'root'>, alternative = ''): CliUsageError {
  const where = loaded.file === undefined ? `no plumb.config.* was found from ${loaded.root} upward` : `${loaded.file} sets no app`;
  return new CliUsageError(`say which app to open: --demo for the embedded demo shop, or a configuration whose app names your host module (plumb init writes one)${alternative}; ${where}`);
}

export function actorFrom(config: PlumbConfig, name = 'anonymous'): Actor {
  const actor = namedActor(config, name);
  if (actor === undefined) throw new CliUsageError(`unknown actor '${name}' for --as; choose one of ${actorNames(config).join(', ')} (the configuration's actors)`);
  return actor;
}

function parseScale(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const scale = Number(value);
  if (!Number.isInteger(scale) || scale < 1 || scale > 1000) throw new CliUsageError(`--scale must be an integer from 1 to 1000, got '${value}'`);
  return scale;
}

export function parseJsonOption(value: string, name: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    throw new CliUsageError(`${name} is not valid JSON: ${(error as Error).message}`);
  }
}
