import { journalTables } from '../journal-tables.js';
import type { PostgresJournal } from './journal.js';

/** The PostgreSQL store's upkeep (docs/store.md, "Upkeep"): the journal tables' sizes, and their vacuum. */

/** Each journal table with its indexes and TOAST, in bytes, by name; from the connection's schema. */
export async function sizes(j: PostgresJournal, prefix: string): Promise<Record<string, number>> {
  const { rows } = await j.query(
    `select c.relname as name, pg_total_relation_size(c.oid) as bytes from pg_class as c
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname = any($1::text[]) order by c.relname`,
    [Object.values(journalTables(prefix))],
  );
  // pg hands a bigint over as text.
  return Object.fromEntries(rows.map((row) => [String(row.name), Number(row.bytes)]));
}

/** `VACUUM (ANALYZE)` of each journal table, one statement each (VACUUM runs outside a transaction), each within the pool's statement timeout. */
export async function vacuum(j: PostgresJournal, prefix: string): Promise<void> {
  for (const table of Object.values(journalTables(prefix))) await j.query(`vacuum (analyze) ${table}`);
}
