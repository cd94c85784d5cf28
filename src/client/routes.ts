import type { CancelOutcome, PlumbEvent, ThreadViewEvent } from './protocol.js';

/** What a route that the client does not drive itself is given: a fetch bound to the client's base URL, headers and credentials. */
export interface RouteContext {
  /** `path` is relative to the chat base (`{chat}`), e.g. `cancel/`. */
  readonly request: (path: string, init: { readonly method: string; readonly body?: unknown; readonly signal?: AbortSignal | undefined }) => Promise<Response>;
  /** The events of an SSE response. */
  readonly events: (response: Response) => AsyncIterable<PlumbEvent>;
}

/**
 * Routes a host serves in its own way. The protocol has its own for cancelling a turn
 * (`POST {chat}cancel/`) and following a thread (`GET {chat}threads/:id/view/`), which the client
 * uses by default; a host that serves them elsewhere plugs its own in here.
 */
export interface ExtraRoutes {
  readonly cancel?: (context: RouteContext, request: { readonly thread: string; readonly mode: 'immediate' | 'graceful'; readonly signal?: AbortSignal | undefined }) => Promise<CancelOutcome | void>;
  readonly subscribe?: (context: RouteContext, request: { readonly thread: string; readonly after?: string | undefined; readonly signal?: AbortSignal | undefined }) => AsyncIterable<ThreadViewEvent>;
}
