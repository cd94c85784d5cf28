import type { Audit } from './audit.js';
import type { CancelTurn } from './cancel-anywhere.js';
import type { ChatEngine } from './engine-port.js';
import type { MethodGuard } from './method-guard.js';
import type { RateLimiter } from './rate-limiter.js';
import type { AnonymousScope, SessionBudget } from './request-actor.js';
import type { PermissionCallable } from '../config/index.js';
import type { Signer } from './signed-value.js';
import type { TokenBudget } from './token-budget.js';
import type { ThreadViews } from './thread-views.js';

/** What the chat routes share, built once per mount. */
export interface ChatDeps {
  /** The chat routes' base, relative to the instance they are registered on (`/chat/`). */
  readonly url: string;
  /** The same base as clients reach it, under the mount's prefix (`/assistant/chat/`), for messages. */
  readonly publicUrl: string;
  readonly engine: ChatEngine;
  /** Stops a thread's turn (`POST {url}cancel/`, the `cancel` frame): wherever it runs when the server follows threads, else in this process. Absent for an engine that cannot cancel. */
  readonly cancel: CancelTurn | undefined;
  readonly signer: Signer;
  readonly permission: PermissionCallable | undefined;
  readonly rateLimiter: RateLimiter;
  /** What anonymous budgets are counted by (`rateLimit.anonymousBy`). */
  readonly anonymousBy: AnonymousScope;
  /** New anonymous sessions per client address. */
  readonly sessionBudget: SessionBudget;
  /** Answers the methods a route does not serve with 405. */
  readonly guard: MethodGuard;
  /** When the engine's provider is `tokenBudget.wrap(…)`: usage is recorded per round and rounds refused in the turn. */
  readonly tokenBudget: TokenBudget | undefined;
  readonly audit: Audit;
  readonly allowedOrigins: readonly string[] | null;
  /** Bytes queued for one client (SSE response or WebSocket) before it is cut off. */
  readonly maxBufferedBytes: number;
  /** The largest request body or WebSocket frame the chat routes take (`bodyLimitBytes`). */
  readonly bodyLimitBytes: number;
  readonly pingIntervalMs: number;
  /** How long an SSE response waits for its first event before sending its headers alone. */
  readonly sseHeadersWithinMs: number;
  readonly newId: () => string;
  /** Live thread views (`GET {url}threads/:id/view/`, the `subscribe` frame): present when the server follows threads (`following`). */
  readonly views: ThreadViews | undefined;
  /** Threads one WebSocket may subscribe to at once (`viewsPerSocket`). */
  readonly viewsPerSocket: number;
  /** Unexpected failures: to the error hook and the log, never to the client. */
  readonly report: (error: unknown, context: { readonly source: string }) => void;
}
