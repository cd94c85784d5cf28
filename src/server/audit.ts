import { pino } from 'pino';
import type { DestinationStream } from 'pino';
import type { Actor } from '../core/index.js';
import type { AuditLevel, AuditLoggerFn, AuditRecord } from '../config/index.js';

export interface AuditOptions {
  readonly enabled: boolean;
  readonly level: AuditLevel;
  /** Receives each sanitized record; default: JSON lines through pino. */
  readonly logger?: AuditLoggerFn | null;
  readonly maxResultSize: number;
  readonly redactFields: readonly string[];
  /** Where the default pino logger writes (default stdout). */
  readonly destination?: DestinationStream;
  readonly clock?: () => number;
}

/** What a transport tells the audit trail; each method is a no-op below its level. */
export interface Audit {
  readonly level: AuditLevel;
  message(entry: { readonly transport: string; readonly actor: Actor; readonly threadId?: string; readonly role: 'user' | 'assistant'; readonly text: string }): void;
  tool(entry: { readonly transport: string; readonly actor: Actor; readonly threadId?: string; readonly kind: 'tool_call' | 'tool_result' | 'confirm_mutation'; readonly id: string; readonly name: string; readonly payload: unknown }): void;
  /** A run's diagnostic record (the engine's `turnDiagnostics`): already allow-listed, logged at every level but `off`. */
  turn(entry: { readonly actor: Actor; readonly threadId: string; readonly turnId: string; readonly record: Readonly<Record<string, unknown>> }): void;
  /**
   * A host's read permission that failed (`permission_error`): the person saw a generic refusal, the
   * record holds what failed (the error's cause). Logged at every level but `off`.
   */
  permissionFailure(entry: { readonly actor?: Actor; readonly threadId?: string; readonly source: string; readonly error: unknown }): void;
}

export const redactedValue = '[redacted]';

/** Replaces, at any depth, every value whose key contains one of `terms` (case-insensitive). */
export function redact(value: unknown, terms: readonly string[]): unknown {
  const lowered = terms.map((term) => term.toLowerCase());
  const walk = (node: unknown, depth: number): unknown => {
    if (depth > 64) return '[too deep]';
    if (Array.isArray(node)) return node.map((child) => walk(child, depth + 1));
    if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        const lower = key.toLowerCase();
        out[key] = lowered.some((term) => lower.includes(term)) ? redactedValue : walk(child, depth + 1);
      }
      return out;
    }
    return node;
  };
  return walk(value, 0);
}

/** Serializes and cuts to `max` characters, saying so; short values come back unchanged. */
export function truncateForAudit(value: unknown, max: number): { value: unknown; truncated: boolean } {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
  if (text.length <= max) return { value, truncated: false };
  return { value: text.slice(0, max), truncated: true };
}

export function createAudit(options: AuditOptions): Audit {
  const level: AuditLevel = options.enabled ? options.level : 'off';
  if (level === 'off') return { level, message: () => undefined, tool: () => undefined, turn: () => undefined, permissionFailure: () => undefined };
  const clock = options.clock ?? Date.now;
  let sink = options.logger ?? undefined;
  if (sink === undefined) {
    const logger = pino({ name: 'plumb-audit', base: null, timestamp: false }, options.destination ?? pino.destination(1));
    sink = (record) => logger.info(record);
  }
  const emit = sink;
  const who = (actor: Actor): string => (actor.kind === 'user' ? `user:${actor.id}` : actor.sessionKey === undefined ? 'anonymous' : 'session');
  return {
    level,
    message(entry) {
      emit({ event: 'chat_message', at: new Date(clock()).toISOString(), transport: entry.transport, actor: who(entry.actor), thread_id: entry.threadId ?? null, role: entry.role, text: entry.text });
    },
    tool(entry) {
      if (level !== 'all') return;
      const cleaned = redact(entry.payload, options.redactFields);
      const bounded = entry.kind === 'tool_result' ? truncateForAudit(cleaned, options.maxResultSize) : { value: cleaned, truncated: false };
      emit({
        event: entry.kind,
        at: new Date(clock()).toISOString(),
        transport: entry.transport,
        actor: who(entry.actor),
        thread_id: entry.threadId ?? null,
        id: entry.id,
        name: entry.name,
        [entry.kind === 'tool_result' ? 'result' : 'args']: bounded.value,
        ...(bounded.truncated ? { truncated: true } : {}),
      } satisfies AuditRecord);
    },
    turn(entry) {
      emit({ ...entry.record, event: 'turn_diagnostics', at: new Date(clock()).toISOString(), actor: who(entry.actor), thread_id: entry.threadId, turn_id: entry.turnId });
    },
    permissionFailure(entry) {
      const { error } = entry;
      const cause: unknown = error instanceof Error ? error.cause : undefined;
      const detail = truncateForAudit(cause instanceof Error ? cause.message : String(cause ?? error), options.maxResultSize);
      emit({
        event: 'permission_error',
        at: new Date(clock()).toISOString(),
        actor: entry.actor === undefined ? null : who(entry.actor),
        thread_id: entry.threadId ?? null,
        source: entry.source,
        message: error instanceof Error ? error.message : String(error),
        detail: detail.value,
        ...(detail.truncated ? { truncated: true } : {}),
      } satisfies AuditRecord);
    },
  };
}
