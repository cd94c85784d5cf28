import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { PlumbError } from '../core/index.js';

/**
 * Reads `.env` beside the configuration, as dotenv does: each variable it sets that the
 * environment does not already have is added to `process.env` (the environment always wins), so
 * that provider keys such as OPENAI_API_KEY can live there too. Returns the names it added.
 */
export function loadDotEnv(root: string, env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const file = join(root, '.env');
  if (!existsSync(file)) return [];
  let parsed: NodeJS.Dict<string>;
  try {
    parsed = parseEnv(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PlumbError('config_load_failed', `Could not read '${file}': ${(error as Error).message}.`, { cause: error, details: { file } });
  }
  const added: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (value === undefined || env[name] !== undefined) continue;
    env[name] = value;
    added.push(name);
  }
  return added;
}

const reference = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` (and `${NAME:-fallback}`) in every string of a settings object with the
 * environment's value; `$${` stays a literal `${`. A variable that is unset and has no fallback
 * is an error naming the setting and the variable, never an empty string.
 */
export function interpolateEnvironment(value: unknown, env: NodeJS.ProcessEnv = process.env, path = ''): unknown {
  if (typeof value === 'string') return interpolateString(value, env, path);
  if (Array.isArray(value)) return value.map((item, index) => interpolateEnvironment(item, env, `${path}[${index}]`));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, interpolateEnvironment(child, env, path === '' ? key : `${path}.${key}`)]));
  }
  return value;
}

function interpolateString(text: string, env: NodeJS.ProcessEnv, path: string): string {
  const escaped = '\u0000';
  return text
    .replaceAll('$${', escaped)
    .replace(reference, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      throw new PlumbError('config_env_missing', `Setting '${path}' uses \${${name}}, which is not set. Set ${name} in the environment or in .env beside the configuration, or write \${${name}:-fallback}.`, {
        details: { key: path, variable: name },
      });
    })
    .replaceAll(escaped, '${');
}
