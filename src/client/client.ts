import { PlumbClientError, isPlumbClientError } from './client-error.js';
import { createCookieJar } from './cookie-jar.js';
import type { CancelOutcome, JsonValue, PlumbEvent, ThreadItem, ThreadRecord, ThreadViewEvent, TurnAnswer, TurnInput } from './protocol.js';
import { newRequestKey } from './request-keys.js';
import type { ExtraRoutes, RouteContext } from './routes.js';
import { readSse } from './sse.js';

type Headers = Readonly<Record<string, string>>;

export interface PlumbClientOptions {
  /** The server's origin (and mount prefix), e.g. `http://127.0.0.1:8787`. Default: this page's origin. */
  readonly baseUrl?: string;
  /** The chat routes' base path (the `url` setting). Default `/chat/`. */
  readonly chatPath?: string;
  /** Headers for every request (an `Authorization` bearer token, say), or a function giving them. */
  readonly headers?: Headers | (() => Headers | Promise<Headers>);
  /**
   * The CSRF token for cookie sessions: a value (the console's `<meta name="plumb-csrf">`), or
   * `false` for none (bearer tokens need none). Default: fetched from `{chat}csrf/` before the first POST.
   */
  readonly csrfToken?: string | false;
  /** Default `same-origin`; `include` for a page on another origin that relies on the server's cookies. */
  readonly credentials?: 'omit' | 'same-origin' | 'include';
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Keep the cookies the server sets and send them back. Default: outside a browser only (a browser does it itself). */
  readonly cookies?: boolean;
  /** A host's own routes for cancel and subscribe, in place of the protocol's. */
  readonly routes?: ExtraRoutes;
}

/** A thread's queue after a change to it (`{chat}queue/…`), head first. */
export interface QueueAnswer {
  readonly thread: string;
  readonly queue: readonly { readonly id: string; readonly text: string; readonly position: number; readonly steer: boolean }[];
}

