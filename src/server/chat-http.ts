import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import { languageProblem } from './chat-language.js';
import { messageContextOf } from './message-context.js';
import type { MessageContext, MessageContextFields } from './message-context.js';
import { csrfCookieName, csrfHeaderName, csrfTokenValid, issueCsrfToken } from './csrf.js';
import { threadJson } from './thread-json.js';
import type { ChatDeps } from './chat-deps.js';
import { fieldsOf, textOf } from './engine-port.js';
import type { EngineEvent } from './engine-port.js';
import { appendSetCookie, ensureSession, rateScope } from './request-actor.js';
import { readCookie, serializeCookie } from './signed-value.js';
import { corkEachTick } from './tick-cork.js';
import { publicError, relayTurn } from './turn-relay.js';
import type { ErrorEventBody } from './turn-relay.js';

/** `POST {url}`, `{url}stream/`, `{url}confirm/`, `GET {url}threads/…`, `GET {url}csrf/`. */
export function registerChatHttp(fastify: FastifyInstance, deps: ChatDeps): void {
  const { url } = deps;
  const csrf = csrfGuard(deps);

  // The token is bound to the session, so this is where an anonymous client's session starts.
  fastify.get(`${url}csrf/`, async (request, reply) => {
    if (!(await ensureSession(request, reply, deps.signer, deps.sessionBudget))) return reply;
    const token = issueCsrfToken(deps.signer, request.actor) ?? '';
    appendSetCookie(reply, serializeCookie(csrfCookieName, token));
    return { token, header: 'X-CSRF-Token' };
  });

  fastify.post(`${url}`, { onRequest: csrf }, async (request, reply) => {
    const turn = await admitTurn(request, reply, deps, 'http');
    if (turn === undefined) return reply;
    const { actor } = request;
    let confirmationToReject: string | undefined;
    let queued = false;
    // The engine ends a turn that needs a confirmation (canConfirm: false); the guard below covers an engine that pauses anyway.
    // A message the busy thread queued is answered at once (202): it runs later, and its answer lands in the thread.
    const outcome = await withinBudget(deps, actor, request.ip, () => relayTurn(
      () => untilQueued(stopAtConfirmation(deps.engine.send({ ...turn, actor, requestKey: requestKeyOf(request, deps), canConfirm: false }), (id) => (confirmationToReject = id)), () => (queued = true)),
      relayOptions(request, deps, 'http', () => undefined),
    ));
    if (confirmationToReject !== undefined) rejectInBackground(deps, actor, confirmationToReject);
    if (queued) reply.status(202);
    return envelope(outcome);
  });

  fastify.post(`${url}stream/`, { onRequest: csrf }, async (request, reply) => {
    const turn = await admitTurn(request, reply, deps, 'sse');
    if (turn === undefined) return reply;
    await streamEvents(request, reply, deps, () => deps.engine.send({ ...turn, actor: request.actor, requestKey: requestKeyOf(request, deps) }));
    return reply;
  });

  fastify.post(`${url}confirm/`, { onRequest: csrf }, async (request, reply) => {
    const body = request.body as { confirmation_id?: unknown; confirmed?: unknown } | null;
    if (body === null || typeof body !== 'object' || typeof body.confirmation_id !== 'string' || body.confirmation_id.trim() === '' || typeof body.confirmed !== 'boolean') {
      return reply.status(400).send(errorEnvelope({ type: 'error', code: 'bad_event', message: "Send {\"confirmation_id\": \"<id from confirm_mutation>\", \"confirmed\": true|false}." }));
    }
    if (!(await allowed(request, reply, deps, 'confirm'))) return reply;
    const limited = await rateLimited(request, deps, true);
    if (limited !== undefined) return reply.status(429).header('retry-after', String(limited.retry_after_seconds)).send(errorEnvelope(limited));
    const { actor } = request;
    const confirmationId = body.confirmation_id;
    const confirmed = body.confirmed;
    const outcome = await withinBudget(deps, actor, request.ip, () => relayTurn(() => deps.engine.confirm({ actor, confirmationId, confirmed }), relayOptions(request, deps, 'confirm', () => undefined)));
    return envelope(outcome);
  });

  // An anonymous client without a session has no threads yet: nothing to look up.
  const sessionless = (actor: Actor): boolean => actor.kind === 'anonymous' && actor.sessionKey === undefined;
  fastify.get<{ Querystring: { cursor?: string; limit?: string; q?: string } }>(`${url}threads/`, async (request, reply) => {
    if (!(await allowed(request, reply, deps, 'threads'))) return reply;
    if (sessionless(request.actor)) return { threads: [], next: null };
    // Pages with a cursor, and a search (`q`), where the engine has them (docs/protocol.md, "Threads and pages").
    const threads = deps.engine.threads;
    if (threads.page === undefined) return { threads: (await threads.list(request.actor, { limit: 100 })).map(threadJson) };
    const { cursor, limit, q } = request.query;
    if (limit !== undefined && !/^\d+$/.test(limit)) return reply.status(400).send({ error: { code: 'bad_cursor', message: "'limit' is a whole number from 1 to 100." } });
    try {
      const page = await threads.page({ actor: request.actor, ...(cursor === undefined ? {} : { cursor }), ...(limit === undefined ? {} : { limit: Number(limit) }), ...(q === undefined ? {} : { search: q }) });
      return { ...page, threads: page.threads.map(threadJson) };
    } catch (error) {
      if (!(error instanceof PlumbError && error.code === 'bad_cursor')) throw error;
      return reply.status(400).send({ error: { code: error.code, message: error.message } });
    }
  });

  fastify.get<{ Params: { id: string } }>(`${url}threads/:id`, async (request, reply) => {
    if (!(await allowed(request, reply, deps, 'threads'))) return reply;
    const notFound = (): FastifyReply => reply.status(404).send({ error: { code: 'not_found', message: 'No thread of yours has this id.' } });
    if (sessionless(request.actor)) return notFound();
    try {
      return { thread: request.params.id, items: await deps.engine.threads.history({ actor: request.actor, threadId: request.params.id }) };
    } catch (error) {
      if (publicError(error, () => undefined).code !== 'thread_not_found') throw error;
      return notFound();
    }
  });

  for (const path of [`${url}stream/`, `${url}confirm/`]) deps.guard(path, ['POST']);
  for (const path of [`${url}threads/`, `${url}threads/:id`, `${url}csrf/`]) deps.guard(path, ['GET']);
}

