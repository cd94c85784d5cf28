import { existsSync, readFileSync } from 'node:fs';
import { extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { suggestionList } from 'graphql/jsutils/suggestionList.js';
import { PlumbError } from '../core/index.js';
import { engineSettingsSchema } from '../engine/index.js';
import type { EngineSettingsInput } from '../engine/index.js';
import { toolSettingsSchema } from '../tools/index.js';
import type { ToolSettingsInput } from '../tools/index.js';
import { serverSettingsShape } from './settings.js';

/**
 * The whole `plumb.config.*` object: the server's own settings next to the engine's and the
 * tools', each declared once by its folder.
 */
export const plumbConfigSchema = z.strictObject({
  ...engineSettingsSchema.shape,
  ...toolSettingsSchema.shape,
  ...serverSettingsShape,
});

export type PlumbConfigInput = z.input<typeof plumbConfigSchema>;
export type PlumbConfig = Readonly<z.output<typeof plumbConfigSchema>>;

/** The file names looked for, in order, when no --config is given. */
export const configFileNames = ['plumb.config.json', 'plumb.config.js', 'plumb.config.mjs', 'plumb.config.ts'] as const;

/** One problem with a configuration, naming the key. */
export interface ConfigProblem {
  readonly key: string;
  readonly message: string;
}

/** Non-throwing: the parsed configuration, or every problem with its key. */
export function safeParseConfig(input: unknown): { ok: true; config: PlumbConfig } | { ok: false; problems: readonly ConfigProblem[] } {
  const result = plumbConfigSchema.safeParse(input ?? {});
  if (result.success) return { ok: true, config: deepFreeze(result.data) };
  const known = Object.keys(plumbConfigSchema.shape).sort();
  const problems: ConfigProblem[] = [];
  for (const issue of result.error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const full = base === '' ? key : `${base}.${key}`;
        // The closest known names (graphql-js's own "did you mean" ranking), else the whole list at the top level.
        const close = base === '' ? suggestionList(key, known).slice(0, 3) : [];
        const hint = close.length > 0 ? ` Did you mean ${close.map((name) => `'${name}'`).join(' or ')}?` : base === '' ? ` Settings: ${known.join(', ')}.` : '';
        problems.push({ key: full, message: `Unknown setting '${full}'.${hint}` });
      }
      continue;
    }
    const key = base === '' ? '(config)' : base;
    problems.push({ key, message: `Invalid value for '${key}': ${issue.message}.` });
  }
  return { ok: false, problems };
}

/** Parses, defaults and freezes a configuration; throws `invalid_config` naming every bad key. */
export function parseConfig(input: unknown): PlumbConfig {
  const result = safeParseConfig(input);
  if (result.ok) return result.config;
  throw new PlumbError('invalid_config', result.problems.map((problem) => problem.message).join(' '), { details: { problems: result.problems } });
}

/** Where the configuration comes from: the given path, else the first `plumb.config.*` in `cwd`, else none. */
export function findConfigFile(path: string | undefined, cwd: string): string | undefined {
  if (path !== undefined) {
    const full = isAbsolute(path) ? path : resolve(cwd, path);
    if (!existsSync(full)) throw new PlumbError('config_not_found', `No configuration file at '${full}'.`);
    return full;
  }
  for (const name of configFileNames) {
    const full = resolve(cwd, name);
    if (existsSync(full)) return full;
  }
  return undefined;
}

/** Reads the raw object of a configuration file: JSON, or a module's default export. */
export async function readConfigFile(file: string): Promise<unknown> {
  try {
    if (extname(file) === '.json') return JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown; config?: unknown };
    const value = module.default ?? module.config;
    if (value === undefined) throw new Error('the module has no default export (export default { … })');
    return typeof value === 'function' ? await (value as () => unknown)() : value;
  } catch (error) {
    throw new PlumbError('config_load_failed', `Could not load '${file}': ${error instanceof Error ? error.message : String(error)}.`, { cause: error });
  }
}

/** Finds, reads and parses the configuration; `overrides` (CLI flags) win over the file. */
export async function loadConfig(options: { readonly path?: string; readonly cwd?: string; readonly overrides?: Record<string, unknown> } = {}): Promise<{ config: PlumbConfig; file: string | undefined }> {
  const { raw, file } = await readSettings(options);
  return { config: parseConfig({ ...raw, ...options.overrides }), file };
}

/** The settings object as the configuration file holds it (not yet validated), and the file. */
export async function readSettings(options: { readonly path?: string; readonly cwd?: string }): Promise<{ raw: Record<string, unknown>; file: string | undefined }> {
  const file = findConfigFile(options.path, options.cwd ?? process.cwd());
  const raw = file === undefined ? {} : await readConfigFile(file);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new PlumbError('invalid_config', `The configuration in '${file ?? '(none)'}' must be an object of settings.`);
  }
  return { raw: raw as Record<string, unknown>, file };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}

/** The engine's and the tools' parts of a configuration, for `createEngine`. */
export function splitConfig(config: PlumbConfig): { engine: EngineSettingsInput; tools: ToolSettingsInput } {
  const pick = (keys: readonly string[]): Record<string, unknown> => Object.fromEntries(keys.map((key) => [key, (config as Record<string, unknown>)[key]]));
  return {
    engine: pick(Object.keys(engineSettingsSchema.shape)),
    tools: pick(Object.keys(toolSettingsSchema.shape)),
  };
}
