import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { finished } from 'node:stream';
import type { Readable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { PlumbError } from '../core/index.js';
import type { ServerErrorCode } from './errors.js';

export interface BridgeOptions {
  readonly bodyLimit: number;
  /** Bytes an event stream may queue for a reader that does not read before it is cut off. */
  readonly maxBufferedBytes: number;
  readonly clientAddress: string | undefined;
  /** Each response whose headers are out, so that closing the handler can cut it. */
  readonly opened: (raw: ServerResponse) => void;
}

/** Headers that describe one hop of a connection, not the request or response: never carried across. */
const hopHeaders = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** Statuses whose response has no body (a fetch `Response` refuses one). */
const bodiless = new Set([101, 204, 205, 304]);

/**
 * Serves a fetch `Request` through an instance that never listens: the request is injected
 * (light-my-request) and the response streamed back as it is written (`payloadAsStream`), so an
 * SSE turn's events reach the client one by one. The body goes in read up to one chunk past the
 * body limit: enough for fastify to refuse it with 413, as it would the whole body.
 */
export async function bridge(fastify: FastifyInstance, request: Request, options: BridgeOptions): Promise<Response> {
  const url = new URL(request.url);
  let payload: Buffer | undefined;
  try {
    payload = await readBody(request, options.bodyLimit);
  } catch {
    return errorResponse(400, 'bad_request', 'The request body could not be read.');
  }
  const injected = await fastify.inject({
    method: request.method as NonNullable<InjectOptions['method']>,
    url: `${url.pathname}${url.search}`,
    headers: requestHeaders(request.headers, url),
    ...(payload === undefined ? {} : { payload }),
    ...(options.clientAddress === undefined ? {} : { remoteAddress: options.clientAddress }),
    payloadAsStream: true,
  });
  const raw = injected.raw.res;
  const node = injected.stream();
  const init: ResponseInit = { status: injected.statusCode, statusText: injected.statusMessage, headers: responseHeaders(injected.headers) };
  if (request.method === 'HEAD' || bodiless.has(injected.statusCode)) {
    node.resume();
    return new Response(null, init);
  }
  options.opened(raw);
  const eventStream = String(injected.headers['content-type'] ?? '').startsWith('text/event-stream');
  return new Response(webBody(node, raw, request.signal, eventStream ? options.maxBufferedBytes : undefined), init);
}

export function errorResponse(status: number, code: ServerErrorCode, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}

async function readBody(request: Request, limit: number): Promise<Buffer | undefined> {
  if (request.body === null) return undefined;
  const reader: ReadableStreamDefaultReader<Uint8Array> = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}

function requestHeaders(headers: Headers, url: URL): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  headers.forEach((value, name) => {
    // The length is the one of the body as read (light-my-request sets it).
    if (!hopHeaders.has(name) && name !== 'content-length') out[name] = value;
  });
  out.host ??= url.host;
  return out;
}

function responseHeaders(headers: Readonly<Record<string, string | string[] | number | undefined>>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopHeaders.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) out.append(name, item);
    else out.set(name, String(value));
  }
  return out;
}

/**
 * The response's bytes as a web stream, each chunk as it is written. The client aborting its
 * request, or cancelling the body, closes the response as a closed connection would: the SSE
 * writer stops, the turn runs on in the journal. An event stream whose reader falls `bound`
 * bytes behind is cut off, as on the server; the bound is measured here, on the reader's queue,
 * because the injected response's own buffer drains whether anyone reads or not.
 */
function webBody(node: Readable, raw: ServerResponse, signal: AbortSignal, bound: number | undefined): ReadableStream<Uint8Array> {
  let open = true;
  let stop: (reason: unknown) => void = () => undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onAbort = (): void => stop(signal.reason);
        stop = (reason) => {
          if (!open) return;
          open = false;
          signal.removeEventListener('abort', onAbort);
          raw.destroy();
          if (reason !== undefined) controller.error(reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        node.on('data', (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(chunk);
          if (bound !== undefined && (controller.desiredSize ?? 0) < 0) {
            stop(new PlumbError('slow_consumer', `The reader fell more than ${bound} bytes behind the event stream; it was cut off.`));
          }
        });
        // `finished` also reports a stream that ended or was cut before these listeners came:
        // a turn can write, and the SSE writer close, before the response reaches this point.
        finished(node, (error) => {
          if (error !== undefined && error !== null) return stop(error);
          if (!open) return;
          open = false;
          signal.removeEventListener('abort', onAbort);
          controller.close();
        });
      },
      cancel() {
        stop(undefined);
      },
    },
    bound === undefined ? undefined : new ByteLengthQueuingStrategy({ highWaterMark: bound }),
  );
}
