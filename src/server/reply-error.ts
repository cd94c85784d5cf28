import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerErrorCode } from './errors.js';

/** Plumb's error shape on a fastify reply: `{ error: { code, message } }`. */
export function sendError(reply: FastifyReply, status: number, code: ServerErrorCode, message: string): FastifyReply {
  return reply.status(status).send({ error: { code, message } });
}

/** Says what is missing without repeating the path: what a client sent is never echoed back. */
export function sendNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, 'not_found', 'No route answers this method and path.');
}

export interface RequestErrorReply {
  readonly status: number;
  readonly code: ServerErrorCode;
  readonly message: string;
}

/**
 * A request fastify refused before a handler ran (body, content type, length), in Plumb's words:
 * fastify's own messages may quote what the client sent. Undefined for a server failure.
 */
export function requestErrorOf(error: FastifyError, bodyLimit: number): RequestErrorReply | undefined {
  if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, code: 'payload_too_large', message: `The request body is larger than ${bodyLimit} bytes (the server's bodyLimitBytes setting). Send a shorter message.` };
  }
  if (error.statusCode === 415 || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, code: 'unsupported_media_type', message: 'Send the body as JSON, with Content-Type: application/json.' };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
    return { status: 400, code: 'bad_request', message: 'The request body is not valid JSON.' };
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: 400, code: 'bad_request', message: 'The request could not be read (its headers, length or body). Check it and send it again.' };
  }
  return undefined;
}

/**
 * fastify's `frameworkErrors`, for an instance that is Plumb's own: a path that cannot be decoded,
 * or a path segment longer than any id the routes take, answered in Plumb's shape without the path.
 */
export function frameworkErrorReply(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') void sendError(reply, 400, 'bad_url', "The path is not a valid URL: a '%' must start a percent-encoded byte, and the bytes must be UTF-8.");
  else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') void sendError(reply, 414, 'uri_too_long', 'A part of the path is longer than any id this server takes (100 characters). Check the id.');
  else void sendError(reply, 500, 'internal_error', 'Something went wrong on the server.');
}

/** The wire text of an error response written straight to a socket (no fastify reply exists yet). */
export function rawErrorResponse(status: number, reason: string, code: ServerErrorCode, message: string): string {
  const body = JSON.stringify({ error: { code, message } });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
