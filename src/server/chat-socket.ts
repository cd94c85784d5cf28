import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { isPlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import { rateLimited, withinBudget } from './chat-http.js';
import { languageProblem } from './chat-language.js';
import { messageContextOf } from './message-context.js';
import type { MessageContextFields } from './message-context.js';
import type { ChatDeps } from './chat-deps.js';
import { fieldsOf, textOf } from './engine-port.js';
import type { EngineEvent } from './engine-port.js';
import { originAllowed } from './origins.js';
import { allowHeader, sendMethodNotAllowed } from './method-guard.js';
import { ensureSession, rateScope } from './request-actor.js';
import { corkEachTick } from './tick-cork.js';
import { relayTurn } from './turn-relay.js';
import { socketExtras, socketExtraTypes } from './socket-views.js';
import { handleQueueFrame, queueFrameTypes } from './socket-queue.js';
import type { SocketExtraFrame } from './socket-views.js';
import type { ErrorEventBody } from './turn-relay.js';

/** WebSocket close codes this server uses. */
export const closeCodes = {
  /** The permission callable refused the actor. */
  permissionDenied: 4403,
  /** The client did not read; its send buffer passed the bound. */
  slowConsumer: 4008,
  /** The socket failed while starting. */
  startupFailure: 1011,
} as const;

/**
 * The largest frame ws reads, in multiples of `bodyLimitBytes`: a frame over the limit but under
 * this is answered with `payload_too_large` and the socket stays open; a larger one is cut off by
 * ws with close 1009 before it is buffered whole.
 */
const frameCeilingFactor = 4;

export function frameCeiling(bodyLimitBytes: number): number {
  return bodyLimitBytes * frameCeilingFactor;
}

/**
 * WebSocket `{url}`: `{"type":"message","text"}` and `{"type":"confirm","confirmation_id","confirmed"}`
 * in (and `answer`, the `queue_*` frames, socket-queue.ts), events out as JSON frames. Turns run
 * side by side; a message to a busy thread is the engine's to queue. Closing the socket never
 * cancels a turn: it runs to the end in the journal.
 */
export function registerChatSocket(fastify: FastifyInstance, deps: ChatDeps): void {
  // Before the upgrade: the origin, then (for an anonymous client without one) a session from the address's budget.
  const admitSocket = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.headers.upgrade?.toLowerCase() !== 'websocket') return;
    if (!originAllowed(request.headers.origin, request.headers.host, deps.allowedOrigins)) {
      await reply.status(403).send({ error: { code: 'origin_not_allowed', message: 'This page’s origin may not open a chat socket (the server’s allowedOrigins setting).' } });
      return;
    }
    await ensureSession(request, reply, deps.signer, deps.sessionBudget);
  };
  fastify.route({
    method: 'GET',
    url: deps.url,
    onRequest: admitSocket,
    handler: async (_request, reply) => sendMethodNotAllowed(reply, allowHeader(['GET', 'POST']), 'GET here opens a WebSocket (send the Upgrade header); a turn over HTTP is a POST.'),
    wsHandler: (socket, request) => {
      void runSocket(socket, request, deps).catch((error: unknown) => {
        deps.report(error, { source: 'websocket' });
        if (socket.readyState === socket.OPEN) socket.close(closeCodes.startupFailure, 'server error');
      });
    },
  });
  deps.guard(deps.url, ['GET', 'POST']);
}

/**
 * @fastify/websocket's `errorHandler` for Plumb's sockets. A protocol error of the client's (a
 * frame over the ceiling, bad UTF-8…) is one ws already answers with its close code (1009, 1007…):
 * the close frame goes out and the rest of the frame is read and dropped until the client closes,
 * so that the client sees the code. Terminating here instead would reset a connection that still
 * has unread bytes, and the client would see 1006. Anything else ends the socket.
 */
export function socketErrorHandler(error: Error & { code?: unknown }, socket: WebSocket): void {
  if (typeof error.code === 'string' && error.code.startsWith('WS_ERR_')) return;
  socket.terminate();
}

