import type { FastifyInstance, FastifyReply } from 'fastify';
import { isPlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import { allowed, csrfGuard, rateLimited, requestKeyOf, streamEvents } from './chat-http.js';
import { threadJson } from './thread-json.js';
import type { ChatDeps } from './chat-deps.js';
import type { EngineEvent } from './engine-port.js';
import type { ViewSink } from './thread-views.js';
import { wholeNumber } from './whole-number.js';

/**
 * Stop and retry, threads and pages, and live views over HTTP and SSE (docs/protocol.md):
 * `POST {url}cancel/`, `POST {url}retry/`, `GET {url}threads/:id/items/`, `POST {url}threads/:id/rename/`,
 * `…/delete/`, `…/fork/`, and `GET {url}threads/:id/view/`. A cancel reaches a turn running in another
 * process when the server follows threads (cancel-anywhere.ts). Every route is the actor's own: another
 * actor's thread answers `404 not_found`, exactly as one that does not exist. A route whose engine
 * part is missing (a stand-in engine without `cancel`, a server without `following` for views) is
 * not registered.
 */
export function registerThreadRoutes(fastify: FastifyInstance, deps: ChatDeps): void {
  const { url, engine } = deps;
  const csrf = csrfGuard(deps);
  const threads = engine.threads;

  const cancel = deps.cancel;
  if (cancel !== undefined) {
    fastify.post(`${url}cancel/`, { onRequest: csrf }, async (request, reply) => {
      const body = request.body as { thread?: unknown; mode?: unknown } | null;
      if (body === null || typeof body !== 'object' || typeof body.thread !== 'string' || body.thread === '' || (body.mode !== undefined && body.mode !== 'immediate' && body.mode !== 'graceful')) {
        return badRequest(reply, 'Send {"thread": "<thread id>", "mode": "immediate" | "graceful"} (mode defaults to immediate).');
      }
      if (!(await allowed(request, reply, deps, 'threads'))) return reply;
      const threadId = body.thread;
      const mode = body.mode === 'graceful' ? 'graceful' : 'immediate';
      // The request stream closes as soon as its body is read; the response closing before it was written says the client went away.
      const controller = new AbortController();
      const abortOnClose = (): void => {
        if (!reply.raw.writableEnded) controller.abort();
      };
      reply.raw.once('close', abortOnClose);
      try {
        return await owned(reply, async () => {
          const turn = await cancel({ threadId, mode, actor: request.actor, signal: controller.signal });
          return { thread: threadId, turn: turn === undefined ? null : { id: turn.id, status: turn.status, failure_code: turn.failureCode } };
        });
      } finally {
        reply.raw.off('close', abortOnClose);
      }
    });
    deps.guard(`${url}cancel/`, ['POST']);
  }

  const retry = engine.retry?.bind(engine);
  if (retry !== undefined) {
    fastify.post(`${url}retry/`, { onRequest: csrf }, async (request, reply) => {
      const body = request.body as { turn?: unknown; thread?: unknown; regenerate?: unknown } | null;
      const given = (value: unknown): value is string => typeof value === 'string' && value !== '';
      if (body === null || typeof body !== 'object' || (!given(body.turn) && !given(body.thread))) return badRequest(reply, 'Send {"turn": "<turn id>"} or {"thread": "<thread id>"} (its latest turn), and "regenerate": true for a new answer to a completed turn.');
      if (body.regenerate !== undefined && typeof body.regenerate !== 'boolean') return badRequest(reply, '"regenerate" is true (a new answer to the latest completed turn) or false.');
      const regenerate = body.regenerate === true;
      if (!(await allowed(request, reply, deps, 'sse'))) return reply;
      const turnId = given(body.turn) ? body.turn : await latestTurn(deps, request.actor, body.thread as string);
      if (turnId === undefined) return notFound(reply);
      const limited = await rateLimited(request, deps, true);
      const requestKey = requestKeyOf(request, deps);
      await streamEvents(request, reply, deps, () => (limited !== undefined ? once(limited) : retry({ actor: request.actor, turnId, requestKey, regenerate })));
      return reply;
    });
    deps.guard(`${url}retry/`, ['POST']);
  }

  const items = threads.items?.bind(threads);
  if (items !== undefined) {
    fastify.get<{ Params: { id: string }; Querystring: { after?: string; before?: string; limit?: string } }>(`${url}threads/:id/items/`, async (request, reply) => {
      if (!(await allowed(request, reply, deps, 'threads'))) return reply;
      const { after, before, limit } = request.query;
      const numbers = { after, before, limit };
      for (const [name, value] of Object.entries(numbers)) {
        if (value !== undefined && wholeNumber(value) === undefined) return reply.status(400).send({ error: { code: 'bad_cursor', message: `'${name}' is a whole number, 0 or more.` } });
      }
      const threadId = request.params.id;
      return owned(reply, async () => {
        const page = await items({
          actor: request.actor,
          threadId,
          ...(after === undefined ? {} : { after: Number(after) }),
          ...(before === undefined ? {} : { before: Number(before) }),
          ...(limit === undefined ? {} : { limit: Number(limit) }),
        });
        return { thread: threadId, items: page.items, next: page.next };
      });
    });
    deps.guard(`${url}threads/:id/items/`, ['GET']);
  }

  const rename = threads.rename?.bind(threads);
  if (rename !== undefined) {
    fastify.post<{ Params: { id: string } }>(`${url}threads/:id/rename/`, { onRequest: csrf }, async (request, reply) => {
      const body = request.body as { title?: unknown } | null;
      if (body === null || typeof body !== 'object' || (typeof body.title !== 'string' && body.title !== null)) return badRequest(reply, 'Send {"title": "<the new title>"}, or {"title": null} for a generated one.');
      if (!(await allowed(request, reply, deps, 'threads'))) return reply;
      const title = body.title;
      return owned(reply, async () => ({ thread: threadJson(await rename({ actor: request.actor, threadId: request.params.id, title })) }));
    });
    deps.guard(`${url}threads/:id/rename/`, ['POST']);
  }

  const remove = threads.delete?.bind(threads);
  if (remove !== undefined) {
    fastify.post<{ Params: { id: string } }>(`${url}threads/:id/delete/`, { onRequest: csrf }, async (request, reply) => {
      if (!(await allowed(request, reply, deps, 'threads'))) return reply;
      return owned(reply, async () => ({ deleted: await remove({ actor: request.actor, threadId: request.params.id }) }));
    });
    deps.guard(`${url}threads/:id/delete/`, ['POST']);
  }

  const fork = threads.fork?.bind(threads);
  if (fork !== undefined) {
    fastify.post<{ Params: { id: string } }>(`${url}threads/:id/fork/`, { onRequest: csrf }, async (request, reply) => {
      const body = request.body as { item?: unknown } | null;
      if (body === null || typeof body !== 'object' || typeof body.item !== 'string' || body.item === '') return badRequest(reply, 'Send {"item": "<the id of a message item of this thread>"}.');
      if (!(await allowed(request, reply, deps, 'threads'))) return reply;
      const itemId = body.item;
      return owned(reply, async () => {
        const forked = await fork({ actor: request.actor, threadId: request.params.id, itemId });
        return { ...forked, thread: threadJson(forked.thread) };
      });
    });
    deps.guard(`${url}threads/:id/fork/`, ['POST']);
  }

  const state = threads.state?.bind(threads);
  const views = deps.views;
  if (state !== undefined && views !== undefined) {
    const path = `${url}threads/:id/view/`;
    fastify.get<{ Params: { id: string }; Querystring: { after?: string } }>(path, async (request, reply) => {
      if (!(await allowed(request, reply, deps, 'threads'))) return reply;
      const resumeFrom = request.headers['last-event-id'] ?? request.query.after;
      const after = resumeFrom === undefined || resumeFrom === '' ? undefined : wholeNumber(resumeFrom);
      if (resumeFrom !== undefined && resumeFrom !== '' && after === undefined) return badRequest(reply, 'after (or Last-Event-ID) is the seq of a view event: a whole number, 0 or more.');
      const { actor } = request;
      const threadId = request.params.id;
      try {
        await state({ actor, threadId });
      } catch (error) {
        if (notYours(error)) return notFound(reply);
        throw error;
      }
      openViewStream(reply, (sink) => views.observe({ threadId, ...(after === undefined ? {} : { after }), state: () => state({ actor, threadId }), sink }));
      return reply;
    });
    deps.guard(path, ['GET']);
  }
}

/**
 * The SSE response of a view: each batch in one write (`id: <seq>` per event, so that an
 * EventSource resumes with `Last-Event-ID`), a comment every 15 s so that proxies keep a quiet
 * stream open. The observer's bounds decide when a slow client is told to resubscribe.
 */
function openViewStream(reply: FastifyReply, observe: (sink: ViewSink) => { close(): void }): void {
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', connection: 'keep-alive' });
  raw.write(': view\n\n');
  let open = true;
  const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
  keepAlive.unref();
  const finish = (): void => {
    if (!open) return;
    open = false;
    clearInterval(keepAlive);
    observer.close();
    if (!raw.destroyed) raw.end();
  };
  const observer = observe({
    write: (batch, drained) => {
      if (!open) return;
      raw.write(batch.sse(), () => drained());
    },
    end: finish,
  });
  raw.once('close', finish);
}

async function latestTurn(deps: ChatDeps, actor: Actor, threadId: string): Promise<string | undefined> {
  const threads = deps.engine.threads;
  if (threads.view === undefined) return undefined;
  try {
    const found = await threads.view({ actor, threadId });
    return found.turns[found.turns.length - 1]?.id;
  } catch (error) {
    if (notYours(error)) return undefined;
    throw error;
  }
}

/** Codes of the engine's refusals that these routes answer as they are (400): the request was wrong, not the server. */
const refusals = new Set(['bad_cursor', 'bad_title', 'fork_point_invalid']);

/** Runs an owner-scoped call: another actor's (or a missing) thread answers 404 not_found; a refusal of the request 400 with its code. */
async function owned<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (notYours(error)) return notFound(reply);
    if (isPlumbError(error) && refusals.has(error.code)) return reply.status(400).send({ error: { code: error.code, message: error.message } });
    if (isPlumbError(error) && error.code === 'cancel_timeout') return reply.status(504).send({ error: { code: error.code, message: error.message } });
    throw error;
  }
}

/** A thread (or turn) that is missing or another actor's; an anonymous client without a session has none of its own. */
function notYours(error: unknown): boolean {
  return isPlumbError(error) && (error.code === 'thread_not_found' || error.code === 'turn_not_found' || error.code === 'session_required');
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.status(404).send({ error: { code: 'not_found', message: 'No thread of yours has this id.' } });
}

function badRequest(reply: FastifyReply, message: string): FastifyReply {
  return reply.status(400).send({ error: { code: 'bad_request', message } });
}

async function* once(event: EngineEvent): AsyncIterable<EngineEvent> {
  await Promise.resolve();
  yield event;
}
