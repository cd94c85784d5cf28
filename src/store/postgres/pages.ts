import { journalTables } from '../journal-tables.js';
import { notFound } from '../records.js';
import { checkItemPage, checkThreadPage, checkTitleSource, cursorOf, forkRequestKey, forkedTurnStatus, pageCut } from '../pages.js';
import { toItem, toThread, toTurn } from '../rows.js';
import type { ItemRow, ThreadRow, TurnRow } from '../rows.js';
import type { JournalSql } from './sql.js';
import { activeTurnStatuses } from '../types.js';
import type { ForkThreadInput, ItemPage, ItemPageOptions, ThreadPage, ThreadPageOptions, ThreadRecord, TitleSource } from '../types.js';

/**
 * The PostgreSQL store's pages of threads and items, titles and forks (docs/store.md, "Pages").
 * A search lowers case with `lower()` (the database's character type decides beyond ASCII); a
 * fork is one transaction of four statements, whatever the thread's length.
 */
export class PostgresPages {
  readonly #sql: JournalSql;
  readonly #ids: () => string;
  readonly #clock: () => number;
  readonly #t: ReturnType<typeof statements>;

  constructor(sql: JournalSql, prefix: string, ids: () => string, clock: () => number) {
    this.#sql = sql;
    this.#ids = ids;
    this.#clock = clock;
    this.#t = statements(prefix);
  }

  async threads(owner: string, options: ThreadPageOptions): Promise<ThreadPage> {
    checkThreadPage(options);
    const after = options.after;
    const search = options.search === undefined || options.search === '' ? null : options.search;
    const { rows } = await this.#sql.query(this.#t.threadPage, [owner, after !== undefined, after?.updatedAt ?? 0, after?.createdAt ?? 0, after?.id ?? '', search, options.limit + 1]);
    const threads = rows.slice(0, options.limit).map((row) => toThread(row as unknown as ThreadRow));
    return { threads, next: rows.length > options.limit ? cursorOf(threads[threads.length - 1]!) : null };
  }