async function runSocket(socket: WebSocket, request: FastifyRequest, deps: ChatDeps): Promise<void> {
  const actor: Actor = request.actor;
  if (deps.permission !== undefined) {
    // A permission callable that throws is a startup failure (1011), reported by runSocket's caller.
    const ok = await deps.permission(actor, { transport: 'websocket', path: request.url, ip: request.ip });
    if (!ok) {
      socket.close(closeCodes.permissionDenied, 'permission denied');
      return;
    }
  }
  let turnRunning = false;
  let pending: string | undefined;
  // When the pending confirmation lapses: past it the engine has resolved it as expired, and the socket takes messages again.
  let pendingUntil = Number.POSITIVE_INFINITY;
  let thread: string | undefined;
  let alive = true;
  // Messages are admitted one at a time, in the order sent: the next waits until the engine has begun
  // (or queued) the one before and named its thread, so a message after a `new_thread` one joins that thread behind it.
  let admitted: Promise<void> = Promise.resolve();

  // The upgraded connection's socket (absent for injected sockets in tests).
  const cork = corkEachTick(request.raw.socket);
  const send = (event: EngineEvent | ErrorEventBody): void => {
    if (event.type === 'confirm_mutation') {
      const expiresAt = Date.parse(textOf(fieldsOf(event).expires_at));
      pendingUntil = Number.isNaN(expiresAt) ? Number.POSITIVE_INFINITY : expiresAt;
    }
    if (socket.readyState !== socket.OPEN) return;
    cork.hold();
    socket.send(JSON.stringify(event));
    if (socket.bufferedAmount <= deps.maxBufferedBytes) return;
    cork.flush();
    if (socket.bufferedAmount > deps.maxBufferedBytes) {
      // A consumer that does not read: close it rather than hold its backlog in memory.
      socket.close(closeCodes.slowConsumer, 'slow consumer');
      setTimeout(() => socket.terminate(), 5000).unref();
    }
  };
  const fail = (code: string, message: string): void => send({ type: 'error', code, message });

  const ping = setInterval(() => {
    if (!alive) {
      socket.terminate();
      return;
    }
    alive = false;
    socket.ping();
  }, deps.pingIntervalMs);
  ping.unref();
  socket.on('pong', () => (alive = true));
  socket.once('close', () => clearInterval(ping));
  // Live views and cancel (socket-views.ts): frames beside the socket's turns.
  const extras = socketExtras(socket, request.raw.socket, deps, actor, send, () => thread);
  socket.once('close', () => extras.close());

  // `exclusive`: a retry holds the socket's turn slot; messages, confirmations and answers run side by side (the engine queues what must wait).
  const run = (events: () => AsyncIterable<EngineEvent>, transport: string, exclusive = true, onAdmitted?: () => void): void => {
    if (exclusive) turnRunning = true;
    const scope = rateScope(actor, request.ip, deps.anonymousBy);
    withinBudget(deps, actor, request.ip, () => relayTurn(events, {
      transport,
      actor,
      audit: deps.audit,
      send: (event) => {
        // The thread is the socket's as soon as its turn names it: a cancel frame sent mid-turn stops that turn.
        const threadId = fieldsOf(event).thread_id;
        if (typeof threadId === 'string' && threadId !== '') {
          thread = threadId;
          onAdmitted?.();
        }
        send(event);
      },
      report: (error) => deps.report(error, { source: 'websocket' }),
      ...(deps.tokenBudget !== undefined ? { refusal: () => deps.tokenBudget?.refusal() } : { onUsage: (usage: { inputTokens: number; outputTokens: number }) => deps.rateLimiter.recordUsage(scope, usage) }),
    }))
      .then((outcome) => {
        if (outcome.threadId !== undefined) thread = outcome.threadId;
        pending = outcome.pendingConfirmation;
      })
      .catch((error: unknown) => deps.report(error, { source: 'websocket' }))
      .finally(() => {
        if (exclusive) turnRunning = false;
        onAdmitted?.();
      });
  };
  // Past the thread's queue bound, a socket whose confirmation waits says so as before.
  const refusingPast = (events: () => AsyncIterable<EngineEvent>): (() => AsyncIterable<EngineEvent>) =>
    async function* mapped() {
      for await (const event of events()) {
        if (pending !== undefined && Date.now() >= pendingUntil) pending = undefined;
        const fields = fieldsOf(event);
        if (event.type === 'error' && fields.code === 'turn_in_progress' && pending !== undefined) {
          yield { ...(event as object), type: 'error', code: 'confirmation_pending', message: `Confirm or reject '${pending}' first: this conversation's queue is full.` } as EngineEvent;
        } else yield event;
      }
    };

  const failed = (code: string, message: string): false => {
    fail(code, message);
    return false;
  };
  /** A message frame to the engine; false when it was refused here (and so never admitted). */
  const sendMessage = async (frame: Frame, admit: () => void): Promise<boolean> => {
    if (typeof frame.text !== 'string' || frame.text.trim() === '') return failed('bad_message', "Send a non-blank string 'text'.");
    const languageRefused = languageProblem(frame.language);
    if (languageRefused !== undefined) return failed('bad_event', languageRefused);
    const language = typeof frame.language === 'string' ? frame.language : undefined;
    if (frame.new_thread !== undefined && typeof frame.new_thread !== 'boolean') return failed('bad_event', "'new_thread' must be true or false.");
    const page = messageContextOf(frame);
    if (!('fields' in page)) return failed(page.code, page.message);
    const newThread = frame.new_thread === true && (typeof frame.thread !== 'string' || frame.thread === '');
    if (newThread) thread = undefined;
    if (frame.thread !== undefined && typeof frame.thread === 'string' && frame.thread !== '') thread = frame.thread;
    const limited = await rateLimited({ actor, ip: request.ip }, deps, true);
    if (limited !== undefined) {
      send(limited);
      return false;
    }
    deps.audit.message({ transport: 'websocket', actor, ...(thread === undefined ? {} : { threadId: thread }), role: 'user', text: frame.text });
    const text = frame.text;
    const threadId = thread;
    // A message while a turn streams or waits here is the engine's to queue (its stream says `queued`, then runs it).
    run(refusingPast(() => deps.engine.send({ actor, text, requestKey: deps.newId(), ...(threadId === undefined ? {} : { threadId }), ...(language === undefined ? {} : { language }), ...(newThread ? { newThread } : {}), ...page.fields })), 'websocket', false, admit);
    return true;
  };

  socket.on('message', (data, isBinary) => {
    void (async () => {
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (bytes.length > deps.bodyLimitBytes) {
        return fail('payload_too_large', `The frame is larger than ${deps.bodyLimitBytes} bytes (the server's bodyLimitBytes setting). Send a shorter message.`);
      }
      const frame = parseFrame(isBinary ? undefined : bytes.toString('utf8'));
      if (frame === undefined) return fail('bad_event', 'Send {"type":"message","text":"…"} or {"type":"confirm","confirmation_id":"…","confirmed":true|false}.');
      if (socketExtraTypes.includes(frame.type)) return extras.handle(frame as SocketExtraFrame);
      if (queueFrameTypes.includes(frame.type)) {
        return handleQueueFrame(frame, { deps, actor, send, run: (events) => run(events, 'websocket', false), limited: () => rateLimited({ actor, ip: request.ip }, deps, true) });
      }
      if (frame.type === 'retry') {
        if (deps.engine.retry === undefined) return fail('bad_event', 'This server cannot retry turns.');
        if (frame.regenerate !== undefined && typeof frame.regenerate !== 'boolean') return fail('bad_event', '"regenerate" is true (a new answer to the latest completed turn) or false: {"type":"retry","turn":"<turn id>","regenerate":true}.');
        if (turnRunning) return fail('turn_in_progress', 'A turn is still streaming on this socket; wait for its done or error event.');
        turnRunning = true;
        const turnId = typeof frame.turn === 'string' && frame.turn !== '' ? frame.turn : await latestTurnOf(deps, actor, typeof frame.thread === 'string' && frame.thread !== '' ? frame.thread : thread);
        if (turnId === undefined) {
          turnRunning = false;
          return fail('turn_not_found', 'No turn of yours to retry: name its turn, or a thread of yours.');
        }
        const limited = await rateLimited({ actor, ip: request.ip }, deps, true);
        if (limited !== undefined) {
          turnRunning = false;
          return send(limited);
        }
        const retry = deps.engine.retry.bind(deps.engine);
        const regenerate = frame.regenerate === true;
        return run(() => retry({ actor, turnId, requestKey: deps.newId(), regenerate }), 'websocket');
      }
      if (frame.type === 'message') {
        const before = admitted;
        let admit = (): void => undefined;
        admitted = new Promise((resolve) => (admit = resolve));
        await before;
        let handedOn = false;
        try {
          handedOn = await sendMessage(frame, admit);
        } finally {
          if (!handedOn) admit();
        }
        return;
      }
      // confirm
      if (typeof frame.confirmation_id !== 'string' || frame.confirmation_id === '' || typeof frame.confirmed !== 'boolean') {
        return fail('bad_event', 'A confirm frame needs a string confirmation_id and a boolean confirmed.');
      }
      // The card stays answerable while messages stream or wait on this socket.
      const limited = await rateLimited({ actor, ip: request.ip }, deps, true);
      if (limited !== undefined) return send(limited);
      const confirmationId = frame.confirmation_id;
      const confirmed = frame.confirmed;
      if (pending === confirmationId) pending = undefined;
      return run(() => deps.engine.confirm({ actor, confirmationId, confirmed }), 'websocket', false);
    })().catch((error: unknown) => {
      turnRunning = false;
      deps.report(error, { source: 'websocket' });
      fail('chat_error', 'Something went wrong while answering. Please try again.');
    });
  });
}

