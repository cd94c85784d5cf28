import Database from 'better-sqlite3';
import { nanoid } from 'nanoid';
import { PlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { checkItem, checkStatus, closedError, isItemKind, jsonText, notFound } from './records.js';
import { schemaStatements, schemaVersion } from './sqlite-schema.js';
import { activeTurnStatuses } from './types.js';
import type {
  BeginTurnInput,
  BeginTurnResult,
  ClaimResult,
  ConfirmationRecord,
  ConfirmationStatus,
  ItemRecord,
  ListItemsOptions,
  NewConfirmation,
  NewItem,
  Store,
  StoreOptions,
  ThreadPatch,
  ThreadRecord,
  TurnPatch,
  TurnRecord,
  TurnStatus,
} from './types.js';

export interface SqliteStoreOptions extends StoreOptions {
  /** A database file of the store's own (opened in WAL mode). */
  readonly path?: string;
  /** Or a handle the application already owns; the store never closes it. */
  readonly database?: Database.Database;
  /** Prefix of every table, so that the store can live in the app's database. Default `plumb_`. */
  readonly tablePrefix?: string;
}

interface ThreadRow {
  id: string;
  owner: string;
  title: string | null;
  summary: string | null;
  summary_through_item_id: string | null;
  router_session: string | null;
  next_ordinal: number;
  created_at: number;
  updated_at: number;
}
interface TurnRow {
  id: string;
  thread_id: string;
  owner: string;
  request_key: string;
  input: string;
  status: string;
  failure_code: string | null;
  failure_message: string | null;
  input_tokens: number;
  output_tokens: number;
  created_at: number;
  updated_at: number;
}
interface ItemRow {
  id: string;
  thread_id: string;
  turn_id: string;
  ordinal: number;
  kind: string;
  data: string;
  created_at: number;
}
interface ConfirmationRow {
  id: string;
  thread_id: string;
  turn_id: string;
  owner: string;
  actor: string;
  call_id: string;
  tool: string;
  arguments: string;
  digest: string;
  status: string;
  created_at: number;
  expires_at: number;
  resolved_at: number | null;
  resolution: string | null;
}

/**
 * The durable store on SQLite (`better-sqlite3`). Each write is one transaction; better-sqlite3
 * is synchronous, so a method's work is never interleaved with another's in this process, and
 * conditional UPDATEs keep claims atomic across processes sharing the file.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  readonly #db: Database.Database;
  readonly #owned: boolean;
  readonly #ids: () => string;
  readonly #clock: () => number;
  readonly #sql: ReturnType<typeof prepare>;
  /** The hot write paths as transaction functions, built once (better-sqlite3 builds four wrappers per `transaction()` call). */
  readonly #tx: {
    readonly beginTurn: (input: BeginTurnInput) => BeginTurnResult;
    readonly appendItems: (turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined) => ItemRecord[];
  };
  #closed = false;

  constructor(options: SqliteStoreOptions) {
    if ((options.path === undefined) === (options.database === undefined)) {
      throw new PlumbError('store_invalid_record', 'openSqliteStore needs exactly one of `path` (its own file) or `database` (a shared handle).');
    }
    this.#owned = options.database === undefined;
    this.#db = options.database ?? new Database(options.path);
    if (this.#owned) {
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = NORMAL');
      this.#db.pragma('busy_timeout = 5000');
    }
    this.#ids = options.ids ?? (() => nanoid());
    this.#clock = options.clock ?? Date.now;
    const prefix = options.tablePrefix ?? 'plumb_';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
      throw new PlumbError('store_invalid_record', `Table prefix '${prefix}' must be letters, digits and underscores.`);
    }
    this.#db.transaction(() => {
      for (const statement of schemaStatements(prefix)) this.#db.prepare(statement).run();
      const row = this.#db.prepare(`SELECT value FROM ${prefix}meta WHERE key = 'schema_version'`).get() as { value: string } | undefined;
      if (row === undefined) {
        this.#db.prepare(`INSERT INTO ${prefix}meta (key, value) VALUES ('schema_version', ?)`).run(String(schemaVersion));
      } else if (Number(row.value) > schemaVersion) {
        throw new PlumbError('store_schema_mismatch', `The database has Plumb schema version ${row.value}; this build knows ${schemaVersion}. Upgrade Plumb.`);
      }
    })();
    this.#sql = prepare(this.#db, prefix);
    this.#tx = {
      beginTurn: this.#db.transaction((input: BeginTurnInput) => this.#beginTurn(input)),
      appendItems: this.#db.transaction((turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined) => this.#appendItems(turnId, items, turnPatch)),
    };
  }

  #open(): void {
    if (this.#closed) throw closedError();
  }

  async createThread(input: { readonly owner: string; readonly title?: string | null }): Promise<ThreadRecord> {
    this.#open();
    const now = this.#clock();
    const id = this.#ids();
    this.#sql.insertThread.run(id, input.owner, input.title ?? null, now, now);
    return Promise.resolve(this.#threadOrThrow(id));
  }

  #threadOrThrow(id: string): ThreadRecord {
    const row = this.#sql.getThread.get(id) as ThreadRow | undefined;
    if (row === undefined) throw notFound('thread', id);
    return toThread(row);
  }

  async getThread(id: string): Promise<ThreadRecord | undefined> {
    this.#open();
    const row = this.#sql.getThread.get(id) as ThreadRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toThread(row));
  }

  async latestThread(owner: string): Promise<ThreadRecord | undefined> {
    this.#open();
    const row = this.#sql.ownedThreads.get(owner, 1) as ThreadRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toThread(row));
  }

  async listThreads(owner: string, options: { readonly limit?: number } = {}): Promise<readonly ThreadRecord[]> {
    this.#open();
    const rows = this.#sql.ownedThreads.all(owner, options.limit ?? -1) as ThreadRow[];
    return Promise.resolve(rows.map(toThread));
  }

  async updateThread(id: string, patch: ThreadPatch): Promise<ThreadRecord> {
    this.#open();
    const current = this.#threadOrThrow(id);
    const next = { ...current, ...definedOnly(patch) };
    this.#sql.updateThread.run(next.title, next.summary, next.summaryThroughItemId, next.routerSession, this.#clock(), id);
    return Promise.resolve(this.#threadOrThrow(id));
  }

  async deleteThread(id: string): Promise<boolean> {
    this.#open();
    const deleted = this.#db.transaction(() => {
      this.#sql.deleteItems.run(id);
      this.#sql.deleteConfirmations.run(id);
      this.#sql.deleteTurns.run(id);
      return this.#sql.deleteThread.run(id).changes > 0;
    })();
    return Promise.resolve(deleted);
  }

  async beginTurn(input: BeginTurnInput): Promise<BeginTurnResult> {
    this.#open();
    return Promise.resolve(this.#tx.beginTurn(input));
  }

  #beginTurn(input: BeginTurnInput): BeginTurnResult {
    let thread: ThreadRecord | undefined;
    if (input.threadId !== undefined) thread = this.#threadOrThrow(input.threadId);
    else {
      const row = this.#sql.ownedThreads.get(input.owner, 1) as ThreadRow | undefined;
      if (row !== undefined) thread = toThread(row);
    }
    if (thread !== undefined) {
      const existing = this.#sql.turnByRequestKey.get(thread.owner, input.requestKey) as TurnRow | undefined;
      if (existing !== undefined) return { outcome: 'existing', thread, turn: toTurn(existing) };
      const active = this.#sql.activeTurn.get(thread.id, ...activeTurnStatuses) as TurnRow | undefined;
      if (active !== undefined) return { outcome: 'busy', thread, turn: toTurn(active) };
    }
    const now = this.#clock();
    // An owner without threads has no turns either: a first message creates its thread here.
    if (thread === undefined) {
      const id = this.#ids();
      const owner = input.owner!;
      const title = input.newThreadTitle ?? null;
      this.#sql.insertThread.run(id, owner, title, now, now);
      thread = Object.freeze({ id, owner, title, summary: null, summaryThroughItemId: null, routerSession: null, createdAt: now, updatedAt: now });
    } else {
      this.#sql.touchThread.run(now, thread.id);
      thread = Object.freeze({ ...thread, updatedAt: now });
    }
    const turnId = input.turnId ?? this.#ids();
    this.#sql.insertTurn.run(turnId, thread.id, thread.owner, input.requestKey, input.input, 'accepted', now, now);
    const [userItem] = this.#appendRows(thread.id, turnId, [{ kind: 'user_text', data: { text: input.input } }], now);
    const turn: TurnRecord = Object.freeze({
      id: turnId,
      threadId: thread.id,
      owner: thread.owner,
      requestKey: input.requestKey,
      input: input.input,
      status: 'accepted',
      failureCode: null,
      failureMessage: null,
      usage: Object.freeze({ inputTokens: 0, outputTokens: 0 }),
      createdAt: now,
      updatedAt: now,
    });
    return { outcome: 'created', thread, turn, userItem: userItem! };
  }

  #turnOrThrow(id: string): TurnRecord {
    const row = this.#sql.getTurn.get(id) as TurnRow | undefined;
    if (row === undefined) throw notFound('turn', id);
    return toTurn(row);
  }

  async getTurn(id: string): Promise<TurnRecord | undefined> {
    this.#open();
    const row = this.#sql.getTurn.get(id) as TurnRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toTurn(row));
  }

  async listTurns(threadId: string): Promise<readonly TurnRecord[]> {
    this.#open();
    return Promise.resolve((this.#sql.threadTurns.all(threadId) as TurnRow[]).map(toTurn));
  }

  async turnsWithStatus(status: TurnStatus): Promise<readonly TurnRecord[]> {
    this.#open();
    return Promise.resolve((this.#sql.turnsWithStatus.all(status) as TurnRow[]).map(toTurn));
  }

  async updateTurn(id: string, patch: TurnPatch, from?: readonly TurnStatus[]): Promise<TurnRecord | undefined> {
    this.#open();
    const result = this.#db.transaction(() => {
      const turn = this.#turnOrThrow(id);
      if (from !== undefined && !from.includes(turn.status)) return undefined;
      this.#patchTurn(turn, patch);
      return this.#turnOrThrow(id);
    })();
    return Promise.resolve(result);
  }

  #patchTurn(turn: TurnRecord, patch: TurnPatch): void {
    if (patch.status !== undefined) checkStatus(patch.status);
    this.#sql.updateTurn.run(
      patch.status ?? turn.status,
      patch.failureCode === undefined ? turn.failureCode : patch.failureCode,
      patch.failureMessage === undefined ? turn.failureMessage : patch.failureMessage,
      turn.usage.inputTokens + (patch.addUsage?.inputTokens ?? 0),
      turn.usage.outputTokens + (patch.addUsage?.outputTokens ?? 0),
      this.#clock(),
      turn.id,
    );
  }

  async appendItems(turnId: string, items: readonly NewItem[], turnPatch?: TurnPatch): Promise<readonly ItemRecord[]> {
    this.#open();
    return Promise.resolve(this.#tx.appendItems(turnId, items, turnPatch));
  }

  #appendItems(turnId: string, items: readonly NewItem[], turnPatch: TurnPatch | undefined): ItemRecord[] {
    // One statement finds the turn's thread and reserves the ordinals on it.
    const reserved = this.#sql.reserveTurnOrdinals.get(items.length, turnId) as { id: string; next_ordinal: number } | undefined;
    if (reserved === undefined) {
      const turn = this.#sql.turnThread.get(turnId) as { thread_id: string } | undefined;
      throw turn === undefined ? notFound('turn', turnId) : notFound('thread', turn.thread_id);
    }
    const texts = items.map(checkItem);
    const now = this.#clock();
    const appended = this.#insertItems(reserved.id, turnId, items, texts, reserved.next_ordinal - items.length, now);
    if (turnPatch !== undefined) this.#patchTurnInPlace(turnId, turnPatch, now);
    return appended;
  }

  /** A turn patch as one UPDATE: usage is added in SQL, absent fields stay as they are. */
  #patchTurnInPlace(turnId: string, patch: TurnPatch, now: number): void {
    if (patch.status !== undefined) checkStatus(patch.status);
    this.#sql.patchTurn.run(
      patch.status ?? null,
      patch.failureCode === undefined ? 0 : 1,
      patch.failureCode ?? null,
      patch.failureMessage === undefined ? 0 : 1,
      patch.failureMessage ?? null,
      patch.addUsage?.inputTokens ?? 0,
      patch.addUsage?.outputTokens ?? 0,
      now,
      turnId,
    );
  }

  /** Inside a transaction: reserves ordinals on the thread row, then inserts. */
  #appendRows(threadId: string, turnId: string, items: readonly NewItem[], now: number): ItemRecord[] {
    const texts = items.map(checkItem);
    const reserved = this.#sql.reserveOrdinals.get(items.length, threadId) as { next_ordinal: number } | undefined;
    if (reserved === undefined) throw notFound('thread', threadId);
    return this.#insertItems(threadId, turnId, items, texts, reserved.next_ordinal - items.length, now);
  }

  #insertItems(threadId: string, turnId: string, items: readonly NewItem[], texts: readonly string[], first: number, now: number): ItemRecord[] {
    const records: ItemRecord[] = [];
    for (const [index, item] of items.entries()) {
      const id = item.id ?? this.#ids();
      try {
        this.#sql.insertItem.run(id, threadId, turnId, first + index, item.kind, texts[index], now);
      } catch (cause) {
        throw new PlumbError('store_invalid_record', `Could not append item '${id}' (${item.kind}): ${(cause as Error).message}.`, { cause });
      }
      records.push(Object.freeze({ id, threadId, turnId, ordinal: first + index, kind: item.kind, data: JSON.parse(texts[index]!) as JsonValue, createdAt: now }));
    }
    return records;
  }

  async listItems(threadId: string, options: ListItemsOptions = {}): Promise<readonly ItemRecord[]> {
    this.#open();
    const after = options.afterOrdinal ?? 0;
    const rows = (
      options.turnId === undefined
        ? this.#sql.threadItems.all(threadId, after)
        : this.#sql.turnItems.all(threadId, options.turnId, after)
    ) as ItemRow[];
    return Promise.resolve(rows.map(toItem));
  }

  async createConfirmation(input: NewConfirmation): Promise<ConfirmationRecord> {
    this.#open();
    const argumentsText = jsonText(input.arguments, `confirmation '${input.id}'`);
    const actorText = jsonText(input.actor, `confirmation '${input.id}'`);
    this.#db.transaction(() => {
      this.#turnOrThrow(input.turnId);
      try {
        this.#sql.insertConfirmation.run(
          input.id,
          input.threadId,
          input.turnId,
          input.owner,
          actorText,
          input.callId,
          input.tool,
          argumentsText,
          input.digest,
          'pending',
          input.createdAt ?? this.#clock(),
          input.expiresAt,
        );
      } catch (cause) {
        throw new PlumbError('store_invalid_record', `A confirmation with id '${input.id}' already exists.`, { cause });
      }
    })();
    return Promise.resolve(this.#confirmationOrThrow(input.id));
  }

  #confirmationOrThrow(id: string): ConfirmationRecord {
    const row = this.#sql.getConfirmation.get(id) as ConfirmationRow | undefined;
    if (row === undefined) throw notFound('confirmation', id);
    return toConfirmation(row);
  }

  async getConfirmation(id: string): Promise<ConfirmationRecord | undefined> {
    this.#open();
    const row = this.#sql.getConfirmation.get(id) as ConfirmationRow | undefined;
    return Promise.resolve(row === undefined ? undefined : toConfirmation(row));
  }

  async pendingConfirmations(turnId: string): Promise<readonly ConfirmationRecord[]> {
    this.#open();
    return Promise.resolve((this.#sql.pendingConfirmations.all(turnId) as ConfirmationRow[]).map(toConfirmation));
  }

  async claimConfirmation(id: string, owner: string, now: number, expiredResolution: JsonValue = 'expired'): Promise<ClaimResult> {
    this.#open();
    const result = this.#db.transaction((): ClaimResult => {
      const row = this.#sql.getConfirmation.get(id) as ConfirmationRow | undefined;
      if (row === undefined) return { outcome: 'missing' };
      if (row.owner !== owner) return { outcome: 'forbidden' };
      if (row.expires_at <= now) {
        if (this.#sql.expireConfirmation.run(jsonText(expiredResolution, 'a resolution'), now, id).changes > 0) return { outcome: 'expired', confirmation: this.#confirmationOrThrow(id) };
        return { outcome: 'unavailable', confirmation: toConfirmation(row) };
      }
      // The conditional UPDATE is the claim: only one caller ever changes a pending row.
      if (this.#sql.claimConfirmation.run(id).changes === 0) return { outcome: 'unavailable', confirmation: this.#confirmationOrThrow(id) };
      return { outcome: 'claimed', confirmation: this.#confirmationOrThrow(id) };
    })();
    return Promise.resolve(result);
  }

  async resolveConfirmation(id: string, resolution: JsonValue, now: number): Promise<boolean> {
    this.#open();
    return Promise.resolve(this.#sql.resolveConfirmation.run(jsonText(resolution, 'a resolution'), now, id).changes > 0);
  }

  async expireConfirmations(now: number, resolution: JsonValue): Promise<readonly ConfirmationRecord[]> {
    this.#open();
    const text = jsonText(resolution, 'a resolution');
    const expired = this.#db.transaction(() => {
      const ids = (this.#sql.lapsedConfirmations.all(now) as { id: string }[]).map((row) => row.id);
      const out: ConfirmationRecord[] = [];
      for (const id of ids) if (this.#sql.expireConfirmation.run(text, now, id).changes > 0) out.push(this.#confirmationOrThrow(id));
      return out;
    })();
    return Promise.resolve(expired);
  }

  async close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    if (this.#owned) this.#db.close();
    return Promise.resolve();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  return new SqliteStore(options);
}

function prepare(db: Database.Database, prefix: string) {
  const threads = `${prefix}threads`;
  const turns = `${prefix}turns`;
  const items = `${prefix}items`;
  const confirmations = `${prefix}confirmations`;
  return {
    insertThread: db.prepare(
      `INSERT INTO ${threads} (id, owner, title, summary, summary_through_item_id, router_session, next_ordinal, created_at, updated_at) VALUES (?, ?, ?, NULL, NULL, NULL, 1, ?, ?)`,
    ),
    getThread: db.prepare(`SELECT * FROM ${threads} WHERE id = ?`),
    ownedThreads: db.prepare(`SELECT * FROM ${threads} WHERE owner = ? ORDER BY updated_at DESC, created_at DESC, id DESC LIMIT ?`),
    updateThread: db.prepare(
      `UPDATE ${threads} SET title = ?, summary = ?, summary_through_item_id = ?, router_session = ?, updated_at = ? WHERE id = ?`,
    ),
    touchThread: db.prepare(`UPDATE ${threads} SET updated_at = ? WHERE id = ?`),
    reserveOrdinals: db.prepare(`UPDATE ${threads} SET next_ordinal = next_ordinal + ? WHERE id = ? RETURNING next_ordinal`),
    reserveTurnOrdinals: db.prepare(
      `UPDATE ${threads} SET next_ordinal = next_ordinal + ? WHERE id = (SELECT thread_id FROM ${turns} WHERE id = ?) RETURNING id, next_ordinal`,
    ),
    deleteThread: db.prepare(`DELETE FROM ${threads} WHERE id = ?`),
    deleteItems: db.prepare(`DELETE FROM ${items} WHERE thread_id = ?`),
    deleteTurns: db.prepare(`DELETE FROM ${turns} WHERE thread_id = ?`),
    deleteConfirmations: db.prepare(`DELETE FROM ${confirmations} WHERE thread_id = ?`),
    insertTurn: db.prepare(
      `INSERT INTO ${turns} (id, thread_id, owner, request_key, input, status, failure_code, failure_message, input_tokens, output_tokens, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, 0, 0, ?, ?)`,
    ),
    getTurn: db.prepare(`SELECT * FROM ${turns} WHERE id = ?`),
    turnThread: db.prepare(`SELECT thread_id FROM ${turns} WHERE id = ?`),
    patchTurn: db.prepare(
      `UPDATE ${turns} SET status = COALESCE(?, status),
        failure_code = CASE WHEN ? = 1 THEN ? ELSE failure_code END,
        failure_message = CASE WHEN ? = 1 THEN ? ELSE failure_message END,
        input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`,
    ),
    turnByRequestKey: db.prepare(`SELECT * FROM ${turns} WHERE owner = ? AND request_key = ?`),
    activeTurn: db.prepare(`SELECT * FROM ${turns} WHERE thread_id = ? AND status IN (?, ?, ?) ORDER BY created_at DESC LIMIT 1`),
    threadTurns: db.prepare(`SELECT * FROM ${turns} WHERE thread_id = ? ORDER BY created_at, id`),
    turnsWithStatus: db.prepare(`SELECT * FROM ${turns} WHERE status = ? ORDER BY created_at, id`),
    updateTurn: db.prepare(
      `UPDATE ${turns} SET status = ?, failure_code = ?, failure_message = ?, input_tokens = ?, output_tokens = ?, updated_at = ? WHERE id = ?`,
    ),
    insertItem: db.prepare(`INSERT INTO ${items} (id, thread_id, turn_id, ordinal, kind, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    threadItems: db.prepare(`SELECT * FROM ${items} WHERE thread_id = ? AND ordinal > ? ORDER BY ordinal`),
    turnItems: db.prepare(`SELECT * FROM ${items} WHERE thread_id = ? AND turn_id = ? AND ordinal > ? ORDER BY ordinal`),
    insertConfirmation: db.prepare(
      `INSERT INTO ${confirmations} (id, thread_id, turn_id, owner, actor, call_id, tool, arguments, digest, status, created_at, expires_at, resolved_at, resolution) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
    ),
    getConfirmation: db.prepare(`SELECT * FROM ${confirmations} WHERE id = ?`),
    pendingConfirmations: db.prepare(`SELECT * FROM ${confirmations} WHERE turn_id = ? AND status = 'pending' ORDER BY created_at, id`),
    claimConfirmation: db.prepare(`UPDATE ${confirmations} SET status = 'claimed' WHERE id = ? AND status = 'pending'`),
    expireConfirmation: db.prepare(
      `UPDATE ${confirmations} SET status = 'resolved', resolution = ?, resolved_at = ? WHERE id = ? AND status = 'pending'`,
    ),
    lapsedConfirmations: db.prepare(`SELECT id FROM ${confirmations} WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at, id`),
    resolveConfirmation: db.prepare(
      `UPDATE ${confirmations} SET status = 'resolved', resolution = ?, resolved_at = ? WHERE id = ? AND status <> 'resolved'`,
    ),
  };
}

function toThread(row: ThreadRow): ThreadRecord {
  return Object.freeze({
    id: row.id,
    owner: row.owner,
    title: row.title,
    summary: row.summary,
    summaryThroughItemId: row.summary_through_item_id,
    routerSession: row.router_session,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}

function toTurn(row: TurnRow): TurnRecord {
  return Object.freeze({
    id: row.id,
    threadId: row.thread_id,
    owner: row.owner,
    requestKey: row.request_key,
    input: row.input,
    status: row.status as TurnStatus,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    usage: Object.freeze({ inputTokens: Number(row.input_tokens), outputTokens: Number(row.output_tokens) }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}

function toItem(row: ItemRow): ItemRecord {
  if (!isItemKind(row.kind)) throw new PlumbError('store_invalid_record', `Stored item '${row.id}' has unknown kind '${row.kind}'.`);
  return Object.freeze({
    id: row.id,
    threadId: row.thread_id,
    turnId: row.turn_id,
    ordinal: Number(row.ordinal),
    kind: row.kind,
    data: JSON.parse(row.data) as JsonValue,
    createdAt: Number(row.created_at),
  });
}

function toConfirmation(row: ConfirmationRow): ConfirmationRecord {
  return Object.freeze({
    id: row.id,
    threadId: row.thread_id,
    turnId: row.turn_id,
    owner: row.owner,
    actor: JSON.parse(row.actor) as JsonValue,
    callId: row.call_id,
    tool: row.tool,
    arguments: JSON.parse(row.arguments) as JsonValue,
    digest: row.digest,
    status: row.status as ConfirmationStatus,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    resolvedAt: row.resolved_at === null ? null : Number(row.resolved_at),
    resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as JsonValue),
  });
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(patch) as (keyof T)[]) if (patch[key] !== undefined) out[key] = patch[key];
  return out;
}
