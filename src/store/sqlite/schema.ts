import { activeTurnStatuses } from '../types.js';

/**
 * The tables of the SQLite store, schema version 2, and the in-place upgrade from version 1.
 *
 * Version 2 is shaped by what one turn writes (docs/store.md, "Schema"): each B-tree a commit
 * touches is at least one 4 KiB WAL frame, so every table and index must earn its place.
 * - `threads`, `turns` and `items` are keyed by their natural keys (`WITHOUT ROWID`), so no table
 *   carries a second rowid B-tree beside its key.
 * - `items` is keyed `(thread_id, ordinal)`: the thread's next ordinal is the key's maximum plus
 *   one, read in the same transaction, so no counter row is updated on each append. An item id
 *   is unique within its thread (generated ids are unique outright), checked by a read of the
 *   thread's items only when the caller chooses the id, so no index on item ids is kept.
 * - Every turn has its user item, so a thread's turns are found through its items: `turns`
 *   carries no index on `thread_id`.
 * - `turns_active` is a partial index on `ended_at IS NULL`: it holds only the turns that hold
 *   their thread (`accepted`, `running`, `waiting`) and answers "is this thread busy" and restart
 *   recovery. Its condition is on `ended_at` (set when a turn ends), not on `status`, so that
 *   moving between active statuses (accepted → running → waiting → running) rewrites no index;
 *   a turn enters the index once and leaves it when it ends. Usage and failure updates never
 *   touch an index either.
 * - `confirmations_pending` (partial) serves the expiry sweep; deleting a thread finds its
 *   confirmations through `confirmations_turn`.
 * The DDL is plain SQL except `WITHOUT ROWID`, which a PostgreSQL dialect drops (its tables are
 * heaps with separate indexes anyway).
 */
export const schemaVersion = 2;

/** The literal condition of the `turns_active` partial index; a query must repeat it verbatim to use the index. */
export const activeCondition = 'ended_at IS NULL';
const activeList = activeTurnStatuses.map((status) => `'${status}'`).join(', ');

export function schemaStatements(prefix: string): readonly string[] {
  const t = (name: string): string => `${prefix}${name}`;
  return [
    `CREATE TABLE ${t('threads')} (
      id TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      title TEXT,
      summary TEXT,
      summary_through_item_id TEXT,
      router_session TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    ) WITHOUT ROWID`,
    `CREATE INDEX ${t('threads_owner')} ON ${t('threads')} (owner, updated_at, created_at)`,
    `CREATE TABLE ${t('turns')} (
      id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL,
      owner TEXT NOT NULL,
      request_key TEXT NOT NULL,
      input TEXT NOT NULL,
      status TEXT NOT NULL,
      failure_code TEXT,
      failure_message TEXT,
      input_tokens BIGINT NOT NULL,
      output_tokens BIGINT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      ended_at BIGINT
    ) WITHOUT ROWID`,
    `CREATE UNIQUE INDEX ${t('turns_request')} ON ${t('turns')} (owner, request_key)`,
    `CREATE INDEX ${t('turns_active')} ON ${t('turns')} (thread_id) WHERE ${activeCondition}`,
    `CREATE TABLE ${t('items')} (
      thread_id TEXT NOT NULL,
      ordinal INTEGER NOT NULL,
      id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (thread_id, ordinal)
    ) WITHOUT ROWID`,
    `CREATE TABLE ${t('confirmations')} (
      id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      owner TEXT NOT NULL,
      actor TEXT NOT NULL,
      call_id TEXT NOT NULL,
      tool TEXT NOT NULL,
      arguments TEXT NOT NULL,
      digest TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      resolved_at BIGINT,
      resolution TEXT
    ) WITHOUT ROWID`,
    `CREATE INDEX ${t('confirmations_turn')} ON ${t('confirmations')} (turn_id, status)`,
    `CREATE INDEX ${t('confirmations_pending')} ON ${t('confirmations')} (expires_at) WHERE status = 'pending'`,
  ];
}

/**
 * Version 1 → 2, inside the caller's transaction: each v1 table is renamed aside, its v2 table
 * created and filled with the same rows (the threads' `next_ordinal` counter is dropped: the
 * items' key replaces it), and the old table dropped with its indexes.
 */
