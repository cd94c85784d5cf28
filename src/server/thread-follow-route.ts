import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/index.js';
import type { ChatDeps } from './chat-deps.js';
import { actorKey } from '../core/index.js';
import type { ThreadEvents } from './thread-events.js';
import { followThread } from './thread-follow.js';
import type { FollowEvent } from './thread-follow.js';
import { wholeNumber } from './whole-number.js';

/** What following threads needs: the journal (the same store the engine writes) and the notices between processes. */
export interface ThreadFollowing {
  readonly store: Store;
  readonly events: ThreadEvents;
  /** A comment line this often keeps proxies from closing a quiet stream. Milliseconds, default 15,000. */
  readonly keepAliveMs?: number;
}

/**
 * `GET {url}threads/:id/follow/?after=N` (SSE): the thread's items after ordinal N as they are
 * committed — by this process or any other on the same journal — each as `event: item` with the
 * item record, in order, without gaps or repeats (its `id:` is the ordinal, so a client that
 * reconnects with `Last-Event-ID` goes on where it stopped), and turns' status changes as `event:
 * turn`; a deleted thread's stream ends with `event: thread_deleted`. Only the thread's owner may
 * follow it; a client that does not read is cut off once `websocketMaxBufferedBytes` are queued for it.
 */
function followText(event: FollowEvent, threadId: string): string {
  if (event.type === 'item') return `id: ${event.item.ordinal}\nevent: item\ndata: ${JSON.stringify(event.item)}\n\n`;
  if (event.type === 'turn') return `event: turn\ndata: ${JSON.stringify({ turn_id: event.turnId, status: event.status })}\n\n`;
  return `event: thread_deleted\ndata: ${JSON.stringify({ thread_id: threadId })}\n\n`;
}

export function registerThreadFollow(fastify: FastifyInstance, deps: ChatDeps, following: ThreadFollowing): void {
  const path = `${deps.url}threads/:id/follow/`;
  fastify.get<{ Params: { id: string }; Querystring: { after?: string } }>(path, async (request, reply) => {
    if (deps.permission !== undefined && !(await deps.permission(request.actor, { transport: 'threads', path: request.url, ip: request.ip }))) {
      return reply.status(403).send({ error: { code: 'permission_denied', message: 'You may not use the chat service.' } });
    }
    const resumeFrom = request.headers['last-event-id'] ?? request.query.after ?? '0';
    const after = wholeNumber(resumeFrom);
    if (after === undefined) return reply.status(400).send({ error: { code: 'bad_request', message: 'after (or Last-Event-ID) must be an item ordinal: a whole number, 0 or more.' } });
    const owner = actorKey(request.actor);
    const thread = owner === undefined ? undefined : await following.store.getThread(request.params.id);
    if (thread === undefined || thread.owner !== owner) return reply.status(404).send({ error: { code: 'not_found', message: 'No thread of yours has this id.' } });
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', connection: 'keep-alive' });
    raw.write(': following\n\n');
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    raw.once('close', stop);
    const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), following.keepAliveMs ?? 15_000);
    keepAlive.unref();
    try {
      for await (const event of followThread({ store: following.store, events: following.events, threadId: request.params.id, afterOrdinal: after, signal: controller.signal })) {
        raw.write(followText(event, request.params.id));
        if (raw.writableLength > deps.maxBufferedBytes) {
          raw.destroy();
          break;
        }
      }
    } catch (error) {
      deps.report(error, { source: 'follow' });
    } finally {
      clearInterval(keepAlive);
      raw.off('close', stop);
      controller.abort();
      if (!raw.destroyed) raw.end();
    }
    return reply;
  });
  deps.guard(path, ['GET']);
}
