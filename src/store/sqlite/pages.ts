import type Database from 'better-sqlite3';
import { journalTables } from '../journal-tables.js';
import { notFound } from '../records.js';
import { checkItemPage, checkThreadPage, checkTitleSource, cursorOf, foldText, forkRequestKey, forkedTurnStatus, pageCut } from '../pages.js';
import { toItem, toThread, toTurn } from '../rows.js';
import type { ItemRow, ThreadRow, TurnRow } from '../rows.js';
import { activeTurnStatuses } from '../types.js';
import type { ForkThreadInput, ItemPage, ItemPageOptions, ThreadPage, ThreadPageOptions, ThreadRecord, TitleSource } from '../types.js';

/**
 * The SQLite store's pages of threads and items, titles and forks (docs/store.md, "Pages"). Reads
 * run as they are; `setTitle` and `fork` run inside the store's write (one IMMEDIATE transaction).
 * Search lowers case with a function of the store's own (`plumb_fold`, JavaScript's
 * `toLowerCase`), so that it ignores case beyond ASCII as the other stores do.
 */
export class SqlitePages {
  readonly #db: Database.Database;
  readonly #ids: () => string;
  readonly #clock: () => number;
  readonly #sql: ReturnType<typeof prepare>;

  constructor(db: Database.Database, prefix: string, ids: () => string, clock: () => number) {
    this.#db = db;
    this.#ids = ids;
    this.#clock = clock;
    db.function('plumb_fold', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? foldText(value) : null));
    this.#sql = prepare(db, prefix);
  }

  threads(owner: string, options: ThreadPageOptions): ThreadPage {
    checkThreadPage(options);
    const after = options.after;
    const search = options.search === undefined || options.search === '' ? null : foldText(options.search);
    const rows = this.#sql.threadPage.all({
      owner,
      hasAfter: after === undefined ? 0 : 1,
      updatedAt: after?.updatedAt ?? 0,
      createdAt: after?.createdAt ?? 0,
      id: after?.id ?? '',
      search,
      limit: options.limit + 1,
    }) as ThreadRow[];
    const threads = rows.slice(0, options.limit).map(toThread);
    return { threads, next: rows.length > options.limit ? cursorOf(threads[threads.length - 1]!) : null };
  }

  items(threadId: string, options: ItemPageOptions): ItemPage {
    checkItemPage(options);
    const low = options.after ?? 0;
    const high = options.before ?? Number.MAX_SAFE_INTEGER;
    // The sizes first (octet_length reads no item's data), then only the rows the page keeps.
    const forward = options.after !== undefined;
    const sizes = (forward ? this.#sql.sizesForward : this.#sql.sizesBackward).all(threadId, low, high, options.limit + 1) as { ordinal: number; bytes: number }[];
    const kept = pageCut(sizes.map((row) => Number(row.bytes)), options.limit, options.maxBytes);
    if (kept === 0) return { items: [], more: false };
    const ordinals = sizes.slice(0, kept).map((row) => Number(row.ordinal));
    const rows = this.#sql.itemRange.all(threadId, Math.min(...ordinals), Math.max(...ordinals)) as ItemRow[];
    return { items: rows.map(toItem), more: kept < sizes.length };
  }

  lastOrdinal(threadId: string): number {
    return Number((this.#sql.lastOrdinal.get(threadId) as number | null) ?? 0);
  }

  /** Inside the store's write. */
  setTitle(id: string, title: string | null, source: TitleSource | null, onlyIf: readonly (TitleSource | null)[] | undefined): ThreadRecord | undefined {
    checkTitleSource(source);
    const row = this.#sql.getThread.get(id) as ThreadRow | undefined;
    if (row === undefined) return undefined;
    if (onlyIf !== undefined && !onlyIf.includes(toThread(row).titleSource)) return undefined;
    this.#sql.setTitle.run(title, source, id);
    return toThread(this.#sql.getThread.get(id) as ThreadRow);
  }

  /** Inside the store's write: the thread, its copied turns and items, in one transaction. */
  fork(input: ForkThreadInput): ThreadRecord {
    return this.#db
      .transaction((): ThreadRecord => {
        const row = this.#sql.getThread.get(input.threadId) as ThreadRow | undefined;
        if (row === undefined) throw notFound('thread', input.threadId);
        const source = toThread(row);
        const through = input.throughOrdinal;
        if (!Number.isInteger(through) || through < 0 || (through > 0 && this.#sql.itemAt.get(input.threadId, through) === undefined)) throw notFound('item', `${input.threadId} #${String(through)}`);
        const now = this.#clock();
        const forkId = this.#ids();
        const marker = source.summaryThroughItemId;
        const summaryKept = marker !== null && this.#sql.itemUpTo.get(input.threadId, marker, through) !== undefined;
        this.#sql.insertFork.run({
          id: forkId,
          owner: source.owner,
          title: input.title === undefined ? source.title : input.title,
          summary: summaryKept ? source.summary : null,
          marker: summaryKept ? marker : null,
          titleSource: source.titleSource,
          fromThread: source.id,
          fromItem: input.fromItemId,
          now,
        });
        const copies: Record<string, string> = {};
        for (const spans of this.#sql.turnSpans.all(input.threadId, through) as { turn_id: string; last: number }[]) {
          const original = this.#sql.getTurn.get(spans.turn_id) as TurnRow | undefined;
          const turnId = this.#ids();
          copies[spans.turn_id] = turnId;
          if (original === undefined) continue;
          const turn = toTurn(original);
          const kept = forkedTurnStatus(turn, Number(spans.last) <= through);
          const ended = activeTurnStatuses.includes(kept.status) ? null : now;
          this.#sql.insertTurnCopy.run(turnId, forkId, turn.owner, forkRequestKey(forkId, turn.id), turn.input, kept.status, kept.failureCode, kept.failureMessage, turn.createdAt, now, ended);
        }
        this.#sql.copyItems.run(forkId, JSON.stringify(copies), input.threadId, through);
        return toThread(this.#sql.getThread.get(forkId) as ThreadRow);
      })
      .immediate();
  }
}

function prepare(db: Database.Database, prefix: string) {
  const { threads, turns, items } = journalTables(prefix);
  const messages = `kind IN ('user_text', 'assistant_text')`;
  return {
    getThread: db.prepare(`SELECT * FROM ${threads} WHERE id = ?`),
    getTurn: db.prepare(`SELECT * FROM ${turns} WHERE id = ?`),
    // The list's order is (updated_at, created_at, id) descending; a cursor continues after its row.
    threadPage: db.prepare(
      `SELECT * FROM ${threads} AS th WHERE owner = @owner
        AND (@hasAfter = 0 OR (updated_at, created_at, id) < (@updatedAt, @createdAt, @id))
        AND (@search IS NULL OR instr(plumb_fold(title), @search) > 0
          OR EXISTS (SELECT 1 FROM ${items} WHERE thread_id = th.id AND ${messages} AND instr(plumb_fold(json_extract(data, '$.text')), @search) > 0))
        ORDER BY updated_at DESC, created_at DESC, id DESC LIMIT @limit`,
    ),
    sizesForward: db.prepare(`SELECT ordinal, octet_length(data) AS bytes FROM ${items} WHERE thread_id = ? AND ordinal > ? AND ordinal < ? ORDER BY ordinal LIMIT ?`),
    sizesBackward: db.prepare(`SELECT ordinal, octet_length(data) AS bytes FROM ${items} WHERE thread_id = ? AND ordinal > ? AND ordinal < ? ORDER BY ordinal DESC LIMIT ?`),
    itemRange: db.prepare(`SELECT * FROM ${items} WHERE thread_id = ? AND ordinal BETWEEN ? AND ? ORDER BY ordinal`),
    itemAt: db.prepare(`SELECT 1 FROM ${items} WHERE thread_id = ? AND ordinal = ?`).pluck(),
    itemUpTo: db.prepare(`SELECT 1 FROM ${items} WHERE thread_id = ? AND id = ? AND ordinal <= ?`).pluck(),
    lastOrdinal: db.prepare(`SELECT MAX(ordinal) FROM ${items} WHERE thread_id = ?`).pluck(),
    setTitle: db.prepare(`UPDATE ${threads} SET title = ?, title_source = ? WHERE id = ?`),
    insertFork: db.prepare(
      `INSERT INTO ${threads} (id, owner, title, summary, summary_through_item_id, router_session, title_source, forked_from_thread, forked_from_item, created_at, updated_at)
        VALUES (@id, @owner, @title, @summary, @marker, NULL, @titleSource, @fromThread, @fromItem, @now, @now)`,
    ),
    // Each turn with an item up to the cut, and its last ordinal in the thread (past the cut: the copy is cut short).
    turnSpans: db.prepare(`SELECT turn_id, MAX(ordinal) AS last FROM ${items} WHERE thread_id = ? GROUP BY turn_id HAVING MIN(ordinal) <= ? ORDER BY MIN(ordinal)`),
    insertTurnCopy: db.prepare(
      `INSERT INTO ${turns} (id, thread_id, owner, request_key, input, status, failure_code, failure_message, input_tokens, output_tokens, lease_id, created_at, updated_at, ended_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0, NULL, ?, ?, ?)`,
    ),
    copyItems: db.prepare(
      `INSERT INTO ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at)
        SELECT ?, i.ordinal, i.id, m.value, i.kind, i.data, i.created_at FROM ${items} AS i JOIN json_each(?) AS m ON m.key = i.turn_id
        WHERE i.thread_id = ? AND i.ordinal <= ?`,
    ),
  };
}
