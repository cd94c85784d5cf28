import { readFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isPlumbError, PlumbError } from '../core/index.js';
import { interpolateEnvironment, loadDotEnv } from './environment.js';
import { findConfigFile } from './find.js';
import { hostProblems } from './host.js';
import type { HostDefinition } from './host.js';
import { createModuleLoader } from './modules.js';
import type { ModuleLoader, RunningPlumb } from './modules.js';
import { parseConfig, stderrNotice } from './schema.js';
import type { PlumbConfig } from './schema.js';

/** Settings as a file holds them: not yet validated. */
export type RawSettings = Record<string, unknown>;

export interface LoadOptions {
  /** `--config FILE`; else the nearest `plumb.config.*` from `cwd` upward. */
  readonly path?: string;
  readonly cwd?: string;
  /** Settings that win over the file's and the host's (command-line flags). */
  readonly overrides?: RawSettings;
  /** What host modules get when they import Plumb by name; without it they resolve it as any package. */
  readonly runningPlumb?: RunningPlumb;
  /** Each ported setting read as a native one (`summarizeAfter`…), one line; default: stderr. */
  readonly onNotice?: (notice: string) => void;
}

/** A configuration with where it came from, and the loader its module settings go through. */
export interface LoadedConfig {
  readonly config: PlumbConfig;
  /** The file read, or undefined when every setting is a default or an override. */
  readonly file: string | undefined;
  /** The configuration's folder: relative paths in settings are resolved from here. */
  readonly root: string;
  /** The host definition `app` names, loaded; undefined when there is none. */
  readonly host: HostDefinition | undefined;
  readonly load: ModuleLoader;
  /** What the load said through `onNotice`: each ported setting and the native one it was read as. */
  readonly notices: readonly string[];
}

/** Reads a configuration file's settings: JSON, YAML, or a module's default export (or a function returning it). */
export async function readConfigFile(file: string, load: ModuleLoader): Promise<unknown> {
  try {
    const extension = extname(file);
    if (extension === '.json') return JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (extension === '.yaml' || extension === '.yml') return parseYaml(readFileSync(file, 'utf8')) as unknown;
    const module = await load(file);
    const value = module.default ?? module.config;
    if (value === undefined) throw new Error('the module has no default export (export default defineConfig({ … }))');
    return typeof value === 'function' ? await (value as () => unknown)() : value;
  } catch (error) {
    const message = isPlumbError(error) && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new PlumbError('config_load_failed', `Could not load '${file}': ${message}.`, { cause: error, details: { file } });
  }
}

/**
 * The settings of the configuration file (with `.env` read and `${VAR}` interpolated), not yet
 * validated, with the file and its folder.
 */
export async function readSettings(options: Pick<LoadOptions, 'path' | 'cwd' | 'runningPlumb'> = {}): Promise<{ raw: RawSettings; file: string | undefined; root: string; load: ModuleLoader }> {
  const cwd = options.cwd ?? process.cwd();
  const file = findConfigFile(options.path, cwd);
  const root = file === undefined ? cwd : dirname(file);
  loadDotEnv(root);
  const load = createModuleLoader(root, options.runningPlumb);
  const read = file === undefined ? {} : await readConfigFile(file, load);
  if (read === null || typeof read !== 'object' || Array.isArray(read)) {
    throw new PlumbError('invalid_config', `The configuration in '${file ?? '(none)'}' must be an object of settings.`, { details: { file } });
  }
  return { raw: interpolateEnvironment(read) as RawSettings, file, root, load };
}

/** Loads the host definition `app` names (a module path or the object itself); throws `invalid_host` or a module error. */
export async function loadHost(app: unknown, load: ModuleLoader): Promise<HostDefinition> {
  let value = app;
  if (typeof app === 'string') {
    const module = await load(app);
    value = module.default ?? module.host;
    if (value === undefined) {
      throw new PlumbError('module_export_missing', `app: the module '${app}' must export its host definition as its default export (export default defineHost({ managers: [...] })); it exports ${Object.keys(module).join(', ') || 'nothing'}.`, { details: { key: 'app', module: app } });
    }
  }
  const problems = hostProblems(value);
  if (problems.length > 0) {
    const where = typeof app === 'string' ? ` in '${app}'` : '';
    throw new PlumbError('invalid_host', `The host definition${where} is invalid:\n- ${problems.join('\n- ')}`, { details: { problems } });
  }
  return value as HostDefinition;
}

/**
 * Finds, reads and parses the configuration. Settings are layered: the host definition's
 * `settings`, then the file, then `overrides`; objects (rateLimit, audit…) merge key by key.
 */
export async function loadConfig(options: LoadOptions = {}): Promise<LoadedConfig> {
  const { raw, file, root, load } = await readSettings(options);
  const overrides = options.overrides ?? {};
  // `app` is one value (a path or a host definition), never merged key by key.
  const given = { ...merge(raw, overrides), app: 'app' in overrides ? overrides.app : raw.app };
  const host = given.app === undefined || given.app === null ? undefined : await loadHost(given.app, load);
  const layered = host?.settings === undefined ? given : merge(host.settings, given);
  const notices: string[] = [];
  const onNotice = options.onNotice ?? stderrNotice;
  const config = parseConfig({ ...layered, ...(host === undefined ? {} : { app: host }) }, (notice) => {
    notices.push(notice);
    onNotice(notice);
  });
  return { config, file, root, host, load, notices };
}

/** `over` wins; plain objects merge key by key, everything else (arrays included) is replaced. */
export function merge(under: RawSettings, over: RawSettings): RawSettings {
  const merged: RawSettings = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = merged[key];
    merged[key] = isPlain(below) && isPlain(value) ? merge(below, value) : value;
  }
  return merged;
}

function isPlain(value: unknown): value is RawSettings {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}