export function upgradeFromV1Statements(prefix: string): readonly string[] {
  const t = (name: string): string => `${prefix}${name}`;
  const tables = ['threads', 'turns', 'items', 'confirmations'];
  const v1Indexes = ['threads_owner', 'turns_thread', 'turns_status', 'confirmations_turn'];
  return [
    ...v1Indexes.map((name) => `DROP INDEX IF EXISTS ${t(name)}`),
    ...tables.map((name) => `ALTER TABLE ${t(name)} RENAME TO ${t(`${name}_v1`)}`),
    ...schemaStatements(prefix),
    `INSERT INTO ${t('threads')} (id, owner, title, summary, summary_through_item_id, router_session, created_at, updated_at)
      SELECT id, owner, title, summary, summary_through_item_id, router_session, created_at, updated_at FROM ${t('threads_v1')}`,
    `INSERT INTO ${t('turns')} (id, thread_id, owner, request_key, input, status, failure_code, failure_message, input_tokens, output_tokens, created_at, updated_at, ended_at)
      SELECT id, thread_id, owner, request_key, input, status, failure_code, failure_message, input_tokens, output_tokens, created_at, updated_at,
        CASE WHEN status IN (${activeList}) THEN NULL ELSE updated_at END FROM ${t('turns_v1')}`,
    `INSERT INTO ${t('items')} (thread_id, ordinal, id, turn_id, kind, data, created_at)
      SELECT thread_id, ordinal, id, turn_id, kind, data, created_at FROM ${t('items_v1')}`,
    `INSERT INTO ${t('confirmations')} (id, thread_id, turn_id, owner, actor, call_id, tool, arguments, digest, status, created_at, expires_at, resolved_at, resolution)
      SELECT id, thread_id, turn_id, owner, actor, call_id, tool, arguments, digest, status, created_at, expires_at, resolved_at, resolution FROM ${t('confirmations_v1')}`,
    ...tables.map((name) => `DROP TABLE ${t(`${name}_v1`)}`),
  ];
}

/**
 * Migration `0002_leases`: each engine's lease, and the lease a turn runs under (docs/store.md,
 * "Leases"). The column is read with the turn's row, which every append reads anyway, so it costs
 * no page of its own; the lease table is touched by a heartbeat every few seconds, not per turn.
 */
export function leaseStatements(prefix: string): readonly string[] {
  const t = (name: string): string => `${prefix}${name}`;
  return [
    `ALTER TABLE ${t('turns')} ADD COLUMN lease_id TEXT`,
    `CREATE TABLE ${t('leases')} (
      id TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      acquired_at BIGINT NOT NULL,
      heartbeat_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    ) WITHOUT ROWID`,
  ];
}

/**
 * Migration `0003_queue`: the messages sent while their thread was busy (docs/store.md, "Queue").
 * Read by thread and position (`queue_thread`), found again by owner and request key (a resend);
 * written only by messages that had to wait, so an idle thread's turn never touches it.
 */
export function queueStatements(prefix: string): readonly string[] {
  const t = (name: string): string => `${prefix}${name}`;
  return [
    `CREATE TABLE ${t('queue')} (
      id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL,
      owner TEXT NOT NULL,
      actor TEXT NOT NULL,
      request_key TEXT NOT NULL,
      text TEXT NOT NULL,
      language TEXT,
      steer INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    ) WITHOUT ROWID`,
    `CREATE INDEX ${t('queue_thread')} ON ${t('queue')} (thread_id, seq)`,
    `CREATE UNIQUE INDEX ${t('queue_request')} ON ${t('queue')} (owner, request_key)`,
  ];
}

/**
 * Migration `0004_thread_pages`: where a thread's title came from (a person's rename, or the
 * engine's generated title; null for the one it was created with) and a fork's origin. Columns of
 * the thread's row, read with it; no index (a page of threads uses `threads_owner`).
 */
export function threadPageStatements(prefix: string): readonly string[] {
  const t = (name: string): string => `${prefix}${name}`;
  return [
    `ALTER TABLE ${t('threads')} ADD COLUMN title_source TEXT`,
    `ALTER TABLE ${t('threads')} ADD COLUMN forked_from_thread TEXT`,
    `ALTER TABLE ${t('threads')} ADD COLUMN forked_from_item TEXT`,
  ];
}
