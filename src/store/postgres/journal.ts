import { journalTables } from '../journal-tables.js';
import { activeTurnStatuses } from '../types.js';
import type { JournalSql, SqlQuery } from './sql.js';

/**
 * What every part of the PostgreSQL store works on: the database, its statements, the ids and the
 * clock. `query` runs one statement on an open store; `sql.query` and `sql.transaction` run
 * without that check, inside a method that made it.
 */
export interface PostgresJournal {
  readonly sql: JournalSql;
  readonly query: SqlQuery;
  readonly t: PostgresStatements;
  readonly ids: () => string;
  readonly clock: () => number;
}

export type PostgresStatements = ReturnType<typeof statements>;

/** `open` throws once the store is closed. */
export function postgresJournal(sql: JournalSql, prefix: string, ids: () => string, clock: () => number, open: () => void): PostgresJournal {
  const query: SqlQuery = async (text, values = []) => {
    open();
    return sql.query(text, values);
  };
  return { sql, query, t: statements(prefix), ids, clock };
}

/** The record of a statement's first row, if it returned one. */
export function firstRow<R, T>(rows: readonly Record<string, unknown>[], to: (row: R) => T): T | undefined {
  return rows[0] === undefined ? undefined : to(rows[0] as unknown as R);
}

/** The records of a statement's rows. */
export function allRows<R, T>(rows: readonly Record<string, unknown>[], to: (row: R) => T): T[] {
  return rows.map((row) => to(row as unknown as R));
}

const activeList = activeTurnStatuses.map((status) => `'${status}'`).join(', ');

