import Database from 'better-sqlite3';

/**
 * A database file as schema version 1 wrote it (the DDL of that release, verbatim), with one
 * thread of two turns, a waiting turn's pending confirmation, and another owner's thread — the
 * upgrade test opens it with the current store.
 */
const v1Statements = (prefix: string): readonly string[] => {
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
};

export const v1Fixture = {
  threadId: 'th-1',
  otherThreadId: 'th-2',
  completedTurnId: 'tu-1',
  waitingTurnId: 'tu-2',
  confirmationId: 'cf-1',
  /** Items of th-1 in order: ids and kinds. */
  items: [
    ['it-1', 'user_text'],
    ['it-2', 'assistant_text'],
    ['it-3', 'user_text'],
    ['it-4', 'tool_call'],
    ['it-5', 'confirmation_request'],
  ],
} as const;

export function writeV1Database(path: string, prefix = 'plumb_'): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    const t = (name: string): string => `${prefix}${name}`;
    db.transaction(() => {
      for (const statement of v1Statements(prefix)) db.prepare(statement).run();
      db.prepare(`INSERT INTO ${t('meta')} (key, value) VALUES ('schema_version', '1')`).run();
      const thread = db.prepare(`INSERT INTO ${t('threads')} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      thread.run('th-1', 'user:alice', 'Bolts', 'They asked about bolts.', 'it-2', '{"carried":true}', 6, 1000, 4000);
      thread.run('th-2', 'user:bob', null, null, null, null, 1, 500, 500);
      const turn = db.prepare(`INSERT INTO ${t('turns')} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      turn.run('tu-1', 'th-1', 'user:alice', 'rk-1', 'which bolts?', 'completed', null, null, 12, 5, 1000, 2000);
      turn.run('tu-2', 'th-1', 'user:alice', 'rk-2', 'rename the bolt', 'waiting', null, null, 7, 3, 3000, 4000);
      const item = db.prepare(`INSERT INTO ${t('items')} VALUES (?, ?, ?, ?, ?, ?, ?)`);
      item.run('it-1', 'th-1', 'tu-1', 1, 'user_text', '{"text":"which bolts?"}', 1000);
      item.run('it-2', 'th-1', 'tu-1', 2, 'assistant_text', '{"text":"Two bolts."}', 2000);
      item.run('it-3', 'th-1', 'tu-2', 3, 'user_text', '{"text":"rename the bolt"}', 3000);
      item.run('it-4', 'th-1', 'tu-2', 4, 'tool_call', '{"callId":"c1","name":"mutate","arguments":"{}"}', 3500);
      item.run('it-5', 'th-1', 'tu-2', 5, 'confirmation_request', '{"confirmationId":"cf-1","callId":"c1"}', 3500);
      db.prepare(`INSERT INTO ${t('confirmations')} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        'cf-1', 'th-1', 'tu-2', 'user:alice', '{"kind":"user","id":"alice","roles":[]}', 'c1', 'mutate', '{"name":"Bolt"}', 'digest', 'pending', 3500, 33_500, null, null,
      );
    })();
  } finally {
    db.close();
  }
}
