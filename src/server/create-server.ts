import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { PlumbConfig } from '../config/index.js';
import type { Audit } from './audit.js';
import { clientErrorHandler } from './client-errors.js';
import { mountPlumb } from './mount.js';
import type { PlumbChatOptions } from './options.js';
import type { RateLimiter } from './rate-limiter.js';
import { frameworkErrorReply, sendError } from './reply-error.js';
import { resolveSetup } from './setup.js';

export interface ServerOptions extends PlumbChatOptions {
  /** A pino-compatible logger, or false for none. Default: none. */
  readonly logger?: FastifyBaseLogger | false;
}

export interface PlumbServer extends AsyncDisposable {
  readonly fastify: FastifyInstance;
  readonly settings: PlumbConfig;
  readonly rateLimiter: RateLimiter;
  readonly audit: Audit;
  /**
   * Starts listening and resolves with the base URL (`http://127.0.0.1:8787`). `backlog` (default
   * 2048, Node's own is 511) is how many connections may wait to be accepted: a burst of a thousand
   * clients connecting at once must not see dropped SYNs.
   */
  listen(options: { port: number; host: string; backlog?: number }): Promise<string>;
  close(): Promise<void>;
}

/** Plumb's own server: a fastify instance with Plumb mounted at its root (as `plumbChat` mounts it), ready to listen. */
export async function createServer(options: ServerOptions): Promise<PlumbServer> {
  // Resolved here rather than inside the plugin, so that the server can hand out its limiter and audit.
  const setup = await resolveSetup(options);
  const fastify = Fastify({
    ...(options.logger === undefined || options.logger === false ? { logger: false } : { loggerInstance: options.logger }),
    bodyLimit: setup.bodyLimit,
    trustProxy: setup.settings.trustProxy,
    // fastify's own answers for these would have its shape, not Plumb's (and quote the request).
    return503OnClosing: false,
    frameworkErrors: frameworkErrorReply,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
  });
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', async (_request, reply) => {
    if (closing) await sendError(reply.header('connection', 'close'), 503, 'server_closed', 'The server is shutting down. Send the request again in a moment.');
  });
  await fastify.register(async (instance) => mountPlumb(instance, setup, options, { websocket: true, notFound: true, options: true }));
  await fastify.ready();
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= fastify.close());
  return {
    fastify,
    settings: setup.settings,
    rateLimiter: setup.rateLimiter,
    audit: setup.audit,
    async listen({ port, host, backlog = 2048 }) {
      await fastify.listen({ port, host, backlog });
      const address = fastify.server.address();
      const actualPort = typeof address === 'object' && address !== null ? address.port : port;
      return `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
