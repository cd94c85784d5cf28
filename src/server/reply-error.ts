import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerErrorCode } from './errors.js';

/** Plumb's error shape on a fastify reply: `{ error: { code, message } }`. */
export function sendError(reply: FastifyReply, status: number, code: ServerErrorCode, message: string): FastifyReply {
  return reply.status(status).send({ error: { code, message } });
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, 'not_found', `No route for ${request.method} ${request.url}.`);
}