/**
 * The CSRF check of a POST chat route. CSRF guards what a browser sends on its own (cookies); a
 * token the host's authenticate recognized cannot be sent by a cross-site page, so such a request
 * needs no CSRF pair.
 */
export function csrfGuard(deps: ChatDeps): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    if (request.credential === 'token') return;
    const header = request.headers[csrfHeaderName];
    if (!csrfTokenValid(deps.signer, request.actor, readCookie(request.headers.cookie, csrfCookieName), Array.isArray(header) ? header[0] : header)) {
      await reply.status(403).send({ error: { code: 'csrf_failed', message: `Send the ${csrfCookieName} cookie and the same value in the X-CSRF-Token header; GET ${deps.publicUrl}csrf/ issues both.` } });
    }
  };
}

/** What a chat request asks the engine for, once admitted. */
interface AdmittedTurn extends MessageContext {
  readonly text: string;
  readonly threadId?: string;
  readonly language?: string;
  readonly newThread?: boolean;
}

/** Validates the text, thread and language, the permission and the request budget; answers and returns undefined when refused. */
async function admitTurn(request: FastifyRequest, reply: FastifyReply, deps: ChatDeps, transport: 'http' | 'sse'): Promise<AdmittedTurn | undefined> {
  const body = request.body as ({ text?: unknown; thread?: unknown; language?: unknown; new_thread?: unknown } & MessageContextFields) | null;
  if (body === null || typeof body !== 'object' || typeof body.text !== 'string' || body.text.trim() === '') {
    await reply.status(400).send(errorEnvelope({ type: 'error', code: 'bad_message', message: "Send {\"text\": \"<your question>\"} with a non-blank string 'text'." }));
    return undefined;
  }
  if (body.thread !== undefined && body.thread !== null && typeof body.thread !== 'string') {
    await reply.status(400).send({ error: { code: 'bad_request', message: "'thread' must be a thread id string." } });
    return undefined;
  }
  if (body.new_thread !== undefined && typeof body.new_thread !== 'boolean') {
    await reply.status(400).send({ error: { code: 'bad_request', message: "'new_thread' must be true or false." } });
    return undefined;
  }
  const language = languageProblem(body.language);
  if (language !== undefined) {
    await reply.status(400).send({ error: { code: 'bad_request', message: language } });
    return undefined;
  }
  const page = messageContextOf(body);
  if (!('fields' in page)) {
    await reply.status(400).send(errorEnvelope({ type: 'error', code: page.code, message: page.message }));
    return undefined;
  }
  if (!(await allowed(request, reply, deps, transport))) return undefined;
  const limited = await rateLimited(request, deps, true);
  if (limited !== undefined) {
    if (transport === 'sse') {
      await streamEvents(request, reply, deps, () => once(limited));
      return undefined;
    }
    await reply.status(429).header('retry-after', String(limited.retry_after_seconds)).send(errorEnvelope(limited));
    return undefined;
  }
  deps.audit.message({ transport, actor: request.actor, ...(typeof body.thread === 'string' ? { threadId: body.thread } : {}), role: 'user', text: body.text });
  const thread = threadOf(body);
  return {
    text: body.text,
    ...(thread === undefined ? {} : { threadId: thread }),
    ...(typeof body.language === 'string' ? { language: body.language } : {}),
    ...(body.new_thread === true ? { newThread: true } : {}),
    ...page.fields,
  };
}

