/**
 * What the PostgreSQL journal needs of a database: statements on their own and transactions on one
 * connection. `plumb-agent/postgres` gives it over pg's pool (its own type parsers, bounded waits, coded
 * connection errors); the store itself never loads pg.
 */
export interface SqlResult {
  readonly rows: readonly Record<string, unknown>[];
  readonly rowCount: number;
}

export type SqlQuery = (text: string, values?: readonly unknown[]) => Promise<SqlResult>;

export interface JournalSql {
  /** One statement on its own (its own transaction). */
  readonly query: SqlQuery;
  /** `work`'s statements on one connection between BEGIN and COMMIT; rolled back when it throws. */
  transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T>;
  /** Waits for the statements under way and releases the connections; idempotent. */
  close(): Promise<void>;
}

/** The SQLSTATE of a unique violation. */
export const uniqueViolation = '23505';

/** PostgreSQL's SQLSTATE of a failed statement (pg puts it on the error, possibly under `cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The name of the constraint or index a unique violation hit. */
export function violatedConstraint(error: unknown): string | undefined {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    const name = (current as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
