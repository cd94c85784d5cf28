import { execute, GraphQLError, parse, validate } from 'graphql';
import { sql } from 'kysely';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { isPlumbError, PlumbError, setBounded } from '../core/index.js';
import type { Actor } from '../core/index.js';
import { loadRows } from './bulk-load.js';
import type { Database } from './database.js';
import type { ManagerSpec } from './definition-types.js';
import { withCatalog } from './host-catalog.js';
import type { CatalogSource } from './host-catalog.js';
import { plumbGraphqlError, timeoutError, toWireError } from './graphql-errors.js';
import { buildSchema } from './graphql-schema.js';
import type { DataContext } from './graphql-schema.js';
import { enumerateLookups } from './lookups.js';
import type { ResolvedLookup } from './lookups.js';
import type { Manager } from './model.js';
import { abortError, RequestScope } from './request-scope.js';
import type { DataRuntime, ListArgs, PageArgs } from './request-scope.js';
import { resolveManagers } from './resolve-managers.js';
import { checkConditions } from './named-conditions.js';
import { rowCodec } from './row-codec.js';
import type { Row, RowCodec } from './row-codec.js';
import { assertMigrated } from './migrations.js';
import type { MigrationSource } from './migrations.js';
import { syncSchema } from './schema-sync.js';
import { parseDataSettings } from './settings.js';
import type { DataSettings, DataSettingsInput } from './settings.js';

/** How an app treats its tables: Plumb's (`own`, `create`) or the host's (`attach`). */
export const tableModes = ['own', 'create', 'attach'] as const;
export type TableMode = (typeof tableModes)[number];

export interface AppOptions {
  readonly managers: readonly ManagerSpec[];
  /** The host's catalogue, laid over the managers' own `catalog` (`withCatalog`): an object keyed by manager name or a function. */
  readonly catalog?: CatalogSource;
  readonly database: Database;
  /**
   * `own` (default): missing tables are created by `ready()`, unless the database already holds
   * tables that are not the app's (`tables_not_created`). `create`: as `own`, beside such tables too.
   * `attach`: the tables are the host's; `ready()` checks every mapped table and column and never
   * creates or alters anything.
   */
  readonly tables?: TableMode;
  /**
   * The app's migrations (`own` tables): `ready()` refuses to run while one is not applied
   * (`migrations_pending`), and once there are any, tables are made by them alone.
   */
  readonly migrations?: MigrationSource;
  readonly settings?: DataSettingsInput;
  /** Called with every SQL statement the app runs (after compiling, before running). */
  readonly onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

export interface GraphqlRequest {
  readonly actor: Actor;
  /** Text, or a document object: one object is validated once, so do not change it after passing it. */
  readonly document: string | DocumentNode;
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
  /** Aborting answers with a TIMEOUT error (statements already running finish first). */
  readonly signal?: AbortSignal;
  /**
   * The database stops each statement of the request after this long, and the request answers a
   * TIMEOUT error: PostgreSQL's `statement_timeout`, SQLite as `sqlite()` says. Milliseconds.
   */
  readonly statementTimeoutMs?: number;
}

export interface AppStats {
  /** SQL statements run by this app since it was defined. */
  readonly statements: number;
}

/** A page of rows as the actor sees them (the programmatic twin of `<name>List`). */
export interface RowPage {
  readonly items: readonly Row[];
  readonly page: number;
  readonly pageSize: number;
  readonly hasNextPage: boolean;
  readonly totalCount: number;
}

export interface App {
  readonly managers: readonly Manager[];
  manager(name: string): Manager | undefined;
  readonly database: Database;
  readonly settings: DataSettings;
  readonly schema: GraphQLSchema;
  readonly stats: AppStats;
  /** Every lookup key of a manager (what `<Name>Filter` accepts). */
  lookups(manager: Manager): readonly ResolvedLookup[];
  ready(): Promise<void>;
  graphql(request: GraphqlRequest): Promise<ExecutionResult>;
  /** Lists rows as an actor, with the same filters, permissions and paging as GraphQL. */
  list(actor: Actor, managerName: string, args?: PageArgs & { readonly signal?: AbortSignal }): Promise<RowPage>;
  /** Counts the rows an actor may see that match a filter. */
  count(actor: Actor, managerName: string, args?: ListArgs & { readonly signal?: AbortSignal }): Promise<number>;
  load(managerName: string, rows: Iterable<Readonly<Record<string, unknown>>>): Promise<number>;
  /**
   * The distinct non-null values of one field (sorted, as strings), or null when it has more than
   * `limit`. For vocabularies (a router's value words): it reads the table directly, without row
   * permissions, so use it for words, never for answers.
   */
  distinctValues(managerName: string, fieldName: string, options: { readonly limit: number; readonly signal?: AbortSignal }): Promise<readonly string[] | null>;
  readonly closed: boolean;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Most parsed-and-validated documents kept for reuse. */
const documentCacheSize = 500;

class DataApp implements App {
  readonly managers: readonly Manager[];
  readonly database: Database;
  readonly settings: DataSettings;
  readonly schema: GraphQLSchema;
  readonly #byName: ReadonlyMap<string, Manager>;
  readonly #codecs = new Map<Manager, RowCodec>();
  readonly #lookups = new Map<Manager, readonly ResolvedLookup[]>();
  readonly #documents = new Map<string, DocumentNode>();
  /** Document objects already validated against this schema (callers never change a document they passed). */
  readonly #validatedNodes = new WeakSet<DocumentNode>();
  readonly #onQuery: AppOptions['onQuery'];
  readonly #tables: TableMode;
  readonly #migrations: MigrationSource | undefined;
  readonly #runtime: DataRuntime;
  #statements = 0;
  #ready: Promise<void> | undefined;
  #closed = false;

