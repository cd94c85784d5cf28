/**
 * The tables of the SQLite store. The SQL stays portable (TEXT, INTEGER, plain indexes, no
 * SQLite-only syntax beyond `IF NOT EXISTS`) so that the PostgreSQL store can share it.
 */
export const schemaVersion = 1;

export function schemaStatements(prefix: string): readonly string[] {
  const t = (name: string): string => `${prefix}${name}`;
  return [
    `CREATE TABLE IF NOT EXISTS ${t('meta')} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t('threads')} (
      id TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      title TEXT,
      summary TEXT,
      summary_through_item_id TEXT,
      router_session TEXT,
      next_ordinal INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS ${t('threads_owner')} ON ${t('threads')} (owner, updated_at)`,
    `CREATE TABLE IF NOT EXISTS ${t('turns')} (
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
      UNIQUE (owner, request_key)
    )`,
    `CREATE INDEX IF NOT EXISTS ${t('turns_thread')} ON ${t('turns')} (thread_id, created_at)`,
    `CREATE INDEX IF NOT EXISTS ${t('turns_status')} ON ${t('turns')} (status)`,
    `CREATE TABLE IF NOT EXISTS ${t('items')} (
      id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      ordinal INTEGER NOT NULL,
      kind TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      UNIQUE (thread_id, ordinal)
    )`,
    `CREATE TABLE IF NOT EXISTS ${t('confirmations')} (
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
    )`,
    `CREATE INDEX IF NOT EXISTS ${t('confirmations_turn')} ON ${t('confirmations')} (turn_id, status)`,
  ];
}
