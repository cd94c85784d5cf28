import type { IncomingMessage } from 'node:http';

/** How much of a refused request's unread body is read and dropped, and for how long, before the answer goes out. */
export const drainBounds = { bytes: 32 * 1024 * 1024, ms: 2000 } as const;

/**
 * Reads and drops what is left of a request's body, up to `drainBounds`. A server that answers
 * early (413, 401, 403) and closes with the body unread resets the connection, and a client still
 * writing the body (Node's fetch) sees EPIPE instead of the answer. Resolves when the body has
 * ended, or past either bound (the connection is then closed with the answer, as before).
 */
export function drainRequest(request: IncomingMessage): Promise<void> {
  if (request.complete || request.readableEnded || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const finish = (): void => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', finish);
      request.off('error', finish);
      request.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer): void => {
      read += chunk.length;
      if (read > drainBounds.bytes) finish();
    };
    const timer = setTimeout(finish, drainBounds.ms);
    request.on('data', onData);
    request.once('end', finish);
    request.once('error', finish);
    request.once('close', finish);
    request.resume();
  });
}
