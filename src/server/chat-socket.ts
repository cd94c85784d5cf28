import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Actor } from '../core/index.js';
import { rateLimited, withinBudget } from './chat-http.js';
import { languageProblem } from './chat-language.js';
import type { ChatDeps } from './chat-deps.js';
import type { EngineEvent } from './engine-port.js';
import { originAllowed } from './origins.js';
import { rateScope } from './request-actor.js';
import { corkEachTick } from './tick-cork.js';
import { relayTurn } from './turn-relay.js';
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
 * in, events out as JSON frames. One turn and one pending confirmation per socket. Closing the
 * socket never cancels a turn: it runs to the end in the journal.
 */
export function registerChatSocket(fastify: FastifyInstance, deps: ChatDeps): void {
  const checkOrigin = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.headers.upgrade?.toLowerCase() !== 'websocket') return;
    const origin = request.headers.origin;
    if (!originAllowed(origin, request.headers.host, deps.allowedOrigins)) {
      await reply.status(403).send({ error: { code: 'origin_not_allowed', message: `Origin '${origin ?? '(none)'}' may not open a chat socket.` } });
    }
  };
  fastify.route({
    method: 'GET',
    url: deps.url,
    onRequest: checkOrigin,
    handler: async (_request, reply) =>
      reply.status(405).header('allow', 'POST').send({ error: { code: 'method_not_allowed', message: 'This route answers POST, or GET with a WebSocket upgrade.' } }),
    wsHandler: (socket, request) => {
      void runSocket(socket, request, deps).catch((error: unknown) => {
        deps.report(error, { source: 'websocket' });
        if (socket.readyState === socket.OPEN) socket.close(closeCodes.startupFailure, 'server error');
      });
    },
  });
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
  let thread: string | undefined;
  let alive = true;

  // The upgraded connection's socket (absent for injected sockets in tests).
  const cork = corkEachTick(request.raw.socket);
  const send = (event: EngineEvent | ErrorEventBody): void => {
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

  const run = (events: () => AsyncIterable<EngineEvent>, transport: string): void => {
    turnRunning = true;
    const scope = rateScope(actor, request.ip);
    withinBudget(deps, actor, request.ip, () => relayTurn(events, {
      transport,
      actor,
      audit: deps.audit,
      send,
      report: (error) => deps.report(error, { source: 'websocket' }),
      ...(deps.tokenBudget !== undefined ? { refusal: () => deps.tokenBudget?.refusal() } : { onUsage: (usage: { inputTokens: number; outputTokens: number }) => deps.rateLimiter.recordUsage(scope, usage) }),
    }))
      .then((outcome) => {
        if (outcome.threadId !== undefined) thread = outcome.threadId;
        pending = outcome.pendingConfirmation;
      })
      .catch((error: unknown) => deps.report(error, { source: 'websocket' }))
      .finally(() => (turnRunning = false));
  };

  socket.on('message', (data, isBinary) => {
    void (async () => {
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (bytes.length > deps.bodyLimitBytes) {
        return fail('payload_too_large', `The frame is larger than ${deps.bodyLimitBytes} bytes (the server's bodyLimitBytes setting). Send a shorter message.`);
      }
      const frame = parseFrame(isBinary ? undefined : bytes.toString('utf8'));
      if (frame === undefined) return fail('bad_event', 'Send {"type":"message","text":"…"} or {"type":"confirm","confirmation_id":"…","confirmed":true|false}.');
      if (frame.type === 'message') {
        if (turnRunning) return fail('turn_in_progress', 'A turn is still streaming on this socket; wait for its done or error event.');
        if (pending !== undefined) return fail('confirmation_pending', `Confirm or reject '${pending}' before sending another message.`);
        if (typeof frame.text !== 'string' || frame.text.trim() === '') return fail('bad_message', "Send a non-blank string 'text'.");
        const languageRefused = languageProblem(frame.language);
        if (languageRefused !== undefined) return fail('bad_event', languageRefused);
        const language = typeof frame.language === 'string' ? frame.language : undefined;
        if (frame.new_thread !== undefined && typeof frame.new_thread !== 'boolean') return fail('bad_event', "'new_thread' must be true or false.");
        const newThread = frame.new_thread === true && (typeof frame.thread !== 'string' || frame.thread === '');
        if (newThread) thread = undefined;
        if (frame.thread !== undefined && typeof frame.thread === 'string' && frame.thread !== '') thread = frame.thread;
        turnRunning = true;
        const limited = await rateLimited({ actor, ip: request.ip }, deps, true);
        if (limited !== undefined) {
          turnRunning = false;
          return send(limited);
        }
        deps.audit.message({ transport: 'websocket', actor, ...(thread === undefined ? {} : { threadId: thread }), role: 'user', text: frame.text });
        const text = frame.text;
        const threadId = thread;
        return run(() => deps.engine.send({ actor, text, requestKey: deps.newId(), ...(threadId === undefined ? {} : { threadId }), ...(language === undefined ? {} : { language }), ...(newThread ? { newThread } : {}) }), 'websocket');
      }
      // confirm
      if (typeof frame.confirmation_id !== 'string' || frame.confirmation_id === '' || typeof frame.confirmed !== 'boolean') {
        return fail('bad_event', 'A confirm frame needs a string confirmation_id and a boolean confirmed.');
      }
      if (turnRunning) return fail('turn_in_progress', 'A turn is still streaming on this socket; wait for its done or error event.');
      turnRunning = true;
      const limited = await rateLimited({ actor, ip: request.ip }, deps, true);
      if (limited !== undefined) {
        turnRunning = false;
        return send(limited);
      }
      const confirmationId = frame.confirmation_id;
      const confirmed = frame.confirmed;
      if (pending === confirmationId) pending = undefined;
      return run(() => deps.engine.confirm({ actor, confirmationId, confirmed }), 'websocket');
    })().catch((error: unknown) => {
      turnRunning = false;
      deps.report(error, { source: 'websocket' });
      fail('chat_error', 'Something went wrong while answering. Please try again.');
    });
  });
}

interface Frame {
  readonly type: 'message' | 'confirm';
  readonly text?: unknown;
  readonly thread?: unknown;
  readonly language?: unknown;
  readonly new_thread?: unknown;
  readonly confirmation_id?: unknown;
  readonly confirmed?: unknown;
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
  return type === 'message' || type === 'confirm' ? (value as Frame) : undefined;
}
