import { existsSync } from 'node:fs';
import { isPlumbError } from '../core/index.js';
import { checkTables, defineApp, readPermissionProblems, tablesNotCreated } from '../data/index.js';
import type { App, Database } from '../data/index.js';
import { checkedRoles, defaultProfileName } from '../planned/index.js';
import { createProvider, describeProvider, providerSummary } from '../providers/index.js';
import type { ProviderConfig } from '../providers/index.js';
import { parseToolSettings, validateMutationSettings } from '../tools/index.js';
import { actorNames, namedActor } from './actors.js';
import { parseDatabaseUrl } from './database-url.js';
import type { HostDefinition } from './host.js';
import type { McpServerSetting } from './mcp-settings.js';
import { findConfigFile } from './find.js';
import { loadHost, merge, readSettings } from './load.js';
import type { RawSettings } from './load.js';
import type { ModuleLoader, RunningPlumb } from './modules.js';
import { settingFunction } from './modules.js';
import { openDatabase } from './open-app.js';
import { checkServices } from './check-services.js';
import { safeParseConfig, splitConfig } from './schema.js';
import type { PlumbConfig } from './schema.js';

/** One problem `plumb check` reports: a stable code and what to do. */
export interface CheckProblem {
  readonly code: string;
  readonly message: string;
}

export interface CheckOptions {
  readonly path?: string;
  readonly cwd?: string;
  /** Settings that win over the file (`--demo` gives the demo host as `app`). */
  readonly overrides?: RawSettings;
  /** What host modules get when they import Plumb by name (see `LoadOptions`). */
  readonly runningPlumb?: RunningPlumb;
  /** Reaches the MCP servers the app takes tools from; without it they are not checked. */
  readonly connectMcpServers?: ConnectMcpServers;
}

/** The MCP client as the check uses it: connect, count the tools, close. */
export type ConnectMcpServers = (servers: Readonly<Record<string, McpServerSetting>>, options: { readonly cwd: string }) => Promise<{ readonly tools: readonly { readonly name: string }[]; close(): Promise<void> }>;

export interface CheckReport {
  readonly config: PlumbConfig | undefined;
  readonly file: string | undefined;
  readonly problems: readonly CheckProblem[];
  /** What the check found and is not a problem (a new database whose tables the first start creates). */
  readonly notes: readonly string[];
}

/**
 * Loads everything a configuration names, without serving and without creating or changing
 * anything: the settings, the app module, the database (connection, tables and columns), the
 * `authenticate`, `permission` and audit logger modules, exposure, the managers' read permissions
 * (run for anonymous and each configured actor), the mutation allow-lists and the provider. Never throws for a problem it can name; one run names every problem. Settings
 * that are invalid are reported and the rest are checked with those at their defaults.
 */
export async function checkConfiguration(options: CheckOptions = {}): Promise<CheckReport> {
  const problems: CheckProblem[] = [];
  const notes: string[] = [];
  const record = (error: unknown, prefix = ''): void => {
    if (!isPlumbError(error)) throw error;
    problems.push({ code: error.code, message: `${prefix}${error.message}` });
  };
  let read: Awaited<ReturnType<typeof readSettings>>;
  let found: string | undefined;
  try {
    found = findConfigFile(options.path, options.cwd ?? process.cwd());
    read = await readSettings(options);
  } catch (error) {
    record(error);
    return { config: undefined, file: found, problems, notes };
  }
  const { file, root, load } = read;
  const overrides = options.overrides ?? {};
  const raw = { ...merge(read.raw, overrides), app: 'app' in overrides ? overrides.app : read.raw.app };

  let host: HostDefinition | undefined;
  if (raw.app !== undefined && raw.app !== null) {
    try {
      host = await loadHost(raw.app, load);
    } catch (error) {
      record(error);
    }
  }
  const layered = host?.settings === undefined ? raw : merge(host.settings, raw);
  const config = parseWhatIsValid({ ...layered, app: host ?? null }, problems, notes);
  if (config === undefined) return { config: undefined, file, problems, notes };

  await checkModules(config, load, problems);
  await checkServices(config, root, problems, notes, options.connectMcpServers);
  let app: App | undefined;
  if (host !== undefined) app = await checkApp(host, config, root, problems, notes);
  else if (raw.app === undefined || raw.app === null) notes.push('No app is configured (set app, or pass --demo): the data, exposure and allow-lists were not checked.');

  if (app !== undefined) {
    if (!app.managers.some((manager) => manager.chatExposed)) {
      problems.push({ code: 'no_exposed_data', message: 'No manager is exposed to chat: set chatExposed: true on the managers the assistant may read.' });
    }
    try {
      validateMutationSettings(app, parseToolSettings(splitConfig(config).tools));
    } catch (error) {
      problems.push({ code: 'invalid_allow_list', message: error instanceof Error ? error.message : String(error) });
    }
    // Each read permission as anonymous and as every configured actor: what would refuse every read at run time.
    const actors = actorNames(config).map((name) => ({ name, actor: namedActor(config, name)! }));
    for (const problem of readPermissionProblems(app, actors)) problems.push({ code: 'permission_error', message: problem.message });
    await app.close();
  }

  if (config.provider !== null) {
    try {
      const provider = await createProvider({ ...(config.providerConfig as Omit<ProviderConfig, 'provider'>), provider: config.provider, cwd: root });
      for (const problem of provider.checkConfiguration()) problems.push({ code: 'provider_load_failed', message: `${problem.code}: ${problem.message}` });
      notes.push(`provider ${providerSummary(describeProvider(provider))}.`);
    } catch (error) {
      const code = isPlumbError(error) && error.code === 'provider_package_missing' ? 'provider_dependency_missing' : 'provider_load_failed';
      problems.push({ code, message: error instanceof Error ? error.message : String(error) });
    }
  }
  if (config.planned.enabled) await checkPlanned(config, root, problems, notes);
  return { config: problems.length === 0 ? config : undefined, file, problems, notes };
}

