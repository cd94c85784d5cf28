import { isPlumbError } from '../core/index.js';
import type { App } from '../data/index.js';
import { createProvider } from '../providers/index.js';
import type { ProviderConfig } from '../providers/index.js';
import { parseToolSettings, validateMutationSettings } from '../tools/index.js';
import { readSettings, safeParseConfig, splitConfig } from './config.js';
import type { PlumbConfig } from './config.js';
import { resolvePermission } from './permission.js';

/** One problem `plumb check` reports, with a stable code. */
export interface CheckProblem {
  readonly code: 'invalid_config' | 'config_not_found' | 'config_load_failed' | 'no_exposed_data' | 'invalid_allow_list' | 'provider_dependency_missing' | 'provider_load_failed';
  readonly message: string;
}

/**
 * Validates a configuration against the app and the provider without serving: settings, the
 * permission module, exposure, mutation allow-lists, and whether the provider loads and is
 * configured. Never throws for a problem it can name. Settings that are invalid are reported and
 * the rest are still checked (the invalid ones at their defaults), so one run names every problem;
 * `config` is then undefined.
 */
export async function checkConfiguration(options: { readonly path?: string; readonly cwd?: string; readonly app?: App }): Promise<{ config: PlumbConfig | undefined; file: string | undefined; problems: readonly CheckProblem[] }> {
  const cwd = options.cwd ?? process.cwd();
  const problems: CheckProblem[] = [];
  let read: Awaited<ReturnType<typeof readSettings>>;
  try {
    read = await readSettings({ ...(options.path === undefined ? {} : { path: options.path }), cwd });
  } catch (error) {
    if (!isPlumbError(error)) throw error;
    problems.push({ code: error.code as CheckProblem['code'], message: error.message });
    return { config: undefined, file: undefined, problems };
  }
  const { raw, file } = read;
  const parsed = safeParseConfig(raw);
  let config: PlumbConfig;
  if (parsed.ok) config = parsed.config;
  else {
    for (const problem of parsed.problems) problems.push({ code: 'invalid_config', message: problem.message });
    // The other checks go on with the settings that have problems at their defaults.
    const dropped = new Set(parsed.problems.map((problem) => problem.key.split('.')[0]));
    const rest = safeParseConfig(Object.fromEntries(Object.entries(raw).filter(([key]) => !dropped.has(key))));
    if (!rest.ok) return { config: undefined, file, problems };
    config = rest.config;
  }

  try {
    await resolvePermission(config.permission, cwd);
  } catch (error) {
    problems.push({ code: 'invalid_config', message: `permission: ${error instanceof Error ? error.message : String(error)}` });
  }

  if (options.app !== undefined) {
    if (!options.app.managers.some((manager) => manager.chatExposed)) {
      problems.push({ code: 'no_exposed_data', message: 'No manager is exposed to chat: set chatExposed: true on the managers the assistant may read.' });
    }
    try {
      validateMutationSettings(options.app, parseToolSettings(splitConfig(config).tools));
    } catch (error) {
      problems.push({ code: 'invalid_allow_list', message: error instanceof Error ? error.message : String(error) });
    }
  }

  if (config.provider !== null) {
    try {
      const provider = await createProvider({ ...(config.providerConfig as Omit<ProviderConfig, 'provider'>), provider: config.provider, cwd });
      for (const problem of provider.checkConfiguration()) problems.push({ code: 'provider_load_failed', message: `${problem.code}: ${problem.message}` });
    } catch (error) {
      const code = isPlumbError(error) && error.code === 'provider_package_missing' ? 'provider_dependency_missing' : 'provider_load_failed';
      problems.push({ code, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { config: parsed.ok ? config : undefined, file, problems };
}