export async function allowed(request: FastifyRequest, reply: FastifyReply, deps: ChatDeps, transport: 'http' | 'sse' | 'confirm' | 'threads'): Promise<boolean> {
  if (deps.permission === undefined) return true;
  // A permission callable that throws is an unexpected failure: 500 internal_error, detail to the log.
  const ok = await deps.permission(request.actor, { transport, path: request.url, ip: request.ip });
  if (ok) return true;
  await reply.status(403).send({ error: { code: 'permission_denied', message: 'You may not use the chat service.' } });
  return false;
}

/** A refusal when a request (and, when `tokens`, a token) budget is spent. */
export async function rateLimited(request: { actor: Actor; ip: string }, deps: ChatDeps, takeRequest: boolean): Promise<ErrorEventBody | undefined> {
  const scope = rateScope(request.actor, request.ip, deps.anonymousBy);
  const tokens = await deps.rateLimiter.checkTokens(scope);
  const decision = tokens.allowed && takeRequest ? await deps.rateLimiter.takeRequest(scope) : tokens;
  if (decision.allowed) return undefined;
  if (decision.unavailable === true) return { type: 'error', code: 'rate_limit_unavailable', message: `The shared rate limits cannot be checked right now. Try again in ${decision.retryAfterSeconds} seconds.`, retry_after_seconds: decision.retryAfterSeconds };
  return { type: 'error', code: 'rate_limited', message: `Chat rate limit exceeded (${decision.budget}). Try again in ${decision.retryAfterSeconds} seconds.`, retry_after_seconds: decision.retryAfterSeconds };
}

function relayOptions(request: FastifyRequest, deps: ChatDeps, transport: string, send: (event: EngineEvent) => void): Parameters<typeof relayTurn>[1] {
  const scope = rateScope(request.actor, request.ip, deps.anonymousBy);
  return {
    transport,
    actor: request.actor,
    audit: deps.audit,
    send,
    report: (error) => deps.report(error, { source: transport }),
    ...(deps.tokenBudget !== undefined ? { refusal: () => deps.tokenBudget?.refusal() } : { onUsage: (usage: { inputTokens: number; outputTokens: number }) => deps.rateLimiter.recordUsage(scope, usage) }),
  };
}

/** Runs a relay inside the actor's token-budget scope (when budgets are enforced per round). */
export function withinBudget<T>(deps: ChatDeps, actor: Actor, ip: string, fn: () => Promise<T>): Promise<T> {
  return deps.tokenBudget === undefined ? fn() : deps.tokenBudget.run(rateScope(actor, ip, deps.anonymousBy), fn);
}

/**
 * Streams events as `data: <json>\n\n`. Headers (and the session cookie) go out before the first
 * event. A client that leaves stops receiving; the turn still runs to the end. A client that does
 * not read is cut off once `maxBufferedBytes` are queued for it, never allowed to grow memory.
 */
