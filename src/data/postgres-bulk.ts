import { CompiledQuery } from 'kysely';
import type { BulkWriter } from './database.js';
import { quoteIdentifier } from './postgres-connections.js';

/** PostgreSQL's protocol numbers a statement's parameters in 16 bits. */
const maxParameters = 65_535;
/** Rows per INSERT at most: past a few thousand, a longer statement saves no time. */
const maxRowsPerInsert = 1000;

interface Run {
  readonly table: string;
  readonly columns: readonly string[];
  readonly rows: unknown[][];
}

/**
 * Collects bulk rows (the writer is synchronous, so nothing can be sent while `work` runs) and
 * turns them into multi-row INSERTs. A table's rows go together, tables in the order they first
 * appear, so rows that reference rows appended before them (join rows after their parents) still
 * find them; rows naming the same columns in another order join one run.
 */
export class BulkBuffer implements BulkWriter {
  readonly #tables = new Map<string, Map<string, Run>>();
  /** Exact column order → its run and where each of the run's columns sits in `values`. */
  readonly #targets = new Map<string, { readonly run: Run; readonly positions: readonly number[] | undefined }>();

  append(table: string, columns: readonly string[], values: readonly unknown[]): void {
    if (values.length !== columns.length) throw new TypeError(`bulk append to '${table}': ${columns.length} columns but ${values.length} values.`);
    const orderKey = `${table}\u0000${columns.join('\u0000')}`;
    let target = this.#targets.get(orderKey);
    if (target === undefined) {
      let runs = this.#tables.get(table);
      if (runs === undefined) this.#tables.set(table, (runs = new Map<string, Run>()));
      const setKey = [...columns].sort().join('\u0000');
      let run = runs.get(setKey);
      if (run === undefined) runs.set(setKey, (run = { table, columns: [...columns], rows: [] }));
      const positions = run.columns.map((column) => columns.indexOf(column));
      target = { run, positions: positions.every((position, index) => position === index) ? undefined : positions };
      this.#targets.set(orderKey, target);
    }
    const { run, positions } = target;
    run.rows.push(positions === undefined ? [...values] : positions.map((position) => values[position]));
  }

  /** The INSERT statements, each within PostgreSQL's parameter limit. */
  *statements(): Generator<CompiledQuery> {
    for (const runs of this.#tables.values()) {
      for (const run of runs.values()) {
        const table = quoteIdentifier(run.table);
        if (run.columns.length === 0) {
          for (let i = 0; i < run.rows.length; i++) yield CompiledQuery.raw(`insert into ${table} default values`);
          continue;
        }
        const perStatement = Math.max(1, Math.min(maxRowsPerInsert, Math.floor(maxParameters / run.columns.length)));
        const head = `insert into ${table} (${run.columns.map(quoteIdentifier).join(', ')}) values `;
        for (let start = 0; start < run.rows.length; start += perStatement) {
          const rows = run.rows.slice(start, start + perStatement);
          let parameter = 0;
          const tuples = rows.map((row) => `(${row.map(() => `$${++parameter}`).join(', ')})`);
          yield CompiledQuery.raw(head + tuples.join(', '), rows.flat());
        }
      }
    }
  }
}