  constructor(options: AppOptions, managers: readonly Manager[]) {
    this.managers = managers;
    this.database = options.database;
    this.settings = parseDataSettings(options.settings ?? {});
    this.#byName = new Map(managers.map((manager) => [manager.name, manager]));
    this.#onQuery = options.onQuery;
    this.#tables = options.tables ?? 'own';
    this.#migrations = options.migrations;
    for (const manager of managers) this.#codecs.set(manager, rowCodec(manager, this.database.values));
    this.schema = buildSchema(managers, { lookups: (manager) => this.lookups(manager) });
    this.#runtime = {
      database: this.database,
      settings: this.settings,
      codec: (manager) => this.#codecs.get(manager)!,
      onQuery: (text, parameters) => {
        this.#statements++;
        this.#onQuery?.(text, parameters);
      },
      ready: () => this.ready(),
      assertOpen: () => this.#assertOpen(),
    };
  }

  get stats(): AppStats {
    return { statements: this.#statements };
  }

  get closed(): boolean {
    return this.#closed;
  }

  manager(name: string): Manager | undefined {
    return this.#byName.get(name);
  }

  lookups(manager: Manager): readonly ResolvedLookup[] {
    let found = this.#lookups.get(manager);
    if (found === undefined) this.#lookups.set(manager, (found = Object.freeze(enumerateLookups(manager))));
    return found;
  }

  #assertOpen(): void {
    if (this.#closed || this.database.closed) throw new PlumbError('closed', 'The app is closed; define a new one to keep working.');
  }

  ready(): Promise<void> {
    if (this.#closed || this.database.closed) return Promise.reject(new PlumbError('closed', 'The app is closed; define a new one to keep working.'));
    this.#ready ??= this.#prepare().catch((error: unknown) => {
      this.#ready = undefined; // forget a failed try: the host may fix the database and call again
      throw error;
    });
    return this.#ready;
  }

