import { PlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { isItemKind } from './records.js';
import type { ConfirmationRecord, ConfirmationStatus, ItemRecord, LeaseRecord, QueuedMessage, ThreadRecord, TurnRecord, TurnStatus } from './types.js';

/** The journal's rows as SQL gives them (the SQLite and PostgreSQL stores share the columns), and the records they make. */

export interface ThreadRow {
  id: string;
  owner: string;
  title: string | null;
  summary: string | null;
  summary_through_item_id: string | null;
  router_session: string | null;
  /** Absent in a row read before migration 0004 (none is: every store migrates first). */
  title_source?: string | null;
  forked_from_thread?: string | null;
  forked_from_item?: string | null;
  created_at: number;
  updated_at: number;
}
export interface TurnRow {
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
  lease_id: string | null;
  created_at: number;
  updated_at: number;
}
export interface LeaseRow {
  id: string;
  holder: string;
  acquired_at: number;
  heartbeat_at: number;
  expires_at: number;
}
export interface ItemRow {
  thread_id: string;
  ordinal: number;
  id: string;
  turn_id: string;
  kind: string;
  data: string;
  created_at: number;
}
export interface ConfirmationRow {
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
export function toThread(row: ThreadRow): ThreadRecord {
  return Object.freeze({
    id: row.id,
    owner: row.owner,
    title: row.title,
    summary: row.summary,
    summaryThroughItemId: row.summary_through_item_id,
    routerSession: row.router_session,
    titleSource: row.title_source === 'generated' || row.title_source === 'person' ? row.title_source : null,
    forkedFrom: typeof row.forked_from_thread === 'string' && typeof row.forked_from_item === 'string' ? Object.freeze({ threadId: row.forked_from_thread, itemId: row.forked_from_item }) : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}

export function toTurn(row: TurnRow): TurnRecord {
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
    lease: row.lease_id ?? null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}

export function toLease(row: LeaseRow): LeaseRecord {
  return Object.freeze({ id: row.id, holder: row.holder, acquiredAt: Number(row.acquired_at), heartbeatAt: Number(row.heartbeat_at), expiresAt: Number(row.expires_at) });
}

export function toItem(row: ItemRow): ItemRecord {
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

export function toConfirmation(row: ConfirmationRow): ConfirmationRecord {
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

export interface QueuedRow {
  id: string;
  thread_id: string;
  owner: string;
  actor: string;
  request_key: string;
  text: string;
  language: string | null;
  steer: number | boolean;
  created_at: number | string;
  updated_at: number | string;
}

export function toQueued(row: QueuedRow): QueuedMessage {
  return Object.freeze({
    id: row.id,
    threadId: row.thread_id,
    owner: row.owner,
    actor: JSON.parse(row.actor) as JsonValue,
    requestKey: row.request_key,
    text: row.text,
    language: row.language,
    steer: row.steer === true || row.steer === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}
