import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PlumbError } from '../core/index.js';
import type { PermissionCallable } from './settings.js';

/**
 * The `permission` setting as a callable: a function is used as is; a module path is imported
 * (relative to `cwd`) and its `default` or `permission` export used; null means allow everyone.
 */
export async function resolvePermission(setting: PermissionCallable | string | null, cwd: string = process.cwd()): Promise<PermissionCallable | undefined> {
  if (setting === null) return undefined;
  if (typeof setting === 'function') return setting;
  const specifier = setting.startsWith('.') || isAbsolute(setting) ? pathToFileURL(resolve(cwd, setting)).href : setting;
  let module: { default?: unknown; permission?: unknown };
  try {
    module = (await import(specifier)) as typeof module;
  } catch (error) {
    throw new PlumbError('invalid_permission', `Could not import the permission module '${setting}': ${error instanceof Error ? error.message : String(error)}.`, { cause: error });
  }
  const candidate = module.permission ?? module.default;
  if (typeof candidate !== 'function') {
    throw new PlumbError('invalid_permission', `The permission module '${setting}' must export a function (default or 'permission') taking (actor, scope) and returning a boolean.`);
  }
  return candidate as PermissionCallable;
}
