import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migrations } from '../../core/index.js';

/**
 * The PostgreSQL journal's tables, as two migrations named like the SQLite journal's (applied by
 * kysely's Migrator: on PostgreSQL it takes an advisory lock and runs each one in a transaction).
 *
 * What differs from SQLite, and why (docs/store.md, "PostgreSQL"):
 * - `turns_active` is a *unique* partial index: at most one active turn per thread, enforced by
 *   the database itself, so two processes can never run turns of one thread at once, and
 *   `beginTurn` is a single INSERT … ON CONFLICT DO NOTHING.
 * - `threads.next_ordinal` counts the thread's items: an append's UPDATE of it takes the thread's
 *   row lock (appends to one thread serialize, across processes) and gives the ordinals in the
 *   same statement. It is no indexed column, so the update stays a heap-only (HOT) one.
 * - `items_id` is unique on `(thread_id, id)`: a caller-chosen id is refused by the index in the
 *   append's own statement.
 */
export function postgresJournalMigrations(prefix: string): Migrations {
  const t = (name: string): string => `${prefix}${name}`;
  const run = async (db: Kysely<unknown>, statements: readonly string[]): Promise<void> => {
    for (const statement of statements) await sql.raw(statement).execute(db);
  };
  return {
    '0001_journal': {
      up: (db) =>
        run(db, [
          `create table ${t('threads')} (
            id text primary key,
            owner text not null,
            title text,
            summary text,
            summary_through_item_id text,
            router_session text,
            next_ordinal bigint not null default 0,
            created_at bigint not null,
            updated_at bigint not null
          ) with (fillfactor = 90)`,
          `create index ${t('threads_owner')} on ${t('threads')} (owner, updated_at desc, created_at desc, id desc)`,
          `create table ${t('turns')} (
            id text primary key,
            thread_id text not null,
            owner text not null,
            request_key text not null,
            input text not null,
            status text not null,
            failure_code text,
            failure_message text,
            input_tokens bigint not null,
            output_tokens bigint not null,
            created_at bigint not null,
            updated_at bigint not null,
            ended_at bigint
          ) with (fillfactor = 90)`,
          `create unique index ${t('turns_request')} on ${t('turns')} (owner, request_key)`,
          `create unique index ${t('turns_active')} on ${t('turns')} (thread_id) where ended_at is null`,
          `create table ${t('items')} (
            thread_id text not null,
            ordinal bigint not null,
            id text not null,
            turn_id text not null,
            kind text not null,
            data text not null,
            created_at bigint not null,
            primary key (thread_id, ordinal)
          )`,
          `create unique index ${t('items_id')} on ${t('items')} (thread_id, id)`,
          `create table ${t('confirmations')} (
            id text primary key,
            thread_id text not null,
            turn_id text not null,
            owner text not null,
            actor text not null,
            call_id text not null,
            tool text not null,
            arguments text not null,
            digest text not null,
            status text not null,
            created_at bigint not null,
            expires_at bigint not null,
            resolved_at bigint,
            resolution text
          )`,
          `create index ${t('confirmations_turn')} on ${t('confirmations')} (turn_id, status)`,
          `create index ${t('confirmations_pending')} on ${t('confirmations')} (expires_at) where status = 'pending'`,
        ]),
    },
    '0002_leases': {
      up: (db) =>
        run(db, [
          `alter table ${t('turns')} add column lease_id text`,
          `create table ${t('leases')} (
            id text primary key,
            holder text not null,
            acquired_at bigint not null,
            heartbeat_at bigint not null,
            expires_at bigint not null
          )`,
        ]),
    },
    '0003_queue': {
      up: (db) =>
        run(db, [
          `create table ${t('queue')} (
            id text primary key,
            thread_id text not null,
            owner text not null,
            actor text not null,
            request_key text not null,
            text text not null,
            language text,
            steer boolean not null default false,
            seq bigint not null,
            created_at bigint not null,
            updated_at bigint not null
          )`,
          `create index ${t('queue_thread')} on ${t('queue')} (thread_id, seq)`,
          `create unique index ${t('queue_request')} on ${t('queue')} (owner, request_key)`,
        ]),
    },
    // A thread's title source (null: the one it was created with) and a fork's origin, read with its row.
    '0004_thread_pages': {
      up: (db) =>
        run(db, [
          `alter table ${t('threads')} add column title_source text`,
          `alter table ${t('threads')} add column forked_from_thread text`,
          `alter table ${t('threads')} add column forked_from_item text`,
        ]),
    },
  };
}
