import pg from 'pg';
import type { PoolConfig } from 'pg';
import { PlumbError } from '../core/index.js';

/** Where a pool connects, for messages: never the password. */
export interface PostgresTarget {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

/** Resolves a pool's settings the way pg will (URL, fields, PG* environment variables, defaults). */
export function targetOf(config: PoolConfig): PostgresTarget {
  // An unconnected Client opens nothing: it only resolves its connection parameters (given only
  // the address fields, so that a custom stream factory of the host's is not called).
  const { connectionString, host, port, database, user } = config;
  const probe = new pg.Client({ connectionString, host, port, database, user });
  return { host: probe.host, port: probe.port, database: probe.database ?? probe.user ?? '', user: probe.user ?? '' };
}

export function describeTarget(target: PostgresTarget): string {
  return `${target.host}:${target.port}/${target.database}`;
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  // Several addresses of one host name fail together as an AggregateError.
  return Array.isArray(errors) ? codeOf(errors[0]) : undefined;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && error.message !== '') return error.message;
  if (error instanceof AggregateError && error.errors[0] instanceof Error) return error.errors[0].message;
  return String(error);
}

function details(target: PostgresTarget): Record<string, unknown> {
  return { host: target.host, port: target.port, database: target.database };
}

/** Whether pg failed to open a connection (rather than to run a statement on one). */
export function isConnectFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && (code.startsWith('28') || code === '3D000' || code === '53300' || /^E[A-Z]+$/.test(code))) return true;
  return /timeout exceeded when trying to connect|connection timeout/i.test(reasonOf(error));
}

/** Why a connection could not be had, as a coded error that says what to check. */
export function connectFailure(error: unknown, target: PostgresTarget, connectionTimeoutMs: number): PlumbError {
  if (error instanceof PlumbError) return error;
  const where = describeTarget(target);
  const code = codeOf(error);
  const reason = reasonOf(error);
  const options = { details: details(target), cause: error };
  if (code?.startsWith('28') === true) {
    return new PlumbError('database_auth_failed', `PostgreSQL at ${where} refused user '${target.user}' (${reason}). Check the user name and password of the connection URL or pool.`, options);
  }
  if (code === '3D000') {
    return new PlumbError('unknown_database', `PostgreSQL at ${target.host}:${target.port} has no database '${target.database}'. Check the database name of the connection URL, or create it (CREATE DATABASE).`, options);
  }
  if (code === '53300' || reason === 'timeout exceeded when trying to connect') {
    return new PlumbError('database_busy', `No connection to PostgreSQL at ${where} became free within ${connectionTimeoutMs} ms (${reason}). Raise the pool's max or the server's max_connections, or shorten long transactions.`, options);
  }
  if (reason.includes('connection timeout')) {
    return new PlumbError('database_unreachable', `PostgreSQL at ${where} did not answer within ${connectionTimeoutMs} ms. Check that the server is running and that the host, port and firewall let this machine reach it.`, options);
  }
  return new PlumbError('database_unreachable', `Cannot reach PostgreSQL at ${where} (${reason}). Check that the server is running and that the host, port and TLS settings are right.`, options);
}

const lostConnection = /Connection terminated|not queryable|ECONNRESET|EPIPE|socket hang up/i;

/** A failed statement: a timeout, a lost connection or a missing schema become coded errors; anything else stays as it is. */
export function statementFailure(error: unknown, target: PostgresTarget, settings: { readonly queryTimeoutMs: number | undefined; readonly schema: string | undefined }): unknown {
  if (error instanceof PlumbError) return error;
  const code = codeOf(error);
  const options = { details: details(target), cause: error };
  if (code === '57014') {
    const limit = settings.queryTimeoutMs === undefined ? 'statement_timeout or a cancel request' : `queryTimeoutMs, ${settings.queryTimeoutMs} ms`;
    return new PlumbError('timeout', `PostgreSQL cancelled the statement (${limit}).`, options);
  }
  if (code === '22P02') {
    // A value the column's type cannot hold, such as a key that is no UUID for a uuid column.
    return new PlumbError('invalid_input', `PostgreSQL refused a value: ${reasonOf(error)}.`, options);
  }
  if (code === '3F000') {
    const schema = settings.schema === undefined ? 'current schema (search_path)' : `schema '${settings.schema}'`;
    return new PlumbError('unknown_database', `The ${schema} does not exist in ${describeTarget(target)}. Create it (CREATE SCHEMA) or fix the schema option.`, options);
  }
  if (code === '57P01' || code === '57P02' || code === '57P03' || code?.startsWith('08') === true || lostConnection.test(reasonOf(error))) {
    return new PlumbError('database_unreachable', `Lost the connection to PostgreSQL at ${describeTarget(target)} (${reasonOf(error)}). The statement may or may not have run; check the server.`, options);
  }
  return error;
}