  async items(threadId: string, options: ItemPageOptions): Promise<ItemPage> {
    checkItemPage(options);
    const forward = options.after !== undefined;
    const range = [threadId, options.after ?? 0, options.before ?? Number.MAX_SAFE_INTEGER, options.limit + 1];
    // The sizes first (octet_length reads no item's data), then only the rows the page keeps.
    const sizes = (await this.#sql.query(forward ? this.#t.sizesForward : this.#t.sizesBackward, range)).rows;
    const kept = pageCut(sizes.map((row) => Number(row.bytes)), options.limit, options.maxBytes);
    if (kept === 0) return { items: [], more: false };
    const ordinals = sizes.slice(0, kept).map((row) => Number(row.ordinal));
    const { rows } = await this.#sql.query(this.#t.itemRange, [threadId, Math.min(...ordinals), Math.max(...ordinals)]);
    return { items: rows.map((row) => toItem(row as unknown as ItemRow)), more: kept < sizes.length };
  }

  async lastOrdinal(threadId: string): Promise<number> {
    const { rows } = await this.#sql.query(this.#t.lastOrdinal, [threadId]);
    return Number(rows[0]?.next_ordinal ?? 0);
  }

  async setTitle(id: string, title: string | null, source: TitleSource | null, onlyIf: readonly (TitleSource | null)[] | undefined): Promise<ThreadRecord | undefined> {
    checkTitleSource(source);
    // The source's condition is part of the UPDATE: a person's rename between a read and the write cannot be overwritten.
    const allowed = onlyIf === undefined ? null : onlyIf.filter((value) => value !== null);
    const { rows } = await this.#sql.query(this.#t.setTitle, [id, title, source, onlyIf !== undefined, allowed ?? [], onlyIf?.includes(null) === true]);
    return rows[0] === undefined ? undefined : toThread(rows[0] as unknown as ThreadRow);
  }

  async fork(input: ForkThreadInput): Promise<ThreadRecord> {
    return this.#sql.transaction(async (query) => {
      const found = (await query(this.#t.getThread, [input.threadId])).rows[0];
      if (found === undefined) throw notFound('thread', input.threadId);
      const source = toThread(found as unknown as ThreadRow);
      const through = input.throughOrdinal;
      if (!Number.isInteger(through) || through < 0 || (through > 0 && (await query(this.#t.itemAt, [input.threadId, through])).rows.length === 0)) throw notFound('item', `${input.threadId} #${String(through)}`);
      const now = this.#clock();
      const forkId = this.#ids();
      const marker = source.summaryThroughItemId;
      const summaryKept = marker !== null && (await query(this.#t.itemUpTo, [input.threadId, marker, through])).rows.length > 0;
      const spans = (await query(this.#t.turnSpans, [input.threadId, through])).rows;
      const copies = spans.map((span) => ({ original: toTurn(span as unknown as TurnRow), last: Number(span.last_ordinal), id: this.#ids() }));
      const kept = copies.map((copy) => forkedTurnStatus(copy.original, copy.last <= through));
      await query(this.#t.insertFork, [
        forkId,
        source.owner,
        input.title === undefined ? source.title : input.title,
        summaryKept ? source.summary : null,
        summaryKept ? marker : null,
        source.titleSource,
        source.id,
        input.fromItemId,
        through,
        now,
      ]);
      await query(this.#t.insertTurnCopies, [
        forkId,
        source.owner,
        now,
        copies.map((copy) => copy.id),
        copies.map((copy) => forkRequestKey(forkId, copy.original.id)),
        copies.map((copy) => copy.original.input),
        kept.map((turn) => turn.status),
        kept.map((turn) => turn.failureCode),
        kept.map((turn) => turn.failureMessage),
        copies.map((copy) => copy.original.createdAt),
        kept.map((turn) => (activeTurnStatuses.includes(turn.status) ? null : now)),
      ]);
      await query(this.#t.copyItems, [forkId, copies.map((copy) => copy.original.id), copies.map((copy) => copy.id), input.threadId, through]);
      return toThread((await query(this.#t.getThread, [forkId])).rows[0] as unknown as ThreadRow);
    });
  }
}

function statements(prefix: string) {
  const { threads, turns, items } = journalTables(prefix);
  return {
    getThread: `select * from ${threads} where id = $1`,
    // $1 owner, $2 has a cursor, $3–$5 the cursor, $6 search or null, $7 limit. The list's order is (updated_at, created_at, id) descending.
    threadPage: `select * from ${threads} as th where owner = $1
      and (not $2::boolean or (updated_at, created_at, id) < ($3::bigint, $4::bigint, $5::text))
      and ($6::text is null or position(lower($6::text) in lower(coalesce(title, ''))) > 0
        or exists (select 1 from ${items} where thread_id = th.id and kind in ('user_text', 'assistant_text')
          and position(lower($6::text) in lower(coalesce(data::json ->> 'text', ''))) > 0))
      order by updated_at desc, created_at desc, id desc limit $7`,
    sizesForward: `select ordinal, octet_length(data) as bytes from ${items} where thread_id = $1 and ordinal > $2 and ordinal < $3 order by ordinal limit $4`,
    sizesBackward: `select ordinal, octet_length(data) as bytes from ${items} where thread_id = $1 and ordinal > $2 and ordinal < $3 order by ordinal desc limit $4`,
    itemRange: `select * from ${items} where thread_id = $1 and ordinal between $2 and $3 order by ordinal`,
    itemAt: `select 1 from ${items} where thread_id = $1 and ordinal = $2`,
    itemUpTo: `select 1 from ${items} where thread_id = $1 and id = $2 and ordinal <= $3`,
    lastOrdinal: `select next_ordinal from ${threads} where id = $1`,
    // $1 id, $2 title, $3 source, $4 conditional, $5 the sources allowed, $6 whether null (the created title) is.
    setTitle: `update ${threads} set title = $2, title_source = $3
      where id = $1 and (not $4::boolean or title_source = any($5::text[]) or ($6::boolean and title_source is null)) returning *`,
    insertFork: `insert into ${threads} (id, owner, title, summary, summary_through_item_id, router_session, title_source, forked_from_thread, forked_from_item, next_ordinal, created_at, updated_at)
      values ($1, $2, $3, $4, $5, null, $6, $7, $8, $9, $10, $10)`,
    // Each turn with an item up to the cut, with its last ordinal in the thread (past the cut: the copy is cut short).
    turnSpans: `select t.*, s.last_ordinal from (select turn_id, min(ordinal) as first_ordinal, max(ordinal) as last_ordinal from ${items}
        where thread_id = $1 group by turn_id having min(ordinal) <= $2) as s join ${turns} as t on t.id = s.turn_id order by s.first_ordinal`,
    insertTurnCopies: `insert into ${turns} (id, thread_id, owner, request_key, input, status, failure_code, failure_message, input_tokens, output_tokens, lease_id, created_at, updated_at, ended_at)
      select c.id, $1, $2, c.request_key, c.input, c.status, c.failure_code, c.failure_message, 0, 0, null, c.created_at, $3, c.ended_at
      from unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[], $11::bigint[])
        as c(id, request_key, input, status, failure_code, failure_message, created_at, ended_at)`,
    copyItems: `insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at)
      select $1, i.ordinal, i.id, m.copy, i.kind, i.data, i.created_at from ${items} as i
      join unnest($2::text[], $3::text[]) as m(original, copy) on m.original = i.turn_id
      where i.thread_id = $4 and i.ordinal <= $5`,
  };
}
