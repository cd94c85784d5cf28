import type BetterSqlite3 from 'better-sqlite3';
import type { Actor } from '../core/index.js';
import { actorKey, sqliteDriver } from '../core/index.js';
import { timedOut } from './confirmation-store.js';
import type { ClaimOutcome, ConfirmationResolution, ConfirmationStore, PendingConfirmation } from './confirmation-store.js';

export interface SqliteConfirmationStoreOptions {
  /** A SQLite file (shared by processes) or `:memory:`. Ignored when `database` is given. */
  readonly path?: string;
  /** An open better-sqlite3 handle to share (the app's). It is not closed by `close()`. */
  readonly database?: BetterSqlite3.Database;
  /** Table name. Default `plumb_tool_confirmations`. */
  readonly table?: string;
}

export interface SqliteConfirmationStore extends ConfirmationStore {
  close(): void;
  [Symbol.dispose](): void;
}

type Row = { record: string };

/**
 * Pending confirmations in a SQLite table, so that separate processes (two `plumb tool` runs)
 * share them. Each claim runs in an IMMEDIATE transaction: one process, one winner.
 */
export function createSqliteConfirmationStore(options: SqliteConfirmationStoreOptions): SqliteConfirmationStore {
  const table = options.table ?? 'plumb_tool_confirmations';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new TypeError(`Table name '${table}' must be letters, digits and underscores.`);
  const owned = options.database === undefined;
  const db = options.database ?? new (sqliteDriver())(options.path ?? ':memory:');
  if (owned) db.pragma('busy_timeout = 5000');
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, record TEXT NOT NULL, state TEXT NOT NULL, expires_at_ms INTEGER NOT NULL)`,
  );
  const insert = db.prepare(`INSERT INTO ${table} (id, record, state, expires_at_ms) VALUES (?, ?, ?, ?)`);
  const select = db.prepare<[string], Row>(`SELECT record FROM ${table} WHERE id = ?`);
  const update = db.prepare(`UPDATE ${table} SET record = ?, state = ? WHERE id = ?`);
  const lapsed = db.prepare<[number], Row>(`SELECT record FROM ${table} WHERE state = 'pending' AND expires_at_ms <= ?`);
  let closed = false;

  const read = (id: string): PendingConfirmation | undefined => {
    const row = select.get(id);
    return row === undefined ? undefined : (JSON.parse(row.record) as PendingConfirmation);
  };
  const write = (record: PendingConfirmation): void => {
    update.run(JSON.stringify(record), record.state, record.id);
  };
  const settle = (record: PendingConfirmation, resolution: ConfirmationResolution, now: Date): PendingConfirmation => {
    const resolved: PendingConfirmation = { ...record, state: 'resolved', resolution, resolvedAt: now.toISOString() };
    write(resolved);
    return resolved;
  };
  const sameParty = (a: Actor, b: Actor): boolean => {
    const key = actorKey(a);
    return key !== undefined && key === actorKey(b);
  };

  const claimTx = db.transaction((id: string, actor: Actor, now: Date): ClaimOutcome => {
    const record = read(id);
    if (record === undefined || !sameParty(record.actor, actor)) return { ok: false, reason: 'unknown' };
    if (record.state !== 'pending') return { ok: false, reason: 'used' };
    if (Date.parse(record.expiresAt) <= now.getTime()) {
      settle(record, timedOut, now);
      return { ok: false, reason: 'expired' };
    }
    const claimed: PendingConfirmation = { ...record, state: 'claimed' };
    write(claimed);
    return { ok: true, record: claimed };
  });
  const resolveTx = db.transaction((id: string, resolution: ConfirmationResolution, now: Date) => {
    const record = read(id);
    if (record !== undefined && record.state !== 'resolved') settle(record, resolution, now);
  });
  const expireTx = db.transaction((now: Date) => lapsed.all(now.getTime()).map((row) => settle(JSON.parse(row.record) as PendingConfirmation, timedOut, now)));

  const run = <T>(work: () => T): Promise<T> => {
    try {
      if (closed) throw new Error('The confirmation store is closed.');
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const close = (): void => {
    if (closed) return;
    closed = true;
    if (owned) db.close();
  };
  return {
    create: (record) => run(() => void insert.run(record.id, JSON.stringify(record), record.state, Date.parse(record.expiresAt))),
    get: (id) => run(() => read(id)),
    claim: (id, actor, now) => run(() => claimTx.immediate(id, actor, now)),
    resolve: (id, resolution, now) => run(() => resolveTx.immediate(id, resolution, now)),
    expire: (now) => run(() => expireTx.immediate(now)),
    close,
    [Symbol.dispose]: close,
  };
}
