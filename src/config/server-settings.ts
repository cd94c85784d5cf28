import { z } from 'zod';
import type { Actor } from '../core/index.js';

/** What `permission` may be: a function, or a module path whose default (or `permission`) export is one. */
export type PermissionCallable = (actor: Actor, scope: PermissionScope) => boolean | Promise<boolean>;

/** What the permission callable is told about the request. */
export interface PermissionScope {
  /** `http`, `sse`, `confirm`, `threads` or `websocket`. */
  readonly transport: 'http' | 'sse' | 'confirm' | 'threads' | 'websocket';
  readonly path: string;
  readonly ip: string;
}

/** One sanitized audit record, as the audit logger receives it. */
export type AuditRecord = Readonly<Record<string, unknown>>;
export type AuditLoggerFn = (record: AuditRecord) => void;

const limit = z.int().nullable();

/** Request and token budgets per actor scope; null, 0 or a negative number sets no budget. */
export const rateLimitSchema = z
  .strictObject({
    /** Requests (turns and confirmations) per window. */
    requests: limit.default(60),
    /** Length of every budget's window. Seconds. */
    windowSeconds: z.int().positive().default(3600),
    /** Input plus output tokens per window. */
    tokens: limit.default(null),
    /** Input tokens per window. */
    inputTokens: limit.default(null),
    /** Output tokens per window. */
    outputTokens: limit.default(null),
    /** New anonymous sessions per client address per window (a client that drops its cookies gets no more). */
    sessions: limit.default(60),
    /** What an anonymous visitor's budgets are counted by: `address` (the client address, so a NAT shares one) or `session` (its signed session cookie; a client without one by its address). */
    anonymousBy: z.enum(['address', 'session']).default('address'),
    /** When the shared counters (`redis`) cannot be reached within `redisTimeoutMs`: `closed` refuses with rate_limit_unavailable, `open` admits and logs a warning. */
    whenUnavailable: z.enum(['closed', 'open']).default('closed'),
  })
  .prefault({});

export const auditLevels = ['off', 'messages', 'all'] as const;
export type AuditLevel = (typeof auditLevels)[number];

export const auditSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    /** `messages`: user and assistant messages; `all`: also tool calls and results. */
    level: z.enum(auditLevels).default('off'),
    /** A function or a module path exporting one; null: JSON lines through pino on stdout. */
    logger: z.union([z.custom<AuditLoggerFn>((value) => typeof value === 'function', 'expected a function'), z.string().min(1)]).nullable().default(null),
    /** Largest serialized tool result kept in an audit record. Characters. */
    maxResultSize: z.int().positive().default(4096),
    /** A value whose key contains one of these (case-insensitive) is replaced, at any depth. */
    redactFields: z.array(z.string().min(1)).default(['password', 'secret', 'token', 'key', 'credential']),
  })
  .prefault({});

