import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { PlumbError } from '../core/index.js';

/** The file names a configuration may have, in the order they are looked for. */
export const configFileNames = ['plumb.config.ts', 'plumb.config.mts', 'plumb.config.js', 'plumb.config.mjs', 'plumb.config.json', 'plumb.config.yaml', 'plumb.config.yml'] as const;

/**
 * Where the configuration comes from: the given path, else the nearest folder from `cwd` upward
 * that holds a `plumb.config.*`, else none. Two configuration files in one folder are an error:
 * which one wins would be a guess.
 */
export function findConfigFile(path: string | undefined, cwd: string): string | undefined {
  if (path !== undefined) {
    const full = isAbsolute(path) ? path : resolve(cwd, path);
    if (!existsSync(full)) throw new PlumbError('config_not_found', `No configuration file at '${full}'. Check the --config path, or run plumb init to write one.`, { details: { file: full } });
    return full;
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const found = configFileNames.map((name) => join(dir, name)).filter((file) => existsSync(file));
    if (found.length > 1) {
      throw new PlumbError('config_ambiguous', `${dir} holds ${found.length} configuration files (${found.map((file) => file.slice(dir.length + 1)).join(', ')}). Keep one, or pass --config FILE.`, { details: { files: found } });
    }
    if (found[0] !== undefined) return found[0];
    if (dirname(dir) === dir) return undefined;
  }
}
