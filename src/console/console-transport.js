// The console's network, and nothing else: every request and socket the page makes goes through
// the object `createTransport` returns, so that the page (console.js) never calls fetch or
// WebSocket itself.
//
// Turns stream over a WebSocket, or over SSE when a socket cannot open or the person asks for it.
// Everything on the chat routes over HTTP (SSE turns, confirmations, answers, retries, stop, the
// queue, the threads and their live views) goes through `plumb-agent/client`, served beside this file at
// ./client/; the socket and the console's own two routes (its session, its sign-in) are the only
// requests made here. Chat events are handed to `onEvent` as they arrive.
import { createPlumbClient, isPlumbClientError } from './client/index.js';

/** A refusal or a broken stream, as the error event the page renders (a rate limit keeps its wait). */
function errorEvent(error) {
  return {
    type: 'error',
    code: error.code,
    message: error.message,
    ...(error.retryAfterSeconds === undefined ? {} : { retry_after_seconds: error.retryAfterSeconds }),
  };
}

/**
 * @param {{ chatUrl: string, csrf: string, onEvent: (event: object) => void, onTransport: (name: 'websocket' | 'sse') => void, onDisconnect: () => void }} options
 */
export function createTransport(options) {
  const { chatUrl, csrf, onEvent, onTransport, onDisconnect } = options;
  let socket;
  let mode = 'sse';
  let wantSocket = true;
  let retryTimer;
  let everOpened = false;
  // The live view the page follows, `{ thread, after, onView, onEnd }`: over the socket while it is
  // open (`subscribe` frames), else over SSE (`client.subscribe`), resumed from `after`, the last
  // seq, on every new connection. Whether the server serves views at all the session says
  // (`views_enabled`); failing that, the socket's answer to a subscription tells.
  let view;
  let viewsServed;
  let stopSse;
  // The console's base path and the page's CSRF token; the browser keeps the cookies.
  const client = createPlumbClient({ chatPath: chatUrl, csrfToken: csrf });

  /** Runs a client call; a refusal it throws becomes the error event the server would have sent. */
  const reporting = async (call) => {
    try {
      await call();
    } catch (error) {
      if (!isPlumbClientError(error)) throw error;
      onEvent(errorEvent(error));
    }
  };

  /** Hands an SSE answer's events to the page; resolves `{ ended: true, turn }`, the last turn they named. */
  const relay = async (events) => {
    let turn;
    await reporting(async () => {
      for await (const event of await events()) {
        if (event.turn_id) turn = event.turn_id;
        onEvent(event);
      }
    });
    return { ended: true, turn };
  };
  /** What a socket's send resolves: its events come as frames. */
  const streaming = { ended: false };

  // The console's own routes, beside the chat protocol (which the client speaks).
  const post = (path, body) =>
    fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify(body) });

  function useSse() {
    mode = 'sse';
    onTransport('sse');
    subscribe();
  }

  function subscribe() {
    stopSse?.();
    stopSse = undefined;
    const current = view;
    if (current === undefined) return;
    if (socketOpen()) {
      socket.send(JSON.stringify({ type: 'subscribe', thread: current.thread, ...(current.after === undefined ? {} : { after: current.after }) }));
      return;
    }
    if (viewsServed === false || (viewsServed === undefined && everOpened)) {
      void Promise.resolve().then(() => view === current && current.onEnd());
      return;
    }
    const controller = new AbortController();
    stopSse = () => controller.abort();
    void (async () => {
      try {
        // The client resumes a dropped connection (and an overflow) from the last seq by itself.
        for await (const event of client.subscribe(current.thread, { signal: controller.signal, ...(current.after === undefined ? {} : { after: current.after }) })) viewEvent(event);
      } catch {
        // No views here (the route is absent): the page shows what its own streams bring.
      }
      if (!controller.signal.aborted && view === current) current.onEnd();
    })();
  }

  /** A view event (it carries `seq`) for the page; after an overflow a socket subscribes again from the last seq applied. */
  function viewEvent(event) {
    if (view === undefined || event.thread_id !== view.thread) return;
    const overflow = event.type === 'resubscribe' && event.reason === 'overflow';
    if (!overflow) view.after = event.seq;
    view.onView(event);
    if (overflow && socketOpen()) subscribe();
  }

  function connect() {
    clearTimeout(retryTimer);
    if (!wantSocket) return useSse();
    let opened = false;
    const next = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${chatUrl}`);
    next.addEventListener('open', () => {
      opened = true;
      everOpened = true;
      socket = next;
      mode = 'websocket';
      onTransport('websocket');
      subscribe();
    });
    next.addEventListener('message', (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        return; // not an event
      }
      if (typeof event.seq === 'string') {
        viewsServed = true;
        return viewEvent(event);
      }
      if (event.type === 'error' && event.code === 'views_unavailable') {
        viewsServed = false;
        return view?.onEnd();
      }
      onEvent(event);
    });
    next.addEventListener('close', () => {
      if (socket === next) socket = undefined;
      if (!opened) return useSse();
      onDisconnect();
      if (wantSocket) retryTimer = setTimeout(connect, 1000);
    });
  }

  const socketOpen = () => mode === 'websocket' && socket?.readyState === WebSocket.OPEN;

  return {
    connect,
    /** Streams over SSE from now on (`false`: back to the WebSocket). */
    preferSse(on) {
      wantSocket = !on;
      if (on) {
        socket?.close();
        useSse();
      } else connect();
    },
    /**
     * Sends a turn: `{ text, language, thread?, newThread? }`. Resolves `{ ended: true, turn }` once
     * an SSE stream is over (no more events will come for it), `{ ended: false }` when a socket carries it.
     */
    async sendTurn(turn) {
      if (!socketOpen()) return relay(() => client.stream(turn));
      const { newThread, ...rest } = turn;
      socket.send(JSON.stringify({ type: 'message', ...rest, ...(newThread ? { new_thread: true } : {}) }));
      return streaming;
    },
    /** Answers a confirmation; resolves as `sendTurn` does. */
    async sendConfirmation(id, confirmed) {
      if (!socketOpen()) return relay(async () => (await client.confirm(id, confirmed)).events);
      socket.send(JSON.stringify({ type: 'confirm', confirmation_id: id, confirmed }));
      return streaming;
    },
    /** Answers a question with `{ text }` or `{ choice }`; resolves as `sendTurn` does. */
    async answerQuestion(id, answer) {
      if (!socketOpen()) return relay(async () => (await client.answerQuestion(id, answer)).events);
      socket.send(JSON.stringify({ type: 'answer', question_id: id, ...answer }));
      return streaming;
    },
    /**
     * Runs a stopped or failed turn again, or (`regenerate`) gives the latest completed one a new
     * answer; resolves as `sendTurn` does (a refusal is a `not_retryable` or `not_regenerable` event with its `reason`).
     */
    async retry(turn, regenerate = false) {
      if (!socketOpen()) return relay(() => client.retry({ turn, regenerate }));
      socket.send(JSON.stringify({ type: 'retry', turn, ...(regenerate ? { regenerate: true } : {}) }));
      return streaming;
    },
    /** Stops the thread's active turn at once; its stream ends with the `cancelled` error. Rejects with the refusal. */
    cancel: (thread) => client.cancel(thread),
    /** Changes a queued message; each resolves `{ thread, queue }`, the queue after it, or rejects with the refusal. */
    editQueued: (id, text, expectedText) => client.editQueued(id, text, { expectedText }),
    removeQueued: (id) => client.removeQueued(id),
    sendQueuedNow: (id) => client.sendQueuedNow(id),
    /**
     * Follows a thread's live view from `after` (the last journal ordinal shown; none: from now):
     * each event goes to `onView`, and a dropped connection resumes from the last seq. `onEnd` is
     * called (never before this returns) when the server serves no views. Returns the function that
     * stops following.
     */
    follow(thread, after, onView, onEnd) {
      const current = { thread, after: after === undefined ? undefined : String(after), onView, onEnd };
      view = current;
      subscribe();
      return () => {
        if (view !== current) return;
        view = undefined;
        stopSse?.();
        stopSse = undefined;
        if (socketOpen()) socket.send(JSON.stringify({ type: 'unsubscribe', thread }));
      };
    },
    /** The actor's threads, most recent first (an empty list when the request fails). */
    async listThreads() {
      return client.threads().then((threads) => threads ?? [], () => []);
    },
    /** A thread's journal items, or undefined when it is not the actor's. */
    async readThread(id) {
      return client.thread(id).then((answer) => answer.items ?? [], () => undefined);
    },
    /** The console's view of the actor and the server. */
    async readSession() {
      const response = await fetch('/console/session', { credentials: 'same-origin' });
      const session = await response.json().catch(() => ({}));
      if (typeof session.views_enabled === 'boolean') viewsServed = session.views_enabled;
      return session;
    },
    /** Signs in as `user` (null: anonymous); resolves `{ ok, error? }`. */
    async signIn(user) {
      const response = await post('/console/login', { user });
      if (response.ok) return { ok: true };
      return { ok: false, error: (await response.json().catch(() => ({}))).error ?? { code: `http_${response.status}`, message: response.statusText } };
    },
    get name() {
      return mode;
    },
  };
}
