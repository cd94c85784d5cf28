import type { FastifyInstance, FastifyReply } from 'fastify';
import { isPlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { QueueChange } from '../engine/index.js';
import { allowed, csrfGuard, rateLimited, withinBudget } from './chat-http.js';
import type { ChatDeps } from './chat-deps.js';
import { relayTurn } from './turn-relay.js';
import type { ErrorEventBody } from './turn-relay.js';

/**
 * Questions and the thread queue over HTTP (docs/protocol.md): `POST {url}answer/` answers a
 * question and answers with the resumed turn, like `{url}confirm/`; `POST {url}queue/edit/`,
 * `…/remove/` and `…/send-now/` change a queued message and answer the thread's queue after it;
 * `GET {url}threads/:id/queue/` reads it. A route whose engine part is missing (a stand-in engine)
 * is not registered.
 */
export function registerQueueRoutes(fastify: FastifyInstance, deps: ChatDeps): void {
  const { url, engine } = deps;
  const csrf = csrfGuard(deps);

  const answer = engine.answer?.bind(engine);
  if (answer !== undefined) {
    fastify.post(`${url}answer/`, { onRequest: csrf }, async (request, reply) => {
      const frame = answerFrame(request.body);
      if (typeof frame === 'string') return reply.status(400).send({ error: { code: 'bad_event', message: frame }, events: [{ type: 'error', code: 'bad_event', message: frame }], answer: '' });
      if (!(await allowed(request, reply, deps, 'confirm'))) return reply;
      const limited = await rateLimited(request, deps, true);
      if (limited !== undefined) return reply.status(429).header('retry-after', String(limited.retry_after_seconds)).send({ error: { code: limited.code, message: limited.message }, events: [limited], answer: '' });
      const { actor } = request;
      const outcome = await withinBudget(deps, actor, request.ip, () =>
        relayTurn(() => answer({ actor, ...frame }), { transport: 'answer', actor, audit: deps.audit, send: () => undefined, report: (error) => deps.report(error, { source: 'answer' }) }),
      );
      return { events: outcome.events, answer: outcome.answer, ...(outcome.threadId === undefined ? {} : { thread: outcome.threadId }) };
    });
    deps.guard(`${url}answer/`, ['POST']);
  }

  const queue = engine.queue;
  if (queue === undefined) return;
  const changes = {
    'edit/': (actor: Actor, body: QueueBody) => {
      if (typeof body.text !== 'string' || body.text.trim() === '') return "Send {\"queue_id\": \"…\", \"text\": \"<the new text>\"} (and \"expected_text\" to change it only while it still says that).";
      if (body.expected_text !== undefined && typeof body.expected_text !== 'string') return "'expected_text' must be a string.";
      return queue.edit({ actor, queueId: body.queue_id, text: body.text, ...(typeof body.expected_text === 'string' ? { expectedText: body.expected_text } : {}) });
    },
    'remove/': (actor: Actor, body: QueueBody) => queue.remove({ actor, queueId: body.queue_id }),
    'send-now/': (actor: Actor, body: QueueBody) => queue.sendNow({ actor, queueId: body.queue_id }),
  } as const;
  for (const [path, change] of Object.entries(changes)) {
    fastify.post(`${url}queue/${path}`, { onRequest: csrf }, async (request, reply) => {
      const body = request.body as Partial<QueueBody> | null;
      if (body === null || typeof body !== 'object' || typeof body.queue_id !== 'string' || body.queue_id === '') return badRequest(reply, 'Send {"queue_id": "<the id from the queued event>"}.');
      if (!(await allowed(request, reply, deps, 'threads'))) return reply;
      return changed(reply, () => change(request.actor, body as QueueBody));
    });
    deps.guard(`${url}queue/${path}`, ['POST']);
  }
  fastify.get<{ Params: { id: string } }>(`${url}threads/:id/queue/`, async (request, reply) => {
    if (!(await allowed(request, reply, deps, 'threads'))) return reply;
    return changed(reply, async () => ({ threadId: request.params.id, queue: await queue.list({ actor: request.actor, threadId: request.params.id }) }));
  });
  deps.guard(`${url}threads/:id/queue/`, ['GET']);
}

interface QueueBody {
  readonly queue_id: string;
  readonly text?: unknown;
  readonly expected_text?: unknown;
}

/** The queue after a change, as the routes answer it; an unknown or changed message is 409, another actor's thread 404. */
async function changed(reply: FastifyReply, work: () => Promise<QueueChange> | string): Promise<unknown> {
  try {
    const result = work();
    if (typeof result === 'string') return badRequest(reply, result);
    const change = await result;
    return { thread: change.threadId, queue: change.queue };
  } catch (error) {
    if (isPlumbError(error) && (error.code === 'thread_not_found' || error.code === 'session_required')) return reply.status(404).send({ error: { code: 'not_found', message: 'No thread of yours has this id.' } });
    if (isPlumbError(error) && (error.code === 'queued_message_unavailable' || error.code === 'bad_message')) {
      return reply.status(error.code === 'bad_message' ? 400 : 409).send({ error: { code: error.code, message: error.message } });
    }
    throw error;
  }
}

function badRequest(reply: FastifyReply, message: string): FastifyReply {
  return reply.status(400).send({ error: { code: 'bad_request', message } });
}

/** An answer's payload (the route's body, the frame): the question and free text or a choice; a string says what is wrong. */
export function answerFrame(body: unknown): { readonly questionId: string; readonly text?: string; readonly choice?: string } | string {
  const usage = 'Send {"question_id": "<id from the question event>", "text": "<your answer>"} or {"question_id": "…", "choice": "<a choice id>"}.';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return usage;
  const { question_id: questionId, text, choice } = body as { question_id?: unknown; text?: unknown; choice?: unknown };
  if (typeof questionId !== 'string' || questionId === '') return usage;
  if (text !== undefined && typeof text !== 'string') return "'text' must be a string.";
  if (choice !== undefined && typeof choice !== 'string') return "'choice' must be a string.";
  if (text === undefined && choice === undefined) return usage;
  return { questionId, ...(typeof text === 'string' ? { text } : {}), ...(typeof choice === 'string' ? { choice } : {}) };
}

/** The queue frames' answer: an error event for a refusal the client can act on. */
export function queueRefusal(error: unknown): ErrorEventBody | undefined {
  if (!isPlumbError(error)) return undefined;
  if (error.code === 'thread_not_found' || error.code === 'session_required' || error.code === 'queued_message_unavailable' || error.code === 'bad_message') {
    return { type: 'error', code: error.code === 'session_required' ? 'thread_not_found' : error.code, message: error.message };
  }
  return undefined;
}