/** The latest turn of one of the actor's threads (a `retry` frame that names a thread, or none: the socket's). */
async function latestTurnOf(deps: ChatDeps, actor: Actor, threadId: string | undefined): Promise<string | undefined> {
  const view = deps.engine.threads.view?.bind(deps.engine.threads);
  if (threadId === undefined || view === undefined) return undefined;
  try {
    const found = await view({ actor, threadId });
    return found.turns[found.turns.length - 1]?.id;
  } catch (error) {
    if (isPlumbError(error) && (error.code === 'thread_not_found' || error.code === 'session_required')) return undefined;
    throw error;
  }
}

interface Frame extends MessageContextFields {
  readonly type: 'message' | 'confirm' | 'retry' | 'subscribe' | 'unsubscribe' | 'cancel' | 'answer' | 'queue_edit' | 'queue_remove' | 'queue_send_now';
  readonly turn?: unknown;
  readonly text?: unknown;
  readonly thread?: unknown;
  readonly language?: unknown;
  readonly new_thread?: unknown;
  readonly confirmation_id?: unknown;
  readonly confirmed?: unknown;
  readonly regenerate?: unknown;
}

function parseFrame(text: string | undefined): Frame | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const type = (value as { type?: unknown }).type;
  return type === 'message' || type === 'confirm' || type === 'retry' || (typeof type === 'string' && (socketExtraTypes.includes(type) || queueFrameTypes.includes(type))) ? (value as Frame) : undefined;
}
