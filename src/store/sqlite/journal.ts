import type Database from 'better-sqlite3';
import { journalTables } from '../journal-tables.js';
import { activeCondition } from './schema.js';

/** What every part of the SQLite store works on: the database, its statements, the ids and the clock. */
export interface SqliteJournal {
  readonly db: Database.Database;
  readonly sql: SqliteStatements;
  readonly ids: () => string;
  readonly clock: () => number;
}

export function sqliteJournal(db: Database.Database, prefix: string, ids: () => string, clock: () => number): SqliteJournal {
  return { db, sql: prepare(db, prefix), ids, clock };
}

/** The record of the one row `statement` finds for `key`, if any. */
export function one<R, T>(statement: Database.Statement, key: unknown, to: (row: R) => T): T | undefined {
  const row = statement.get(key) as R | undefined;
  return row === undefined ? undefined : to(row);
}

/** The SQL of each statement the parts run, by name, over the tables under `prefix`. */
export function statementTexts(prefix: string) {
  const { threads, turns, items, confirmations, leases, queue } = journalTables(prefix);
  const leasePatch = 'lease_id = CASE WHEN ? = 1 THEN ? ELSE lease_id END';
  return {
    ping: 'SELECT 1',
    insertThread: `INSERT INTO ${threads} (id, owner, title, summary, summary_through_item_id, router_session, created_at, updated_at) VALUES (?, ?, ?, NULL, NULL, NULL, ?, ?)`,
    getThread: `SELECT * FROM ${threads} WHERE id = ?`,
    ownedThreads: `SELECT * FROM ${threads} WHERE owner = ? ORDER BY updated_at DESC, created_at DESC, id DESC LIMIT ?`,
    updateThread: `UPDATE ${threads} SET title = ?, summary = ?, summary_through_item_id = ?, router_session = ?, updated_at = ? WHERE id = ?`,
    touchThread: `UPDATE ${threads} SET updated_at = ? WHERE id = ?`,
    // A step's change to its thread (`StepThreadPatch`), a statement per column pair: SQLite updates the
    // indexes of every column a SET names, so the title's never touches `threads_owner` (`updated_at`).
    stepSession: `UPDATE ${threads} SET router_session = ?, updated_at = ? WHERE id = ?`,
    stepTitle: `UPDATE ${threads} SET title = ?, title_source = 'generated' WHERE id = ? AND title_source IS NULL`,
    staleThreads: `SELECT id FROM ${threads} AS th WHERE updated_at < ?
          AND NOT EXISTS (SELECT 1 FROM ${turns} WHERE thread_id = th.id AND ${activeCondition})
          ORDER BY updated_at, id LIMIT ?`,
    deleteThread: `DELETE FROM ${threads} WHERE id = ?`,
    deleteItems: `DELETE FROM ${items} WHERE thread_id = ?`,
    // A thread's turns are the turns of its items (every turn has its user item).
    deleteTurns: `DELETE FROM ${turns} WHERE id IN (SELECT turn_id FROM ${items} WHERE thread_id = ?)`,
    deleteConfirmations: `DELETE FROM ${confirmations} WHERE turn_id IN (SELECT turn_id FROM ${items} WHERE thread_id = ?)`,
    insertTurn: `INSERT INTO ${turns} (id, thread_id, owner, request_key, input, status, failure_code, failure_message, input_tokens, output_tokens, lease_id, created_at, updated_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, 0, 0, ?, ?, ?, NULL)`,
    getTurn: `SELECT * FROM ${turns} WHERE id = ?`,
    appendTarget: `SELECT thread_id, status, lease_id, (SELECT MAX(ordinal) FROM ${items} WHERE thread_id = t.thread_id) AS last FROM ${turns} AS t WHERE id = ?`,
    lastOrdinal: `SELECT MAX(ordinal) FROM ${items} WHERE thread_id = ?`,
    patchTurnEnded: `UPDATE ${turns} SET status = ?, ended_at = ?,
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END, ${leasePatch},
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    patchTurnStatus: `UPDATE ${turns} SET status = ?,
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END, ${leasePatch},
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    patchTurn: `UPDATE ${turns} SET
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END, ${leasePatch},
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    turnByRequestKey: `SELECT * FROM ${turns} WHERE owner = ? AND request_key = ?`,
    activeTurn: `SELECT * FROM ${turns} WHERE thread_id = ? AND ${activeCondition} ORDER BY created_at DESC LIMIT 1`,
    threadTurns: `SELECT * FROM ${turns} WHERE id IN (SELECT turn_id FROM ${items} WHERE thread_id = ?) ORDER BY created_at, id`,
    itemIdTaken: `SELECT 1 FROM ${items} WHERE thread_id = ? AND id = ?`,
    turnsWithActiveStatus: `SELECT * FROM ${turns} WHERE status = ? AND ${activeCondition} ORDER BY created_at, id`,
    turnsWithStatus: `SELECT * FROM ${turns} WHERE status = ? ORDER BY created_at, id`,
    insertItem: `INSERT INTO ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    threadItems: `SELECT * FROM ${items} WHERE thread_id = ? AND ordinal > ? ORDER BY ordinal`,
    turnItems: `SELECT * FROM ${items} WHERE thread_id = ? AND ordinal > ? AND turn_id = ? ORDER BY ordinal`,
    insertConfirmation: `INSERT INTO ${confirmations} (id, thread_id, turn_id, owner, actor, call_id, tool, arguments, digest, status, created_at, expires_at, resolved_at, resolution) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, NULL, NULL)`,
    getConfirmation: `SELECT * FROM ${confirmations} WHERE id = ?`,
    pendingConfirmations: `SELECT * FROM ${confirmations} WHERE turn_id = ? AND status = 'pending' ORDER BY created_at, id`,
    claimConfirmation: `UPDATE ${confirmations} SET status = 'claimed' WHERE id = ? AND status = 'pending'`,
    expireConfirmation: `UPDATE ${confirmations} SET status = 'resolved', resolution = ?, resolved_at = ? WHERE id = ? AND status = 'pending'`,
    claimedConfirmations: `SELECT id FROM ${confirmations} WHERE turn_id = ? AND status = 'claimed' ORDER BY created_at, id`,
    lapsedConfirmations: `SELECT id FROM ${confirmations} WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at, id`,
    resolveConfirmation: `UPDATE ${confirmations} SET status = 'resolved', resolution = ?, resolved_at = ? WHERE id = ? AND status <> 'resolved'`,
    insertLease: `INSERT INTO ${leases} (id, holder, acquired_at, heartbeat_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
    getLease: `SELECT * FROM ${leases} WHERE id = ?`,
    renewLease: `UPDATE ${leases} SET heartbeat_at = ?, expires_at = ? WHERE id = ? AND expires_at > ? RETURNING *`,
    deleteLease: `DELETE FROM ${leases} WHERE id = ?`,
    // Active turns come from the small partial index (its condition repeated verbatim).
    orphanedTurns: `SELECT ${turns}.* FROM ${turns} LEFT JOIN ${leases} ON ${leases}.id = ${turns}.lease_id
        WHERE ${activeCondition} AND ${turns}.status IN ('accepted', 'running') AND (${leases}.id IS NULL OR ${leases}.expires_at <= ?)
        ORDER BY ${turns}.created_at, ${turns}.id`,
    insertQueued: `INSERT INTO ${queue} (id, thread_id, owner, actor, request_key, text, language, steer, seq, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, 0, (SELECT COALESCE(MAX(seq), 0) + 1 FROM ${queue} WHERE thread_id = ?), ?, ?)`,
    getQueued: `SELECT * FROM ${queue} WHERE id = ?`,
    queuedByRequestKey: `SELECT * FROM ${queue} WHERE owner = ? AND request_key = ?`,
    queueSize: `SELECT COUNT(*) FROM ${queue} WHERE thread_id = ?`,
    queuePosition: `SELECT COUNT(*) FROM ${queue} AS q, ${queue} AS me WHERE me.id = ? AND q.thread_id = me.thread_id AND (q.seq < me.seq OR (q.seq = me.seq AND q.id <= me.id))`,
    threadQueue: `SELECT * FROM ${queue} WHERE thread_id = ? ORDER BY seq, id`,
    editQueued: `UPDATE ${queue} SET text = ?, updated_at = ? WHERE id = ? AND (? = 1 OR text = ?)`,
    // Sent now: to the head (one before the thread's first), marked to join the running turn.
    steerQueued: `UPDATE ${queue} SET steer = 1, updated_at = ?,
        seq = CASE WHEN seq = (SELECT MIN(seq) FROM ${queue} AS q WHERE q.thread_id = ${queue}.thread_id) THEN seq
          ELSE (SELECT MIN(seq) FROM ${queue} AS q WHERE q.thread_id = ${queue}.thread_id) - 1 END
        WHERE id = ?`,
    deleteQueued: `DELETE FROM ${queue} WHERE id = ?`,
    deleteThreadQueue: `DELETE FROM ${queue} WHERE thread_id = ?`,
    queuedThreads: `SELECT DISTINCT thread_id FROM ${queue} ORDER BY thread_id`,
    deleteResolvedConfirmations: `DELETE FROM ${confirmations} WHERE id IN (SELECT id FROM ${confirmations} WHERE status = 'resolved' AND resolved_at < ? ORDER BY resolved_at, id LIMIT ?)`,
    threadConfirmations: `SELECT * FROM ${confirmations} WHERE turn_id IN (SELECT turn_id FROM ${items} WHERE thread_id = ?) ORDER BY created_at, id`,
    censusTotals: `SELECT (SELECT COUNT(*) FROM ${threads}) AS threads, (SELECT COUNT(*) FROM ${leases} WHERE expires_at > ?) AS live_leases,
        (SELECT COUNT(*) FROM ${turns} LEFT JOIN ${leases} ON ${leases}.id = ${turns}.lease_id
          WHERE ${activeCondition} AND ${turns}.status IN ('accepted', 'running') AND (${leases}.id IS NULL OR ${leases}.expires_at <= ?)) AS stuck_turns,
        (SELECT COUNT(*) FROM ${confirmations} AS c WHERE c.status <> 'resolved'
          AND NOT EXISTS (SELECT 1 FROM ${turns} WHERE id = c.turn_id AND ${activeCondition})) AS orphaned_confirmations`,
    turnCounts: `SELECT status, COUNT(*) AS count FROM ${turns} GROUP BY status`,
    // A resolved one's outcome as `resolutionOutcome` reads it.
    confirmationCounts: `SELECT status, CASE WHEN status <> 'resolved' THEN NULL
          WHEN json_type(resolution) = 'text' THEN json_extract(resolution, '$')
          WHEN json_type(resolution, '$.outcome') = 'text' THEN json_extract(resolution, '$.outcome')
          WHEN json_type(resolution, '$.status') = 'text' THEN json_extract(resolution, '$.status')
          ELSE 'other' END AS outcome, COUNT(*) AS count
        FROM ${confirmations} GROUP BY 1, 2`,
  };
}


/** The statements that return one column's values instead of rows. */
const plucked: ReadonlySet<StatementName> = new Set<StatementName>(['staleThreads', 'lastOrdinal', 'itemIdTaken', 'claimedConfirmations', 'lapsedConfirmations', 'queueSize', 'queuePosition', 'queuedThreads']);

export type StatementName = keyof ReturnType<typeof statementTexts>;
export type SqliteStatements = { readonly [K in StatementName]: Database.Statement };

function prepare(db: Database.Database, prefix: string): SqliteStatements {
  const texts = statementTexts(prefix);
  const statements = {} as Record<StatementName, Database.Statement>;
  for (const name of Object.keys(texts) as StatementName[]) {
    const statement = db.prepare(texts[name]);
    statements[name] = plucked.has(name) ? statement.pluck() : statement;
  }
  return statements;
}
