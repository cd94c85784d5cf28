import type { App } from '../data/index.js';
import type { Authenticate, PlumbConfig, RunningPlumb } from '../config/index.js';
import type { AuditOptions } from './audit.js';
import type { ConsoleInfo, LoginDirectory } from './console-routes.js';
import type { ChatEngine } from './engine-port.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { ReadinessSources } from './readiness.js';
import type { RateLimiter } from './rate-limiter.js';
import type { TokenBudget } from './token-budget.js';
import type { ThreadFollowing } from './thread-follow-route.js';

/** What Plumb's routes are built from, wherever they are served: `plumbChat`, `createServer`, `createFetchHandler`. */
export interface PlumbChatOptions {
  readonly app: App;
  /** The engine behind the chat routes; without one, only /healthz, /graphql and the console are served. */
  readonly engine?: ChatEngine;
  /** The parsed configuration (`parseConfig`); default: every default. */
  readonly settings?: PlumbConfig;
  /** Who is asking; default: the `authenticate` setting, else everyone is anonymous (or signed in on the console). */
  readonly authenticate?: Authenticate;
  /** Named users the console may sign in as (kept in a signed `plumb_login` cookie). */
  readonly login?: LoginDirectory;
  /** What the console's settings panel shows (provider, model). */
  readonly consoleInfo?: ConsoleInfo;
  /** Serve the console at `console/` under the routes' base. Default true. */
  readonly console?: boolean;
  /** Largest accepted request body in bytes; overrides `settings.bodyLimitBytes`. */
  readonly bodyLimit?: number;
  /** Where rate-limit counters live. Default: in memory. */
  readonly rateLimitStore?: RateLimitStore;
  /** The limiter (default: one over `rateLimitStore` from `settings.rateLimit`). */
  readonly rateLimiter?: RateLimiter;
  /**
   * When the engine's provider is `tokenBudget.wrap(provider)` over the same limiter: token usage
   * is recorded round by round and the next round of a turn is refused once a budget is spent.
   * Without it, usage is recorded from each turn's `done` and checked before the next turn.
   */
  readonly tokenBudget?: TokenBudget;
  /**
   * What `GET /readyz` checks (docs/protocol.md, "Readiness"): the journal, Redis, and the engine's
   * startup recovery (default: the engine's `ready`, when it has one). `plumb serve` gives all three.
   */
  readonly readiness?: ReadinessSources;
  /** Serves `GET {url}threads/:id/follow/` (a thread's items as they are committed, by any process on the journal). */
  readonly following?: ThreadFollowing;
  /** Audit overrides (a destination for the default pino logger, or a logger function). */
  readonly audit?: Pick<AuditOptions, 'destination' | 'logger'>;
  /** Unexpected failures, with where they happened; also logged. */
  readonly onError?: (error: unknown, context: { readonly source: string }) => void;
  /** Secret for signed cookies; default: `settings.sessionSecret`, else random per process. */
  readonly secret?: string;
  /** Directory the module-path settings (`authenticate`, `permission`, audit `logger`) are resolved from. */
  readonly cwd?: string;
  /** What those modules get when they import Plumb by name (the CLI hands in the running Plumb). */
  readonly runningPlumb?: RunningPlumb;
  readonly clock?: () => number;
}