/** A turn being streamed: its events as they come, and its request key (resend it to `resume`). */
export interface TurnStream extends AsyncIterable<PlumbEvent> {
  readonly requestKey: string;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface PlumbClient {
  /** One turn over `POST {chat}`, answered whole. It cannot pause for a confirmation: use `stream` for writes. */
  send(input: TurnInput, options?: CallOptions): Promise<TurnAnswer>;
  /** One turn over SSE (`POST {chat}stream/`), event by event. */
  stream(input: TurnInput, options?: CallOptions): TurnStream;
  /** Answers a held write (`confirm_mutation`'s id); resolves with the resumed turn's events. */
  confirm(confirmationId: string, confirmed: boolean, options?: CallOptions): Promise<TurnAnswer>;
  /** Answers a turn's question (a `question` event's id) with free text or a choice's id (`POST {chat}answer/`); resolves with the resumed turn's events. */
  answerQuestion(questionId: string, answer: { readonly text?: string; readonly choice?: string }, options?: CallOptions): Promise<TurnAnswer>;
  /** Changes a queued message (a `queued` event's `queue_id`): its text (`expectedText`: only while it still says that), out of the queue, or sent now; resolves with the thread's queue after it. */
  editQueued(queueId: string, text: string, options?: CallOptions & { readonly expectedText?: string }): Promise<QueueAnswer>;
  removeQueued(queueId: string, options?: CallOptions): Promise<QueueAnswer>;
  sendQueuedNow(queueId: string, options?: CallOptions): Promise<QueueAnswer>;
  /** Answers the router's question (a `plan` with outcome `ask`): the reply is the next turn of the same thread. */
  answer(thread: string, text: string, options?: CallOptions & Pick<TurnInput, 'language'>): TurnStream;
  /** The same turn again by its request key: a finished turn replays from the journal, a running one is followed to its end. */
  resume(input: TurnInput & { readonly requestKey: string }, options?: CallOptions): TurnStream;
  /** Stops a thread's active turn (`POST {chat}cancel/`): immediately (default), or gracefully; resolves with the turn it stopped. */
  cancel(thread: string, options?: CallOptions & { readonly mode?: 'immediate' | 'graceful' }): Promise<CancelOutcome>;
  /**
   * Runs a stopped or failed turn again (`POST {chat}retry/`), by its id or as its thread's latest;
   * refused with `not_retryable` and a `reason` where that is not safe. `regenerate: true` gives the
   * latest completed turn a new answer (the old one stays, superseded; a write waits for a new
   * confirmation), refused with `not_regenerable` and a `reason` for any other turn.
   */
  retry(target: { readonly turn?: string; readonly thread?: string; readonly requestKey?: string; readonly regenerate?: boolean }, options?: CallOptions): TurnStream;
  /**
   * A live view of a thread (`GET {chat}threads/:id/view/`): a `view` of it now, then its items and
   * turn changes as they are committed, each with a `seq`. With `after` (a `seq`), what came after
   * it is replayed first. A broken connection or an overflowed view resumes by itself from the last
   * `seq` (`reconnect: false` ends instead); the subscription ends when `signal` aborts.
   */
  subscribe(thread: string, options?: CallOptions & { readonly after?: string; readonly reconnect?: boolean }): AsyncIterable<ThreadViewEvent>;
  /** A page of the actor's threads, most recently updated first; `search` keeps those whose title or messages contain it. */
  threadPage(options?: CallOptions & { readonly cursor?: string; readonly limit?: number; readonly search?: string }): Promise<{ readonly threads: readonly ThreadRecord[]; readonly next: string | null }>;
  /** A page of a thread's items (at most 150, 512 KiB): `after` an ordinal forwards, or `before` one backwards (neither: the newest). */
  items(thread: string, options?: CallOptions & { readonly after?: number; readonly before?: number; readonly limit?: number }): Promise<{ readonly thread: string; readonly items: readonly ThreadItem[]; readonly next: number | null }>;
  /** Renames a thread; `null` gives it a title generated from its first answer or reading. */
  rename(thread: string, title: string | null, options?: CallOptions): Promise<ThreadRecord>;
  /** Deletes a thread with its journal. */
  deleteThread(thread: string, options?: CallOptions): Promise<boolean>;
  /** A new thread from one of this one's messages (an item id): through an answer, or before a person's message, whose `text` comes back to send again. */
  fork(thread: string, item: string, options?: CallOptions): Promise<{ readonly thread: ThreadRecord; readonly text?: string }>;
  /** The actor's threads, most recent first. */
  threads(options?: CallOptions): Promise<readonly Readonly<Record<string, JsonValue>>[]>;
  /** A thread and its journal items. */
  thread(id: string, options?: CallOptions): Promise<{ readonly thread: Readonly<Record<string, JsonValue>>; readonly items: readonly Readonly<Record<string, JsonValue>>[] }>;
}

function joinPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A failed response as an error: the server's envelope code when it sent one. */
async function failure(response: Response): Promise<PlumbClientError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const retry = Number(response.headers.get('retry-after'));
  const options = { status: response.status, ...(Number.isFinite(retry) && retry > 0 ? { retryAfterSeconds: retry } : {}) };
  if (typeof error?.code === 'string') return new PlumbClientError(error.code, typeof error.message === 'string' ? error.message : error.code, options);
  return new PlumbClientError('bad_response', `The server answered ${response.status} ${response.statusText}.`, options);
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function turnBody(input: TurnInput): Record<string, unknown> {
  return {
    text: input.text,
    ...(input.thread === undefined ? {} : { thread: input.thread }),
    ...(input.newThread === true ? { new_thread: true } : {}),
    ...(input.language === undefined ? {} : { language: input.language }),
    ...(input.references === undefined ? {} : { references: input.references }),
    ...(input.context === undefined ? {} : { context: input.context }),
    ...(input.supplementalContext === undefined ? {} : { supplemental_context: input.supplementalContext }),
    ...(input.timeZone === undefined ? {} : { time_zone: input.timeZone }),
  };
}

/**
 * A typed client of a Plumb server's chat protocol, for browsers and Node alike (fetch and
 * streams only, no dependencies). Cookie sessions get their CSRF token on the first POST.
 */
export function createPlumbClient(options: PlumbClientOptions = {}): PlumbClient {
  const fetcher: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const origin = options.baseUrl ?? (globalThis as { readonly location?: { readonly origin?: string } }).location?.origin ?? '';
  const chat = joinPath(origin, options.chatPath ?? '/chat/');
  const credentials = options.credentials ?? 'same-origin';
  let csrf: Promise<string | undefined> | undefined;
  const inBrowser = (globalThis as { readonly document?: unknown }).document !== undefined;
  const jar = (options.cookies ?? !inBrowser) ? createCookieJar() : undefined;

  const baseHeaders = async (): Promise<Headers> => (typeof options.headers === 'function' ? await options.headers() : (options.headers ?? {}));

  const csrfToken = (signal: AbortSignal | undefined): Promise<string | undefined> => {
    const setting = options.csrfToken;
    if (setting === false) return Promise.resolve(undefined);
    if (setting !== undefined) return Promise.resolve(setting);
    csrf ??= (async () => {
      const response = await call('csrf/', { method: 'GET', signal, csrf: false });
      if (!response.ok) throw await failure(response);
      return ((await response.json()) as { token?: string }).token;
    })();
    // A failed fetch is not kept: the next POST asks again.
    csrf.catch(() => (csrf = undefined));
    return csrf;
  };

  const call = async (path: string, init: { readonly method: string; readonly body?: unknown; readonly signal?: AbortSignal | undefined; readonly csrf?: boolean; readonly headers?: Headers }): Promise<Response> => {
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', ...(await baseHeaders()), ...(init.headers ?? {}) };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.method === 'POST' && init.csrf !== false) {
      const token = await csrfToken(init.signal);
      if (token !== undefined) headers['x-csrf-token'] = token;
    }
    // Read after the CSRF fetch: it may have set the session and CSRF cookies this request needs.
    const cookie = jar?.header();
    if (cookie !== undefined) headers.cookie = cookie;
    try {
      const response = await fetcher(joinPath(chat, path), {
        method: init.method,
        headers,
        credentials,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      });
      jar?.keep(response);
      return response;
    } catch (error) {
      throw new PlumbClientError('request_failed', `Could not reach ${joinPath(chat, path)}: ${(error as Error).message}`, { cause: error });
    }
  };

