import type { Socket } from 'node:net';
import { rawErrorResponse } from './reply-error.js';

/**
 * fastify's `clientErrorHandler` for Plumb's own server: a request Node's parser refused (headers
 * over the size limit, a malformed request line, a client too slow to send its request) gets
 * Plumb's error shape, never fastify's, and never a word of what was sent. As Node does, the
 * connection is then closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection, or one already gone: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.write(responseFor(error.code));
  socket.destroy(error);
}

function responseFor(code: string | undefined): string {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return rawErrorResponse(408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time. Send it again.');
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return rawErrorResponse(431, 'Request Header Fields Too Large', 'header_too_large', 'The request line and headers are larger than the server takes (16 KiB): a shorter URL, or fewer or smaller cookies.');
  }
  return rawErrorResponse(400, 'Bad Request', 'bad_request', 'The request is not valid HTTP.');
}