/** The store's statements over its tables; `$1` is the turn id wherever a patch applies. */
function statements(prefix: string) {
  const { threads, turns, items, confirmations, leases, queue } = journalTables(prefix);
  /** The SET list of a turn patch whose nine values start at `$n`, with the statement's clock at `$now`. */
  const patch = (n: number, now: number): string => `status = coalesce($${n}::text, status),
      ended_at = case when $${n}::text is null then ended_at when $${n}::text in (${activeList}) then null when ended_at is null then $${now}::bigint else ended_at end,
      failure_code = case when $${n + 1}::boolean then $${n + 2}::text else failure_code end,
      failure_message = case when $${n + 3}::boolean then $${n + 4}::text else failure_message end,
      input_tokens = input_tokens + $${n + 5}::bigint, output_tokens = output_tokens + $${n + 6}::bigint,
      lease_id = case when $${n + 7}::boolean then $${n + 8}::text else lease_id end,
      updated_at = $${now}::bigint`;
  // $1 turn, $2 item count, $3 now, $4–$6 ids, kinds, data; `$s`, `$s + 1` the step's router session and
  // generated title, or null (`StepThreadPatch`: the same row's update, so no statement more). The thread's row lock orders appends.
  // Fenced (`$fence` the lease): the thread's row locked first (the order recovery takes), then the turn's `for update`, which
  // reads it as its last committer left it; the append only while it is active under that lease. One statement, no transaction.
  const appendWith = (patchCte: string, s: number, fence?: number): string => `with ${
    fence === undefined
      ? `t as (select thread_id from ${turns} where id = $1)`
      : `lk as materialized (select id from ${threads} where id = (select thread_id from ${turns} where id = $1) for update),
    f as materialized (select tu.thread_id, tu.status, tu.lease_id from ${turns} as tu, lk where tu.id = $1 and tu.thread_id = lk.id for update of tu),
    t as (select thread_id from f where status in (${activeList}) and lease_id = $${fence}::text)`
  },
    o as (update ${threads} set next_ordinal = next_ordinal + $2::bigint,
        router_session = coalesce($${s}::text, router_session),
        updated_at = case when $${s}::text is null then ${threads}.updated_at else $3::bigint end,
        title = case when $${s + 1}::text is not null and title_source is null then $${s + 1}::text else title end,
        title_source = case when $${s + 1}::text is not null and title_source is null then 'generated' else title_source end
      from t where ${threads}.id = t.thread_id
      returning ${threads}.id as thread_id, ${threads}.next_ordinal - $2::bigint as first),
    ins as (insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at)
      select o.thread_id, o.first + x.n, x.id, $1, x.kind, x.data, $3::bigint
      from o, unnest($4::text[], $5::text[], $6::text[]) with ordinality as x(id, kind, data, n))${patchCte}
    ${fence === undefined ? 'select thread_id, first from o' : 'select f.status, f.lease_id, o.thread_id, o.first from f left join o on true'}`;
  const patchCte = `,
    p as (update ${turns} set ${patch(7, 3)} where id = $1 and exists (select 1 from o))`;
  const deleteThreads = (ids: string): string => `ids as (${ids}),
    c as (delete from ${confirmations} where turn_id in (select turn_id from ${items} where thread_id in (select id from ids))),
    q as (delete from ${queue} where thread_id in (select id from ids)),
    tu as (delete from ${turns} where id in (select turn_id from ${items} where thread_id in (select id from ids))),
    i as (delete from ${items} where thread_id in (select id from ids))
    delete from ${threads} where id in (select id from ids) returning id, updated_at`;
  return {
    insertThread: `insert into ${threads} (id, owner, title, created_at, updated_at) values ($1, $2, $3, $4, $4) returning *`,
    getThread: `select * from ${threads} where id = $1`,
    ownedThreads: `select * from ${threads} where owner = $1 order by updated_at desc, created_at desc, id desc limit $2`,
    updateThread: `update ${threads} set
      title = case when $2 then $3 else title end,
      summary = case when $4 then $5 else summary end,
      summary_through_item_id = case when $6 then $7 else summary_through_item_id end,
      router_session = case when $8 then $9 else router_session end,
      updated_at = $10 where id = $1 returning *`,
    lockThread: `select 1 from ${threads} where id = $1 for update`,
    lockOwner: `select pg_advisory_xact_lock(hashtextextended('plumb.journal.owner:' || $1, 0))`,
    deleteThread: `with ${deleteThreads('select unnest($1::text[]) as id')}`,
    // Skips threads another transaction holds (a turn beginning there touches the row, and the
    // recheck of `updated_at` after the lock drops a thread that just became recent).
    deleteStaleThreads: `with ${deleteThreads(`select id from ${threads} as th where updated_at < $1
        and not exists (select 1 from ${turns} where thread_id = th.id and ended_at is null)
        order by updated_at, id limit $2 for update skip locked`)}`,
    // $1 thread, $2 owner or null, $3 turn, $4 request key, $5 input, $6 lease, $7 now, $8 item id, $9 item data.
    beginInThread: `with th as (select id, owner from ${threads} where id = $1 and ($2::text is null or owner = $2)),
      ins as (insert into ${turns} (id, thread_id, owner, request_key, input, status, input_tokens, output_tokens, lease_id, created_at, updated_at)
        select $3, th.id, th.owner, $4, $5, 'accepted', 0, 0, $6, $7, $7 from th on conflict do nothing returning thread_id),
      upd as (update ${threads} set updated_at = $7, next_ordinal = next_ordinal + 1 from ins where ${threads}.id = ins.thread_id returning ${threads}.*),
      item as (insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at) select upd.id, upd.next_ordinal, $8, $3, 'user_text', $9, $7 from upd)
      select * from upd`,
    // $1 owner, $2 turn, $3 request key, $4 input, $5 lease, $6 now, $7 item id, $8 item data.
    beginForOwner: `with th as (select id, owner from ${threads} where owner = $1 order by updated_at desc, created_at desc, id desc limit 1),
      ins as (insert into ${turns} (id, thread_id, owner, request_key, input, status, input_tokens, output_tokens, lease_id, created_at, updated_at)
        select $2, th.id, th.owner, $3, $4, 'accepted', 0, 0, $5, $6, $6 from th on conflict do nothing returning thread_id),
      upd as (update ${threads} set updated_at = $6, next_ordinal = next_ordinal + 1 from ins where ${threads}.id = ins.thread_id returning ${threads}.*),
      item as (insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at) select upd.id, upd.next_ordinal, $7, $2, 'user_text', $8, $6 from upd)
      select * from upd`,
    // $1 thread, $2 owner, $3 title, $4 now, $5 turn, $6 request key, $7 input, $8 lease, $9 item id, $10 item data.
    beginInNewThread: `with th as (insert into ${threads} (id, owner, title, next_ordinal, created_at, updated_at) values ($1, $2, $3, 1, $4, $4) returning id),
      ins as (insert into ${turns} (id, thread_id, owner, request_key, input, status, input_tokens, output_tokens, lease_id, created_at, updated_at)
        select $5, th.id, $2, $6, $7, 'accepted', 0, 0, $8, $4, $4 from th)
      insert into ${items} (thread_id, ordinal, id, turn_id, kind, data, created_at) select th.id, 1, $9, $5, 'user_text', $10, $4 from th`,
    blockingTurns: `select * from ${turns} where (owner = $1 and request_key = $2) or (thread_id = $3 and ended_at is null) or id = $4`,
    getTurn: `select * from ${turns} where id = $1`,
    lockTurn: `select * from ${turns} where id = $1 for update`,
    lockTurnThread: `select 1 from ${threads} where id = (select thread_id from ${turns} where id = $1) for update`,
    threadTurns: `select * from ${turns} where id in (select turn_id from ${items} where thread_id = $1) order by created_at, id`,
    turnsWithActiveStatus: `select * from ${turns} where status = $1 and ended_at is null order by created_at, id`,
    turnsWithStatus: `select * from ${turns} where status = $1 order by created_at, id`,
    updateTurn: `update ${turns} set ${patch(2, 11)} where id = $1 and ($12::text[] is null or status = any($12::text[])) returning *`,
    append: appendWith('', 7),
    appendAndPatch: appendWith(patchCte, 16),
    fencedAppend: appendWith('', 7, 9),
    fencedAppendAndPatch: appendWith(patchCte, 16, 18),
    threadItems: `select * from ${items} where thread_id = $1 and ordinal > $2 order by ordinal`,
    turnItems: `select * from ${items} where thread_id = $1 and ordinal > $2 and turn_id = $3 order by ordinal`,
    insertConfirmation: `insert into ${confirmations} (id, thread_id, turn_id, owner, actor, call_id, tool, arguments, digest, status, created_at, expires_at)
      select $1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $11 where exists (select 1 from ${turns} where id = $3) returning *`,
    getConfirmation: `select * from ${confirmations} where id = $1`,
    pendingConfirmations: `select * from ${confirmations} where turn_id = $1 and status = 'pending' order by created_at, id`,
    // $1 id, $2 owner, $3 now, $4 the expired resolution: claimed, or resolved as expired when it lapsed.
    claimConfirmation: `update ${confirmations} set
      status = case when expires_at <= $3 then 'resolved' else 'claimed' end,
      resolution = case when expires_at <= $3 then $4 else resolution end,
      resolved_at = case when expires_at <= $3 then $3::bigint else resolved_at end
      where id = $1 and owner = $2 and status = 'pending' returning *`,
    resolveConfirmation: `update ${confirmations} set status = 'resolved', resolution = $2, resolved_at = $3 where id = $1 and status <> 'resolved'`,
    resolveClaimedConfirmations: `update ${confirmations} set status = 'resolved', resolution = $2, resolved_at = $3 where turn_id = $1 and status = 'claimed' returning *`,
    expireConfirmations: `update ${confirmations} set status = 'resolved', resolution = $2, resolved_at = $1 where status = 'pending' and expires_at <= $1 returning *`,
    deleteResolvedConfirmations: `delete from ${confirmations} where id in (select id from ${confirmations} where status = 'resolved' and resolved_at < $1 order by resolved_at, id limit $2)`,
    insertLease: `insert into ${leases} (id, holder, acquired_at, heartbeat_at, expires_at) values ($1, $2, $3, $3, $4) returning *`,
    getLease: `select * from ${leases} where id = $1`,
    lockLease: `select * from ${leases} where id = $1 for update`,
    renewLease: `update ${leases} set heartbeat_at = $2, expires_at = $3 where id = $1 and expires_at > $2 returning *`,
    deleteLease: `delete from ${leases} where id = $1`,
    lockThreadOwner: `select owner from ${threads} where id = $1 for update`,
    insertQueued: `insert into ${queue} (id, thread_id, owner, actor, request_key, text, language, steer, seq, created_at, updated_at)
      select $1, $2, $3, $8, $4, $5, $6, false, coalesce(max(seq), 0) + 1, $7, $7 from ${queue} where thread_id = $2 returning *`,
    getQueued: `select * from ${queue} where id = $1`,
    lockQueued: `select * from ${queue} where id = $1 for update`,
    queuedByRequestKey: `select * from ${queue} where owner = $1 and request_key = $2`,
    queueSize: `select count(*) as size from ${queue} where thread_id = $1`,
    queuePosition: `select count(*) as position from ${queue} as q, ${queue} as me where me.id = $1 and q.thread_id = me.thread_id and (q.seq < me.seq or (q.seq = me.seq and q.id <= me.id))`,
    threadQueue: `select * from ${queue} where thread_id = $1 order by seq, id`,
    editQueued: `update ${queue} set text = $2, updated_at = $3 where id = $1 and ($4::text is null or text = $4) returning *`,
    steerQueued: `update ${queue} as me set steer = true, updated_at = $2,
      seq = case when me.seq = h.first then me.seq else h.first - 1 end
      from (select min(seq) as first from ${queue} where thread_id = (select thread_id from ${queue} where id = $1)) as h
      where me.id = $1 returning me.*`,
    deleteQueued: `delete from ${queue} where id = $1 returning *`,
    queuedThreads: `select distinct thread_id from ${queue} order by thread_id`,
    threadConfirmations: `select * from ${confirmations} where turn_id in (select turn_id from ${items} where thread_id = $1) order by created_at, id`,
    // A resolved one's outcome as `resolutionOutcome` reads it.
    census: `select 'threads' as part, null as status, null as outcome, count(*) as count from ${threads}
      union all select 'leases', null, null, count(*) from ${leases} where expires_at > $1
      union all select 'stuck', null, null, count(*) from ${turns} as t left join ${leases} as l on l.id = t.lease_id
        where t.ended_at is null and t.status in ('accepted', 'running') and (l.id is null or l.expires_at <= $1)
      union all select 'orphaned', null, null, count(*) from ${confirmations} as c where c.status <> 'resolved'
        and not exists (select 1 from ${turns} where id = c.turn_id and ended_at is null)
      union all select 'turn', status, null, count(*) from ${turns} group by status
      union all select 'confirmation', status, outcome, count(*) from (select status, case when status <> 'resolved' then null
          when jsonb_typeof(resolution::jsonb) = 'string' then resolution::jsonb #>> '{}'
          when jsonb_typeof(resolution::jsonb -> 'outcome') = 'string' then resolution::jsonb ->> 'outcome'
          when jsonb_typeof(resolution::jsonb -> 'status') = 'string' then resolution::jsonb ->> 'status'
          else 'other' end as outcome from ${confirmations}) as c group by status, outcome`,
    orphanedTurns: `select t.* from ${turns} as t left join ${leases} as l on l.id = t.lease_id
      where t.ended_at is null and t.status in ('accepted', 'running') and (l.id is null or l.expires_at <= $1)
      order by t.created_at, t.id`,
  };
}

