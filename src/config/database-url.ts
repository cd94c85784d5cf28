import { isAbsolute, resolve } from 'node:path';
import { PlumbError } from '../core/index.js';

/** Where a `database` or `store` setting points. */
export type DatabaseLocation =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/**
 * Reads a database setting: `:memory:`, `sqlite:PATH` (or `sqlite://PATH`), a bare SQLite path
 * (relative to `root`), or a `postgres://` / `postgresql://` URL. Any other scheme is an error
 * that names it and lists these.
 */
export function parseDatabaseUrl(value: string, root: string, key = 'database'): DatabaseLocation {
  const text = value.trim();
  if (text === ':memory:' || text === 'sqlite::memory:') return { kind: 'memory' };
  if (/^postgres(ql)?:\/\//i.test(text)) return { kind: 'postgres', url: text };
  if (/^sqlite:/i.test(text)) {
    const path = text.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '').replace(/^\/\/(?!\/)/, '');
    if (path === '') throw invalidUrl(key, value);
    return { kind: 'sqlite', path: isAbsolute(path) ? path : resolve(root, path) };
  }
  const other = scheme.exec(text);
  if (other !== null) throw invalidUrl(key, value, other[1]);
  return { kind: 'sqlite', path: isAbsolute(text) ? text : resolve(root, text) };
}

/** The URL with its password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

function invalidUrl(key: string, value: string, found?: string): PlumbError {
  const what = found === undefined ? `'${value}'` : `the scheme '${found}:' of '${redactUrl(value)}'`;
  return new PlumbError('invalid_database_url', `${key}: ${what} is not a database Plumb opens. Use sqlite:PATH (or a plain path to a SQLite file), :memory:, or postgres://USER:PASSWORD@HOST:PORT/DATABASE.`, {
    details: { key },
  });
}
