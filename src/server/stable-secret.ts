import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PlumbError } from '../core/index.js';

/**
 * The secret that signs router confirmation tokens and each thread's tool-check history. It must be
 * the same after a restart and on every process over the same database, or every saved session would
 * read as edited: the configured `sessionSecret`, else a random one kept in `<database>.secret`
 * (created once, owner-only), else (an in-memory database) a random one for this process.
 */
export function stableSecret(options: { readonly configured: string | null; readonly database: string }): string {
  if (options.configured !== null) return options.configured;
  if (options.database === ':memory:') return randomBytes(32).toString('base64url');
  const file = `${options.database}.secret`;
  const existing = readSecret(file);
  if (existing !== undefined) return existing;
  mkdirSync(dirname(file), { recursive: true });
  try {
    // `wx`: when two processes start together, the second finds the first one's file.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new PlumbError('secret_unavailable', `Could not create the secret file '${file}': ${(error as Error).message}. Set sessionSecret in the configuration instead.`, { cause: error });
    }
  }
  const created = readSecret(file);
  if (created === undefined) throw new PlumbError('secret_unavailable', `The secret file '${file}' is empty or shorter than 32 characters. Delete it or set sessionSecret.`);
  return created;
}

function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PlumbError('secret_unavailable', `Could not read the secret file '${file}': ${(error as Error).message}.`, { cause: error });
  }
  if (text.length < 32) throw new PlumbError('secret_unavailable', `The secret file '${file}' is shorter than 32 characters. Delete it (sessions signed with it are then lost) or set sessionSecret.`);
  return text;
}