/** `/chat`, `chat/`, `//chat//` all become `/chat/`; empty or `/` stays `/`. */
export function normalizeUrl(url: string): string {
  const trimmed = url.replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/** The chat service's own settings (the engine's, the tools' and the app's are composed in `schema.ts`). */
export const serverSettingsShape = {
  /** Register the chat routes (HTTP, SSE, WebSocket, threads, CSRF). */
  enabled: z.boolean().default(true),
  /** Base path of every chat transport; slashes are normalized. */
  url: z
    .string()
    .refine((value) => /^[A-Za-z0-9/_.~-]*$/.test(value), 'use letters, digits and - _ . ~ / only')
    .transform(normalizeUrl)
    .default('/chat/'),
  /** `scripted:FILE`, `openai`, `anthropic`, `ollama`, `gemini`; null: no model (the router still answers). */
  provider: z.string().min(1).nullable().default(null),
  /** Read by the selected provider (model, baseUrl, apiKey, timeouts…). */
  providerConfig: z.record(z.string(), z.unknown()).default({}),
  /** A function `(actor, scope) => boolean` or a module path exporting one; null: no endpoint-level denial. */
  permission: z.union([z.custom<PermissionCallable>((value) => typeof value === 'function', 'expected a function'), z.string().min(1)]).nullable().default(null),
  /** WebSocket origins accepted (`https://app.example`); null or empty: only the server's own host. */
  allowedOrigins: z
    .array(z.string().refine((value) => value === '*' || /^https?:\/\/[^/\s]+$/.test(value), "expected '*' or an origin such as https://app.example (scheme and host, no path)"))
    .nullable()
    .default(null),
  /** Threads not updated for this long are removed by `plumb cleanup`. Hours. */
  ttlHours: z.number().positive().default(24),
  rateLimit: rateLimitSchema,
  /** `redis://` (or `rediss://`) URL: rate limits and token budgets shared by every process, and turns followed across processes. Null: counters in this process's memory. */
  redis: z
    .string()
    .refine((value) => /^rediss?:\/\/\S+$/.test(value), 'expected a redis:// or rediss:// URL')
    .nullable()
    .default(null),
  /** Longest wait for Redis: connecting, and each command (a rate-limit decision, a publish), this process's own event-loop delay included. Milliseconds. */
  redisTimeoutMs: z.int().min(10).max(60_000).default(2000),
  audit: auditSchema,
  /** The host's router words (a vocabulary YAML file, relative to the working directory); null: the generated words only. */
  vocabulary: z.string().min(1).nullable().default(null),
  /** The host's router rulebook (a YAML file); null: the router's defaults. */
  rulebook: z.string().min(1).nullable().default(null),
  /** How long the distinct data values the router reads by stay fresh (they are also re-read after a write). Seconds. */
  valuesTtlSeconds: z.number().positive().default(300),
  /** A field with more distinct values than this is not indexed for the router. */
  maxValuesPerField: z.int().positive().max(10_000).default(50),
  /** `normal`: a committed step survives a process crash; `full`: also a power loss, at a cost per commit (docs/store.md). */
  durability: z.enum(['normal', 'full']).default('normal'),
  /**
   * Whether the client address is read from `X-Forwarded-For`: `false` (the connection's own address),
   * `true` (every hop is trusted: the leftmost address), or the trusted proxies' addresses and CIDR
   * ranges (`10.0.0.0/8`, `loopback`): the address is then the first hop from the right not among them.
   */
  trustProxy: z.union([z.boolean(), z.array(z.string().min(1)).min(1)]).default(false),
  /** Let `/graphql` answer `__schema` and `__type`: each actor introspects only the managers it may read. */
  graphqlIntrospection: z.boolean().default(true),
  /** TCP port of `plumb serve` (0 picks a free one). */
  port: z.int().min(0).max(65_535).default(8787),
  /** Interface `plumb serve` listens on. */
  host: z.string().min(1).default('127.0.0.1'),
  /** Largest accepted request body. Bytes. */
  bodyLimitBytes: z.int().positive().default(64 * 1024),
  /** Key that signs session and login cookies (32+ characters); null: a random key per process. */
  sessionSecret: z.string().min(32).nullable().default(null),
  /** Bytes queued on one WebSocket before the client is closed as a slow consumer (4008). */
  websocketMaxBufferedBytes: z.int().positive().default(1024 * 1024),
  /** Interval between WebSocket pings; a socket that missed the previous pong is closed. Seconds. */
  websocketPingSeconds: z.number().positive().default(30),
  /** An SSE response's headers go out with its first event, or alone once it waited this long for one. Seconds. */
  sseHeadersWithinSeconds: z.number().nonnegative().default(2),
  /** A live thread view gathers a streaming answer's text drafts this long before sending them (other events go at once). Milliseconds. */
  viewCoalesceMs: z.int().min(0).max(1000).default(25),
  /** Batches sent to one view observer and not yet read by it; one more and it is told to resubscribe. */
  viewMaxPendingBatches: z.int().positive().default(64),
  /** Bytes of those batches; past it, the same. */
  viewMaxPendingBytes: z.int().positive().default(1024 * 1024),
  /** Journal items a resumed view may have missed and still get replayed; a larger gap answers resubscribe with a fresh view. */
  viewMaxReplayItems: z.int().positive().default(10_000),
  /** Threads one WebSocket may subscribe to at once. */
  viewsPerSocket: z.int().positive().max(1000).default(16),
  /** Longest wait for another process to stop a turn that a cancel asked it to stop; past it, 504 cancel_timeout. Milliseconds. */
  cancelTimeoutMs: z.int().min(100).max(600_000).default(10_000),
} as const;