/** Planned turns: the roles' profiles and trust group, and each profile's provider (built, never called). */
async function checkPlanned(config: PlumbConfig, root: string, problems: CheckProblem[], notes: string[]): Promise<void> {
  let roles: ReturnType<typeof checkedRoles>;
  try {
    roles = checkedRoles(config);
  } catch (error) {
    if (!isPlumbError(error)) throw error;
    problems.push({ code: error.code, message: error.message });
    return;
  }
  const seen = new Set<string>();
  for (const { name, profile } of Object.values(roles)) {
    if (seen.has(name) || name === defaultProfileName) continue;
    seen.add(name);
    try {
      const provider = await createProvider({ ...(profile.providerConfig as Omit<ProviderConfig, 'provider'>), provider: profile.provider, cwd: root });
      for (const problem of provider.checkConfiguration()) problems.push({ code: 'provider_load_failed', message: `providerProfiles.${name}: ${problem.code}: ${problem.message}` });
      notes.push(`providerProfiles.${name}: provider ${providerSummary(describeProvider(provider))}.`);
    } catch (error) {
      problems.push({ code: 'provider_load_failed', message: `providerProfiles.${name}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
}

/** The configuration with its invalid settings reported and left at their defaults. */
function parseWhatIsValid(raw: RawSettings, problems: CheckProblem[], notes: string[]): PlumbConfig | undefined {
  const parsed = safeParseConfig(raw);
  if (parsed.ok) {
    notes.push(...parsed.notices);
    return parsed.config;
  }
  for (const problem of parsed.problems) problems.push({ code: 'invalid_config', message: problem.message });
  const dropped = new Set(parsed.problems.map((problem) => problem.key.split('.')[0]));
  const rest = safeParseConfig(Object.fromEntries(Object.entries(raw).filter(([key]) => !dropped.has(key))));
  if (!rest.ok) return undefined;
  notes.push(...rest.notices);
  return rest.config;
}

async function checkModules(config: PlumbConfig, load: ModuleLoader, problems: CheckProblem[]): Promise<void> {
  const modules: [string, unknown, readonly string[], string][] = [
    ['authenticate', config.authenticate, ['authenticate'], 'a function (request) => actor | null'],
    ['permission', config.permission, ['permission'], 'a function (actor, scope) => boolean'],
    ['audit.logger', config.audit.logger, ['logger'], 'a function (record) => void'],
  ];
  for (const [key, setting, names, signature] of modules) {
    if (setting === null || typeof setting === 'function') continue;
    try {
      await settingFunction(setting as string, { load, key, names, signature });
    } catch (error) {
      if (!isPlumbError(error)) throw error;
      problems.push({ code: error.code, message: error.message.startsWith(`${key}:`) ? error.message : `${key}: ${error.message}` });
    }
  }
}

/** Defines the app and compares its tables with the database's, creating nothing. */
async function checkApp(host: HostDefinition, config: PlumbConfig, root: string, problems: CheckProblem[], notes: string[]): Promise<App | undefined> {
  const tables = host.tables ?? 'own';
  let database: Database;
  try {
    const location = parseDatabaseUrl(config.database, root);
    if (location.kind === 'sqlite' && tables !== 'attach' && !existsSync(location.path)) {
      notes.push(`database: '${location.path}' does not exist yet; the first start creates it with the app's tables.`);
      database = await openDatabase({ kind: 'memory' });
    } else database = await openDatabase(location, tables);
  } catch (error) {
    if (!isPlumbError(error)) throw error;
    problems.push({ code: error.code, message: `database: ${error.message}` });
    return undefined;
  }
  let app: App;
  try {
    app = defineApp({ managers: host.managers, ...(host.catalog === undefined ? {} : { catalog: host.catalog }), database, tables });
  } catch (error) {
    await database.close();
    if (!isPlumbError(error)) throw error;
    problems.push({ code: error.code, message: error.message });
    return undefined;
  }
  try {
    const checked = await checkTables(database, app.managers, tables === 'attach' ? 'attach' : 'own');
    for (const problem of checked.problems) problems.push({ code: 'schema_mismatch', message: problem });
    if (checked.missing.length > 0) {
      const refusal = tables === 'own' ? await tablesNotCreated(database, app.managers, checked.missing) : undefined;
      if (refusal !== undefined) problems.push({ code: refusal.code, message: `database: ${refusal.message}` });
      else notes.push(`New tables the first start creates: ${checked.missing.join(', ')}.`);
    }
  } catch (error) {
    await app.close();
    if (!isPlumbError(error)) throw error;
    problems.push({ code: error.code, message: `database: ${error.message}` });
    return undefined;
  }
  return app;
}