  const events = async function* (response: Response): AsyncGenerator<PlumbEvent> {
    if (!response.ok) throw await failure(response);
    if (response.body === null || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      throw new PlumbClientError('bad_response', 'The chat stream did not answer text/event-stream.', { status: response.status });
    }
    for await (const value of readSse(response.body)) yield value as PlumbEvent;
  };

  const json = async <T>(response: Response): Promise<T> => {
    if (!response.ok) throw await failure(response);
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw new PlumbClientError('bad_response', 'The server answered something that is not JSON.', { cause: error, status: response.status });
    }
  };

  const context: RouteContext = { request: (path, init) => call(path, init), events: (response) => events(response) };

  const stream = (input: TurnInput, callOptions: CallOptions = {}): TurnStream => {
    const requestKey = input.requestKey ?? newRequestKey();
    return {
      requestKey,
      async *[Symbol.asyncIterator]() {
        yield* events(await call('stream/', { method: 'POST', body: turnBody(input), signal: callOptions.signal, headers: { 'idempotency-key': requestKey } }));
      },
    };
  };

  const threadPath = (thread: string, rest = ''): string => `threads/${encodeURIComponent(thread)}/${rest}`;
  const query = (values: Readonly<Record<string, string | number | undefined>>): string => {
    const given = Object.entries(values).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
    return given.length === 0 ? '' : `?${given.map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join('&')}`;
  };

  /** The protocol's view route, resumed from the last `seq` after a broken connection or an overflow. */
  const view = (thread: string, callOptions: CallOptions & { readonly after?: string; readonly reconnect?: boolean }): AsyncIterable<ThreadViewEvent> => ({
    async *[Symbol.asyncIterator]() {
      const signal = callOptions.signal;
      const reconnect = callOptions.reconnect !== false;
      let after = callOptions.after;
      let failures = 0;
      for (;;) {
        try {
          const response = await call(threadPath(thread, `view/${query({ after })}`), { method: 'GET', signal });
          if (!response.ok) throw await failure(response);
          for await (const value of events(response)) {
            failures = 0;
            const event = value as ThreadViewEvent;
            const seq = (event as { seq?: unknown }).seq;
            // An overflow's view is newer than what was missed: resuming goes on from the last seq applied, and the journal replays.
            if (typeof seq === 'string' && !(event.type === 'resubscribe' && event.reason === 'overflow')) after = seq;
            yield event;
            // Nothing follows a deletion: no reconnect to a thread that is gone.
            if (event.type === 'thread_deleted') return;
          }
        } catch (error) {
          if (signal?.aborted === true) return;
          if (!reconnect || !isPlumbClientError(error) || error.code !== 'request_failed') throw error;
        }
        if (signal?.aborted === true || !reconnect) return;
        failures += 1;
        await pause(Math.min(5000, 100 * 2 ** Math.min(failures, 6)), signal);
      }
    },
  });

  return {
    send: async (input, callOptions = {}) =>
      json<TurnAnswer>(await call('', { method: 'POST', body: turnBody(input), signal: callOptions.signal, headers: { 'idempotency-key': input.requestKey ?? newRequestKey() } })),
    stream,
    confirm: async (confirmationId, confirmed, callOptions = {}) => json<TurnAnswer>(await call('confirm/', { method: 'POST', body: { confirmation_id: confirmationId, confirmed }, signal: callOptions.signal })),
    answerQuestion: async (questionId, answer, callOptions = {}) =>
      json<TurnAnswer>(await call('answer/', { method: 'POST', body: { question_id: questionId, ...(answer.choice === undefined ? {} : { choice: answer.choice }), ...(answer.text === undefined ? {} : { text: answer.text }) }, signal: callOptions.signal })),
    editQueued: async (queueId, text, callOptions = {}) =>
      json<QueueAnswer>(await call('queue/edit/', { method: 'POST', body: { queue_id: queueId, text, ...(callOptions.expectedText === undefined ? {} : { expected_text: callOptions.expectedText }) }, signal: callOptions.signal })),
    removeQueued: async (queueId, callOptions = {}) => json<QueueAnswer>(await call('queue/remove/', { method: 'POST', body: { queue_id: queueId }, signal: callOptions.signal })),
    sendQueuedNow: async (queueId, callOptions = {}) => json<QueueAnswer>(await call('queue/send-now/', { method: 'POST', body: { queue_id: queueId }, signal: callOptions.signal })),
    answer: (thread, text, callOptions = {}) => stream({ text, thread, ...(callOptions.language === undefined ? {} : { language: callOptions.language }) }, callOptions),
    resume: (input, callOptions) => stream(input, callOptions),
    cancel: async (thread, callOptions = {}) => {
      const mode = callOptions.mode ?? 'immediate';
      if (options.routes?.cancel !== undefined) return (await options.routes.cancel(context, { thread, mode, signal: callOptions.signal })) ?? { thread, turn: null };
      return json<CancelOutcome>(await call('cancel/', { method: 'POST', body: { thread, mode }, signal: callOptions.signal }));
    },
    retry: (target, callOptions = {}) => {
      const requestKey = target.requestKey ?? newRequestKey();
      const body = { ...(target.turn !== undefined ? { turn: target.turn } : { thread: target.thread }), ...(target.regenerate === true ? { regenerate: true } : {}) };
      return {
        requestKey,
        async *[Symbol.asyncIterator]() {
          yield* events(await call('retry/', { method: 'POST', body, signal: callOptions.signal, headers: { 'idempotency-key': requestKey } }));
        },
      };
    },
    subscribe: (thread, callOptions = {}) => {
      const route = options.routes?.subscribe;
      if (route !== undefined) return route(context, { thread, after: callOptions.after, signal: callOptions.signal });
      return view(thread, callOptions);
    },
    threadPage: async (callOptions = {}) =>
      json(await call(`threads/${query({ cursor: callOptions.cursor, limit: callOptions.limit, q: callOptions.search })}`, { method: 'GET', signal: callOptions.signal })),
    items: async (thread, callOptions = {}) =>
      json(await call(threadPath(thread, `items/${query({ after: callOptions.after, before: callOptions.before, limit: callOptions.limit })}`), { method: 'GET', signal: callOptions.signal })),
    rename: async (thread, title, callOptions = {}) => (await json<{ thread: ThreadRecord }>(await call(threadPath(thread, 'rename/'), { method: 'POST', body: { title }, signal: callOptions.signal }))).thread,
    deleteThread: async (thread, callOptions = {}) => (await json<{ deleted: boolean }>(await call(threadPath(thread, 'delete/'), { method: 'POST', signal: callOptions.signal }))).deleted,
    fork: async (thread, item, callOptions = {}) => json(await call(threadPath(thread, 'fork/'), { method: 'POST', body: { item }, signal: callOptions.signal })),
    threads: async (callOptions = {}) => (await json<{ threads: Readonly<Record<string, JsonValue>>[] }>(await call('threads/', { method: 'GET', signal: callOptions.signal }))).threads,
    thread: async (id, callOptions = {}) => json(await call(`threads/${encodeURIComponent(id)}`, { method: 'GET', signal: callOptions.signal })),
  };
}
