import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { CliUsageError } from './cli-errors.js';

/** A file a flag names, as text; a usage error naming the flag when it cannot be read. */
export async function readText(file: string, option: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliUsageError(`${option}: cannot read '${file}': ${(code === undefined ? undefined : unreadable[code]) ?? code ?? (error as Error).message}`);
  }
}

const unreadable: Readonly<Record<string, string>> = {
  ENOENT: 'no such file (check the path, relative to the current folder)',
  EISDIR: 'it is a folder; give a file',
  EACCES: 'permission denied',
};

/** JSON or YAML text (YAML reads JSON too); a usage error naming the flag when it is neither. */
export function parseData(text: string, option: string): unknown {
  try {
    return parseYaml(text) as unknown;
  } catch (error) {
    throw new CliUsageError(`${option}: not JSON or YAML: ${(error as Error).message}`);
  }
}

const contextKeys = ['references', 'context', 'supplementalContext'] as const;

/**
 * `--context-file FILE`: the page context a message carries, as JSON or YAML
 * `{ references?, context?, supplementalContext? }`; the engine checks the items themselves.
 */
export async function readContextFile(file: string): Promise<Partial<Record<(typeof contextKeys)[number], unknown>>> {
  const data = parseData(await readText(file, '--context-file'), '--context-file');
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new CliUsageError(`--context-file: '${file}' must hold an object with ${contextKeys.join(', ')}`);
  const unknown = Object.keys(data).filter((name) => !(contextKeys as readonly string[]).includes(name));
  if (unknown.length > 0) throw new CliUsageError(`--context-file: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `'${name}'`).join(', ')} in '${file}'; the keys are ${contextKeys.join(', ')}`);
  return data;
}