  async #prepare(): Promise<void> {
    if (this.#tables === 'attach') return syncSchema(this.database, this.managers, 'attach');
    if (this.#migrations === undefined) return syncSchema(this.database, this.managers, this.#tables);
    const state = await assertMigrated(this.database, this.#migrations);
    return syncSchema(this.database, this.managers, state.applied.length > 0 ? 'migrated' : this.#tables);
  }

  #require(name: string): Manager {
    const manager = this.#byName.get(name);
    if (manager === undefined) {
      throw new PlumbError('unknown_manager', `Unknown manager '${name}'. Managers: ${[...this.#byName.keys()].join(', ')}.`, { details: { manager: name } });
    }
    return manager;
  }

  #document(source: string | DocumentNode): { document: DocumentNode; errors?: undefined } | { document?: undefined; errors: readonly GraphQLError[] } {
    if (typeof source !== 'string') {
      if (this.#validatedNodes.has(source)) return { document: source };
      const errors = validate(this.schema, source);
      if (errors.length > 0) return { errors: errors.map((error) => toWireError(error, 'validate', this.#byName)) };
      this.#validatedNodes.add(source);
      return { document: source };
    }
    const cached = this.#documents.get(source);
    if (cached !== undefined) return { document: cached };
    let document: DocumentNode;
    try {
      document = parse(source, { maxTokens: 10_000 });
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [toWireError(error, 'parse', this.#byName)] };
      throw error;
    }
    const errors = validate(this.schema, document);
    if (errors.length > 0) return { errors: errors.map((error) => toWireError(error, 'validate', this.#byName)) };
    setBounded(this.#documents, source, document, documentCacheSize);
    return { document };
  }

  async graphql(request: GraphqlRequest): Promise<ExecutionResult> {
    const { signal, statementTimeoutMs } = request;
    try {
      if (statementTimeoutMs !== undefined && !(Number.isFinite(statementTimeoutMs) && statementTimeoutMs > 0)) {
        throw new PlumbError('invalid_input', `statementTimeoutMs must be a positive number of milliseconds, got ${String(statementTimeoutMs)}.`);
      }
      if (signal?.aborted === true) throw abortError(signal);
      await this.ready();
    } catch (error) {
      if (isPlumbError(error)) return { errors: [plumbGraphqlError(error)] };
      throw error;
    }
    const prepared = this.#document(request.document);
    if (prepared.errors !== undefined) return { errors: prepared.errors };
    const contextValue: DataContext = { scope: new RequestScope(this.#runtime, request.actor, signal, request.statementTimeoutMs) };
    const running = Promise.resolve(
      execute({
        schema: this.schema,
        document: prepared.document,
        variableValues: request.variables ?? undefined,
        operationName: request.operationName ?? undefined,
        contextValue,
      }),
    ).then((result) => this.#wire(result));
    if (signal === undefined) return running;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<ExecutionResult>((resolve) => {
      onAbort = () => resolve({ errors: [timeoutError(abortError(signal).message)] });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([running, aborted]);
    } finally {
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
      // A request abandoned on abort keeps running to its end; its outcome is no longer wanted.
      running.catch(() => undefined);
    }
  }

  #wire(result: ExecutionResult): ExecutionResult {
    if (result.errors === undefined || result.errors.length === 0) return result;
    const phase = result.data === undefined ? 'validate' : 'execute';
    const errors = result.errors.map((error) => {
      if (phase === 'validate' && error.path === undefined && error.originalError === undefined) return toWireError(error, 'execute', this.#byName);
      return toWireError(error, 'execute', this.#byName);
    });
    return { ...result, errors };
  }

  #scope(actor: Actor, signal: AbortSignal | undefined): RequestScope {
    return new RequestScope(this.#runtime, actor, signal);
  }

  async list(actor: Actor, managerName: string, args: PageArgs & { readonly signal?: AbortSignal } = {}): Promise<RowPage> {
    const manager = this.#require(managerName);
    await this.ready();
    const page = await this.#scope(actor, args.signal).list(manager, args);
    return { items: page.items, page: page.page, pageSize: page.pageSize, hasNextPage: page.hasNextPage, totalCount: await page.totalCount() };
  }

  async count(actor: Actor, managerName: string, args: ListArgs & { readonly signal?: AbortSignal } = {}): Promise<number> {
    const manager = this.#require(managerName);
    await this.ready();
    return this.#scope(actor, args.signal).count(manager, args);
  }

  async load(managerName: string, rows: Iterable<Readonly<Record<string, unknown>>>): Promise<number> {
    const manager = this.#require(managerName);
    await this.ready();
    this.#assertOpen();
    return loadRows(this.database, manager, rows);
  }

  async distinctValues(managerName: string, fieldName: string, options: { readonly limit: number; readonly signal?: AbortSignal }): Promise<readonly string[] | null> {
    const manager = this.#require(managerName);
    const field = manager.fields.find((item) => item.name === fieldName);
    if (field === undefined) {
      throw new PlumbError('invalid_input', `Unknown field '${fieldName}' on ${manager.name}. Fields: ${manager.fields.map((item) => item.name).join(', ')}.`, {
        details: { manager: manager.name, field: fieldName },
      });
    }
    if (!Number.isInteger(options.limit) || options.limit < 0) throw new PlumbError('invalid_input', `distinctValues needs a whole limit of 0 or more, got ${String(options.limit)}.`);
    await this.ready();
    this.#assertOpen();
    if (options.signal?.aborted === true) throw abortError(options.signal);
    const column = sql.ref(field.column);
    const query = sql`select distinct ${column} as v from ${sql.table(manager.table)} where ${column} is not null order by 1 limit ${options.limit + 1}`.compile(this.database.kysely);
    this.#runtime.onQuery(query.sql, query.parameters);
    const result = await this.database.execute(query);
    if (result.rows.length > options.limit) return null;
    const shape = { type: field.type, scale: field.scale, values: field.values };
    return result.rows.map((row) => {
      const value = this.database.values.fromStorage(shape, row['v']);
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#documents.clear();
    await this.#ready?.catch(() => undefined);
    await this.database.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Validates the managers as a whole, resolves relations on both sides and returns the app.
 * Throws one `invalid_definition` error listing every problem. Tables are created by `ready()`
 * (which every other method awaits).
 */
export function defineApp(options: AppOptions): App {
  const { managers, problems } = resolveManagers(withCatalog(options.managers, options.catalog));
  if (problems.length > 0) {
    throw new PlumbError('invalid_definition', `Invalid app definition:\n- ${problems.join('\n- ')}`, { details: { problems } });
  }
  checkConditions(managers);
  return new DataApp(options, managers);
}
