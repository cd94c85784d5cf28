import type { ServerResponse } from 'node:http';
import Fastify from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { PlumbError } from '../core/index.js';
import type { PlumbConfig } from '../config/index.js';
import type { Audit } from './audit.js';
import { bridge, errorResponse } from './fetch-bridge.js';
import { mountPlumb } from './mount.js';
import type { PlumbChatOptions } from './options.js';
import type { RateLimiter } from './rate-limiter.js';
import { frameworkErrorReply, sendNotFound } from './reply-error.js';
import { createReport, resolveSetup } from './setup.js';

export interface FetchHandlerOptions extends PlumbChatOptions {
  /** The path the routes live under, as the framework passes them on (`/api` → `/api/chat/`, `/api/graphql`). Default: none. */
  readonly prefix?: string;
  /** A pino-compatible logger, or false for none. Default: none. */
  readonly logger?: FastifyBaseLogger | false;
}

export interface FetchRequestInfo {
  /** The client's address, for rate limits and the permission callable's `ip`. Default: 127.0.0.1. */
  readonly clientAddress?: string;
}

/** Plumb's HTTP and SSE routes for any framework that speaks fetch `Request` and `Response` (no WebSocket). */
export interface PlumbFetchHandler extends AsyncDisposable {
  /** Answers one request; a bound function, so it can be handed on as it is (`export const POST = plumb.handle`). */
  readonly handle: (request: Request, info?: FetchRequestInfo) => Promise<Response>;
  readonly settings: PlumbConfig;
  readonly rateLimiter: RateLimiter;
  readonly audit: Audit;
  /**
   * Cuts the streams still open (their turns run on in the journal) and stops; every request
   * afterwards gets `503 server_closed`. Idempotent. The engine and the app stay the caller's.
   */
  close(): Promise<void>;
}

export async function createFetchHandler(options: FetchHandlerOptions): Promise<PlumbFetchHandler> {
  const setup = await resolveSetup(options);
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  if (prefix !== '' && !prefix.startsWith('/')) throw new PlumbError('invalid_config', `prefix: '${options.prefix}' must start with '/' (e.g. '/api').`, { details: { key: 'prefix' } });
  // Never listens: each request is injected into it.
  const fastify = Fastify({
    ...(options.logger === undefined || options.logger === false ? { logger: false } : { loggerInstance: options.logger }),
    bodyLimit: setup.bodyLimit,
    trustProxy: setup.settings.trustProxy,
    frameworkErrors: frameworkErrorReply,
    routerOptions: { ignoreTrailingSlash: true },
  });
  if (prefix !== '') fastify.setNotFoundHandler(sendNotFound);
  await fastify.register(async (instance) => mountPlumb(instance, setup, options, { websocket: false, notFound: true, options: true }), { prefix });
  await fastify.ready();
  const report = createReport(fastify.log, options.onError);
  const open = new Set<ServerResponse>();
  const opened = (raw: ServerResponse): void => {
    // A reply written whole is already destroyed (and its 'close' gone by) when it gets here.
    if (raw.destroyed) return;
    open.add(raw);
    raw.once('close', () => open.delete(raw));
  };

  let closed: Promise<void> | undefined;
  const handle = async (request: Request, info: FetchRequestInfo = {}): Promise<Response> => {
    if (closed !== undefined) return errorResponse(503, 'server_closed', 'This chat handler is closed; it serves no more requests.');
    try {
      return await bridge(fastify, request, { bodyLimit: setup.bodyLimit, maxBufferedBytes: setup.settings.websocketMaxBufferedBytes, clientAddress: info.clientAddress, opened });
    } catch (error) {
      report(error, { source: `fetch ${request.method} ${new URL(request.url).pathname}` });
      return errorResponse(500, 'internal_error', 'Something went wrong on the server.');
    }
  };
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      for (const raw of open) raw.destroy();
      await fastify.close();
    })());
  return { handle, settings: setup.settings, rateLimiter: setup.rateLimiter, audit: setup.audit, close, [Symbol.asyncDispose]: close };
}
