import DataLoader from 'dataloader';
import { sql } from 'kysely';
import type { CompiledQuery, Kysely } from 'kysely';
import { canonicalJson, PlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import { andAll, column, compileCondition, compileExclude, compileFilter, idColumn } from './conditions.js';
import type { ConditionScope, Sql } from './conditions.js';
import type { Database, QueryResult, SqlExecutor } from './database.js';
import type { RowCondition } from './definition-types.js';
import { keyText } from './keys.js';
import type { RowKey } from './keys.js';
import type { Manager, Relation } from './model.js';
import type { Row, RowCodec } from './row-codec.js';
import type { DataSettings } from './settings.js';
import { namedFilter } from './named-conditions.js';

/** What every request shares: the database, codecs, settings and the statement counter. */
export interface DataRuntime {
  readonly database: Database;
  readonly settings: DataSettings;
  codec(manager: Manager): RowCodec;
  /** Called before each statement runs (counting, logging). */
  readonly onQuery: (sqlText: string, parameters: readonly unknown[]) => void;
  /** Resolves once tables exist; rejects with schema_mismatch. */
  ready(): Promise<void>;
  assertOpen(): void;
}

export interface ListArgs {
  readonly filter?: Readonly<Record<string, unknown>> | null;
  readonly exclude?: Readonly<Record<string, unknown>> | null;
  /** The manager's named conditions the rows must meet as well (`conditions` on its definition). */
  readonly conditions?: readonly string[] | null;
}

export interface PageArgs extends ListArgs {
  readonly page?: number | null;
  readonly pageSize?: number | null;
}

export interface Page {
  readonly items: readonly Row[];
  readonly page: number;
  readonly pageSize: number;
  readonly hasNextPage: boolean;
  /** Counted on demand (one COUNT statement), then remembered. */
  totalCount(): Promise<number>;
}

export function abortError(signal: AbortSignal): PlumbError {
  const reason: unknown = signal.reason;
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the request was aborted';
  return new PlumbError('timeout', `The query did not finish: ${text}.`, { cause: reason });
}

/**
 * A host's read permission that failed: refused closed with nothing of the schema in the message
 * (the person asking sees it), the failure itself kept as the cause for the error report.
 */
function permissionError(manager: Manager, cause: unknown): PlumbError {
  if (cause instanceof PlumbError && cause.code === 'permission_error') return cause;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new PlumbError('permission_error', 'Access to this data could not be checked, so the request was refused. The failure was reported.', { cause: new Error(`The read permission of ${manager.name} failed: ${detail}`, { cause }) });
}

/** One request as one actor: read conditions, loaders and statements, all scoped to it. */
export class RequestScope {
  readonly #conditions = new Map<Manager, RowCondition>();
  readonly #loaders = new Map<string, DataLoader<RowKey, unknown>>();
  #rowsRead = 0;
  readonly conditionScope: ConditionScope;

  constructor(
    readonly runtime: DataRuntime,
    readonly actor: Actor,
    readonly signal: AbortSignal | undefined,
    /** Each statement outside a transaction is stopped by the database after this long (`StatementOptions`). */
    readonly statementTimeoutMs?: number,
  ) {
    this.conditionScope = { fragments: runtime.database.fragments, values: runtime.database.values, readCondition: (manager) => this.readCondition(manager) };
  }

  get kysely(): Kysely<unknown> {
    return this.runtime.database.kysely;
  }

  readCondition(manager: Manager): RowCondition {
    let condition = this.#conditions.get(manager);
    if (condition === undefined) {
      try {
        condition = manager.permissions.read(this.actor);
      } catch (error) {
        throw permissionError(manager, error);
      }
      this.#conditions.set(manager, condition);
    }
    return condition;
  }

  /** The actor's read condition on `alias`, compiled without nested permissions (it is the host's own rule). */
  permitted(manager: Manager, alias: string): Sql | undefined {
    const condition = this.readCondition(manager);
    try {
      return compileCondition({ ...this.conditionScope, readCondition: undefined }, manager, alias, condition);
    } catch (error) {
      throw permissionError(manager, error);
    }
  }

  compile(query: Sql): CompiledQuery {
    return query.compile(this.kysely);
  }

  async run(query: Sql, executor: SqlExecutor = this.runtime.database): Promise<QueryResult> {
    this.runtime.assertOpen();
    if (this.signal?.aborted === true) throw abortError(this.signal);
    const compiled = this.compile(query);
    this.runtime.onQuery(compiled.sql, compiled.parameters);
    const database = this.runtime.database;
    const result = await (executor === database && this.statementTimeoutMs !== undefined ? database.execute(compiled, { timeoutMs: this.statementTimeoutMs }) : executor.execute(compiled));
    this.#rowsRead += result.rows.length;
    const budget = this.runtime.settings.maxRowsPerRequest;
    if (this.#rowsRead > budget) {
      throw new PlumbError('result_too_large', `This request read more than ${budget} rows; ask for fewer (smaller pages, filters on nested lists, less nesting).`, {
        details: { maxRowsPerRequest: budget },
      });
    }
    return result;
  }

  where(manager: Manager, alias: string, args: ListArgs): Sql {
    return andAll([
      this.permitted(manager, alias),
      args.filter == null ? undefined : compileFilter(this.conditionScope, manager, alias, args.filter),
      args.exclude == null ? undefined : compileExclude(this.conditionScope, manager, alias, args.exclude),
      ...(args.conditions ?? []).map((name) => compileFilter(this.conditionScope, manager, alias, namedFilter(manager, name, new Date().toISOString()))),
    ]);
  }

  async list(manager: Manager, args: PageArgs): Promise<Page> {
    const max = this.runtime.settings.maxPageSize;
    const page = args.page ?? 1;
    const pageSize = args.pageSize ?? max;
    if (!Number.isInteger(page) || page < 1) throw new PlumbError('invalid_page', `page must be 1 or more, got ${page}.`, { details: { page } });
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > max) {
      throw new PlumbError('invalid_page', `pageSize must be from 1 to ${max}, got ${pageSize}.`, { details: { pageSize, maxPageSize: max } });
    }
    const where = this.where(manager, 't0', args);
    const codec = this.runtime.codec(manager);
    const result = await this.run(
      sql`select ${codec.select('t0')} from ${sql.table(manager.table)} as t0 where ${where} order by ${column('t0', idColumn(manager))} limit ${pageSize + 1} offset ${(page - 1) * pageSize}`,
    );
    const hasNextPage = result.rows.length > pageSize;
    const items = (hasNextPage ? result.rows.slice(0, pageSize) : result.rows).map((raw) => codec.decode(raw));
    let total: Promise<number> | undefined;
    const count = async (): Promise<number> => {
      if (!hasNextPage && (items.length > 0 || page === 1)) return (page - 1) * pageSize + items.length;
      const counted = await this.run(sql`select count(*) as n from ${sql.table(manager.table)} as t0 where ${where}`);
      return Number(counted.rows[0]?.n ?? 0);
    };
    return { items, page, pageSize, hasNextPage, totalCount: () => (total ??= count()) };
  }

  async count(manager: Manager, args: ListArgs): Promise<number> {
    const where = this.where(manager, 't0', args);
    const counted = await this.run(sql`select count(*) as n from ${sql.table(manager.table)} as t0 where ${where}`);
    return Number(counted.rows[0]?.n ?? 0);
  }

  #loader<V>(key: string, batch: (keys: readonly RowKey[]) => Promise<V[]>): DataLoader<RowKey, V> {
    let loader = this.#loaders.get(key) as DataLoader<RowKey, V> | undefined;
    if (loader === undefined) {
      loader = new DataLoader<RowKey, V>(batch, { maxBatchSize: 500 });
      this.#loaders.set(key, loader);
    }
    return loader;
  }

  /** A row by id as the actor sees it (null when missing or hidden: the same thing from outside). */
  byId(manager: Manager, id: RowKey): Promise<Row | null> {
    return this.#loader<Row | null>(`id:${manager.name}`, async (ids) => {
      const codec = this.runtime.codec(manager);
      const where = andAll([sql`${column('t0', idColumn(manager))} in (${sql.join(ids)})`, this.permitted(manager, 't0')]);
      const result = await this.run(sql`select ${codec.select('t0')} from ${sql.table(manager.table)} as t0 where ${where}`);
      const found = new Map<string, Row>();
      for (const raw of result.rows) {
        const row = codec.decode(raw);
        found.set(keyText(row.id), row);
      }
      return ids.map((id) => found.get(keyText(id)) ?? null);
    }).load(id);
  }

  /** The related rows of a `many` or `manyToMany` relation for one parent, batched across parents. */
  related(relation: Relation & { kind: 'many' | 'manyToMany' }, parentId: RowKey, args: ListArgs): Promise<Row[]> {
    const key = `rel:${relation.target.name}:${relation.reverseName}:${relation.name}:${canonicalJson({ f: args.filter ?? null, e: args.exclude ?? null, c: args.conditions ?? null })}`;
    return this.#loader<Row[]>(key, async (parentIds) => {
      const target = relation.target;
      const codec = this.runtime.codec(target);
      const where = this.where(target, 't0', args);
      const cap = this.runtime.settings.maxRelationRows;
      const targetId = column('t0', idColumn(target));
      const parent = relation.kind === 'many' ? column('t0', relation.column) : column('j', relation.sourceColumn);
      const from =
        relation.kind === 'many'
          ? sql`from ${sql.table(target.table)} as t0`
          : sql`from ${sql.table(relation.through)} as j join ${sql.table(target.table)} as t0 on ${targetId} = ${column('j', relation.targetColumn)}`;
      const selected = sql`${codec.select('t0')}, ${parent} as "__parent"`;
      const condition = sql`${parent} in (${sql.join(parentIds)}) and ${where}`;
      // Usually every parent fits under the cap: one plain statement, capped in total. Only when the
      // total overflows (so some parent has more than `cap` rows) rank rows per parent instead.
      const total = cap * parentIds.length;
      let result = await this.run(sql`select ${selected} ${from} where ${condition} order by "__parent", ${targetId} limit ${total + 1}`);
      if (result.rows.length > total) {
        const ranked = sql`select ${selected}, row_number() over (partition by ${parent} order by ${targetId}) as "__rank" ${from} where ${condition}`;
        result = await this.run(sql`select * from (${ranked}) as ranked where "__rank" <= ${cap} order by "__parent", "__rank"`);
      }
      const grouped = new Map<string, Row[]>();
      for (const raw of result.rows) {
        const parentKey = keyText(raw.__parent);
        let rows = grouped.get(parentKey);
        if (rows === undefined) grouped.set(parentKey, (rows = []));
        if (rows.length < cap) rows.push(codec.decode(raw));
      }
      return parentIds.map((id) => grouped.get(keyText(id)) ?? []);
    }).load(parentId);
  }
}