export async function streamEvents(request: FastifyRequest, reply: FastifyReply, deps: ChatDeps, events: () => AsyncIterable<EngineEvent>): Promise<void> {
  const raw = reply.raw;
  const headers: Record<string, string | string[]> = {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  };
  const cookies = reply.getHeader('set-cookie');
  if (cookies !== undefined) headers['set-cookie'] = Array.isArray(cookies) ? cookies.map(String) : [String(cookies)];
  reply.hijack();
  const cork = corkEachTick(raw);
  // The headers (with the session cookie) leave in the same write as the first event, not in a
  // write of their own while the turn waits for its slot or its first commit; a turn with nothing
  // to say for `sseHeadersWithinMs` sends them alone, so the client knows its stream is open.
  raw.writeHead(200, headers);
  let open = true;
  let headersTimer: NodeJS.Timeout | undefined = setTimeout(() => {
    headersTimer = undefined;
    if (open) raw.flushHeaders();
  }, deps.sseHeadersWithinMs);
  const headersGo = (): void => {
    if (headersTimer === undefined) return;
    clearTimeout(headersTimer);
    headersTimer = undefined;
  };
  const gone = (): void => {
    open = false;
  };
  raw.once('close', gone);
  try {
    await withinBudget(deps, request.actor, request.ip, () => relayTurn(events, {
      ...relayOptions(request, deps, 'sse', () => undefined),
      send: (event) => {
        if (!open) return;
        headersGo();
        cork.hold();
        raw.write(`data: ${JSON.stringify(event)}\n\n`);
        if (raw.writableLength <= deps.maxBufferedBytes) return;
        cork.flush();
        if (raw.writableLength > deps.maxBufferedBytes) {
          open = false;
          raw.destroy();
        }
      },
    }));
  } finally {
    headersGo();
    raw.off('close', gone);
    if (open) raw.end();
  }
}

/** Plain HTTP answers a queued message at once: the events end with `queued` (the stream's reader leaves; the message stays queued). */
async function* untilQueued(events: AsyncIterable<EngineEvent>, queued: () => void): AsyncIterable<EngineEvent> {
  for await (const event of events) {
    yield event;
    if (event.type === 'queued') {
      queued();
      return;
    }
  }
}

/** Plain HTTP cannot pause: a confirmation request becomes `confirmation_required_transport`. */
async function* stopAtConfirmation(events: AsyncIterable<EngineEvent>, pending: (id: string) => void): AsyncIterable<EngineEvent> {
  for await (const event of events) {
    if (event.type === 'confirm_mutation') {
      const fields = fieldsOf(event);
      pending(textOf(fields.id));
      yield {
        type: 'error',
        code: 'confirmation_required_transport',
        message: `'${textOf(fields.mutation)}' needs your confirmation, which plain HTTP cannot ask for. Retry over SSE (POST …/stream/) or WebSocket.`,
        ...(typeof fields.thread_id === 'string' ? { thread_id: fields.thread_id } : {}),
        ...(typeof fields.turn_id === 'string' ? { turn_id: fields.turn_id } : {}),
      } as EngineEvent;
      continue;
    }
    yield event;
  }
}

/** Resolves the write the HTTP client cannot confirm as rejected, so that its thread is not left waiting. */
function rejectInBackground(deps: ChatDeps, actor: Actor, confirmationId: string): void {
  const drain = async (): Promise<void> => {
    for await (const event of deps.engine.confirm({ actor, confirmationId, confirmed: false })) void event;
  };
  drain().catch((error: unknown) => deps.report(error, { source: 'http_reject' }));
}

async function* once(event: ErrorEventBody): AsyncIterable<EngineEvent> {
  await Promise.resolve();
  yield event;
}

function envelope(outcome: { events: readonly EngineEvent[]; answer: string; threadId: string | undefined }): { events: readonly EngineEvent[]; answer: string; thread?: string } {
  return { events: outcome.events, answer: outcome.answer, ...(outcome.threadId === undefined ? {} : { thread: outcome.threadId }) };
}

function errorEnvelope(event: ErrorEventBody): { error: { code: string; message: string }; events: ErrorEventBody[]; answer: string } {
  return { error: { code: event.code, message: event.message }, events: [event], answer: '' };
}

function threadOf(body: unknown): string | undefined {
  const thread = (body as { thread?: unknown }).thread;
  return typeof thread === 'string' && thread !== '' ? thread : undefined;
}

export function requestKeyOf(request: FastifyRequest, deps: ChatDeps): string {
  const header = request.headers['idempotency-key'];
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && given !== '' && given.length <= 200 ? given : deps.newId();
}
