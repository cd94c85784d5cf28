import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Jiti } from 'jiti';
import { PlumbError } from '../core/index.js';

/** A loaded module's exports. */
export type ModuleExports = Readonly<Record<string, unknown>>;

/** Imports a module (TypeScript or JavaScript) named by a setting, resolved from the configuration's folder. */
export type ModuleLoader = (specifier: string) => Promise<ModuleExports>;

/**
 * The running Plumb as host modules see it: its faces by the names a host imports them by
 * (`plumb-agent`, `plumb-agent/server`…). The layer that starts things hands it in; config knows none of them.
 */
export type RunningPlumb = () => Promise<Readonly<Record<string, ModuleExports>>>;

/**
 * The loader every module-path setting goes through (`app`, `authenticate`, `permission`, audit
 * `logger`, provider modules, migration files): jiti, so that `.ts` and `.mts` modules load on
 * Node 20 without a build step or the host's own TypeScript loader. Given `runningPlumb`, a host
 * module that imports `plumb` (or a subpath) gets the Plumb that is running, never a second copy:
 * classes and branded values keep working across the boundary.
 */
export function createModuleLoader(root: string, runningPlumb?: RunningPlumb): ModuleLoader {
  let jiti: Promise<Jiti> | undefined;
  return async (specifier) => {
    const target = isPath(specifier) ? resolve(root, specifier) : specifier;
    if (isPath(specifier) && !existsSync(target)) {
      throw new PlumbError('module_not_found', `No module at '${target}'. Check the path (it is relative to ${root}).`, { details: { module: specifier } });
    }
    jiti ??= createJiti(root, runningPlumb);
    const loader = await jiti;
    try {
      return await loader.import<ModuleExports>(target);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new PlumbError('module_load_failed', `Could not load '${specifier}': ${message}`, { details: { module: specifier }, cause: error });
    }
  };
}

async function createJiti(root: string, runningPlumb: RunningPlumb | undefined): Promise<Jiti> {
  const [{ createJiti: create }, virtualModules] = await Promise.all([import('jiti'), runningPlumb?.() ?? {}]);
  return create(pathToFileURL(resolve(root, 'plumb.config.js')).href, { interopDefault: false, moduleCache: true, virtualModules });
}

function isPath(specifier: string): boolean {
  return specifier.startsWith('.') || isAbsolute(specifier) || specifier.startsWith('file:');
}

/**
 * The function a module-path setting names: the first of `names` that the module exports as a
 * function (`default` last). A setting that is already a function is used as it is.
 */
export async function settingFunction<F extends (...args: never[]) => unknown>(
  setting: F | string,
  options: { readonly load: ModuleLoader; readonly key: string; readonly names: readonly string[]; readonly signature: string },
): Promise<F> {
  if (typeof setting === 'function') return setting;
  const module = await options.load(setting);
  for (const name of [...options.names, 'default']) {
    const candidate = module[name];
    if (typeof candidate === 'function') return candidate as F;
  }
  const exported = Object.keys(module).join(', ') || '(none)';
  throw new PlumbError('module_export_missing', `${options.key}: the module '${setting}' must export ${options.signature} as ${[...options.names.map((name) => `'${name}'`), 'its default export'].join(' or ')}; it exports ${exported}.`, {
    details: { key: options.key, module: setting },
  });
}
