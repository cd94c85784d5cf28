import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';

/** A fetch-style handler, as `createFetchHandler(…).handle` is. */
export type FetchHandle = (request: Request, info?: { readonly clientAddress?: string }) => Promise<Response>;

/**
 * An Express handler over a fetch-style one: the request body and the response body stream
 * through, so an SSE turn reaches the client event by event. Mount it before any body parser
 * for its paths: it reads the raw body itself.
 */
export function fromFetch(handle: FetchHandle): RequestHandler {
  return (req, res, next) => {
    serve(handle, req, res).catch(next);
  };
}

async function serve(handle: FetchHandle, req: ExpressRequest, res: ExpressResponse): Promise<void> {
  // The client leaving aborts the request, which stops the response stream.
  const left = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) left.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(new URL(req.originalUrl, `http://${req.headers.host ?? 'localhost'}`), {
    method: req.method,
    headers,
    signal: left.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
  const response = await handle(request, { ...(req.socket.remoteAddress === undefined ? {} : { clientAddress: req.socket.remoteAddress }) });

  res.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  try {
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res);
  } catch (error) {
    // A client that left, or a stream cut off: the response is gone, nothing to answer.
    if (!res.destroyed) throw error;
  }
}
