import type { Pool } from 'pg';
import { z } from 'zod';
import { PlumbError } from '../core/index.js';

interface CommonOptions {
  /** Most connections of the pool Plumb creates (connections). Default 10. Not with `pool`: size your own. */
  readonly max?: number;
  /** PostgreSQL's statement_timeout for every statement Plumb runs (ms). Default: the server's. */
  readonly queryTimeoutMs?: number;
  /** The schema Plumb's tables live in (its search_path). Default: the server's current schema, usually `public`. */
  readonly schema?: string;
  /** Longest wait to open a connection, or for a free one when the pool is full (ms). Default 5000. */
  readonly connectionTimeoutMs?: number;
}

export type PostgresOptions = CommonOptions & ({ readonly url: string; readonly pool?: undefined } | { readonly pool: Pool; readonly url?: undefined });

function isPostgresUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'postgres:' || protocol === 'postgresql:';
  } catch {
    return false;
  }
}

function isPool(value: unknown): value is Pool {
  // Structural, not instanceof: the host's pool may come from its own copy of pg.
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { connect?: unknown; end?: unknown; options?: unknown };
  return typeof candidate.connect === 'function' && typeof candidate.end === 'function' && typeof candidate.options === 'object';
}

/** Every default of `postgres()` in one place. */
const optionsSchema = z.strictObject({
  // The message never repeats the URL: it may hold a password.
  url: z.string().refine(isPostgresUrl, 'expected a postgres:// or postgresql:// URL').optional(),
  pool: z.custom<Pool>(isPool, 'expected a pg Pool').optional(),
  max: z.number().int().min(1).max(1000).optional(),
  queryTimeoutMs: z.number().int().min(1).max(2_147_483_647).optional(),
  // 63 bytes is PostgreSQL's identifier limit; longer names would be cut silently.
  schema: z.string().min(1).refine((name) => Buffer.byteLength(name) <= 63, 'at most 63 bytes').optional(),
  connectionTimeoutMs: z.number().int().min(1).max(600_000).default(5000),
});

export const defaultMaxConnections = 10;

export type ResolvedPostgresOptions = z.output<typeof optionsSchema>;

function invalid(problems: readonly string[]): PlumbError {
  return new PlumbError('invalid_settings', `Invalid postgres() options: ${problems.join('; ')}.`, { details: { problems } });
}

export function parsePostgresOptions(input: PostgresOptions): ResolvedPostgresOptions {
  const parsed = optionsSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  const options = parsed.data;
  if ((options.url === undefined) === (options.pool === undefined)) throw invalid(['give exactly one of url and pool']);
  if (options.pool !== undefined && options.max !== undefined) throw invalid(["max: sizes only the pool Plumb creates from url; set your pool's own max"]);
  return Object.freeze(options);
}
