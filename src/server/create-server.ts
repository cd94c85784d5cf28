import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { anonymous, PlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { App } from '../data/index.js';
import type { ServerErrorCode } from './errors.js';

/** The host's hook: who is asking. `null` means anonymous; throw a PlumbError to refuse. */
export type Authenticate = (request: FastifyRequest) => Actor | null | Promise<Actor | null>;

export interface ServerOptions {
  readonly app: App;
  readonly authenticate?: Authenticate;
  /** A pino-compatible logger, or false for none. Default: none. */
  readonly logger?: FastifyBaseLogger | false;
  /** Largest accepted request body in bytes. Default 64 KiB. */
  readonly bodyLimit?: number;
}

export interface PlumbServer extends AsyncDisposable {
  readonly fastify: FastifyInstance;
  /** Starts listening and resolves with the base URL (`http://127.0.0.1:8787`). */
  listen(options: { port: number; host: string }): Promise<string>;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
}

export async function createServer(options: ServerOptions): Promise<PlumbServer> {
  const { app, authenticate } = options;
  const fastify = Fastify({
    ...(options.logger === undefined || options.logger === false ? { logger: false } : { loggerInstance: options.logger }),
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    return503OnClosing: true,
  });
  // Fastify 5 refuses an object as a request decorator (it would be shared by every request), so
  // the actor lives in a WeakMap behind a getter and a setter.
  const actors = new WeakMap<FastifyRequest, Actor>();
  fastify.decorateRequest('actor', {
    getter(this: FastifyRequest): Actor {
      return actors.get(this) ?? anonymous;
    },
    setter(this: FastifyRequest, actor: Actor): void {
      actors.set(this, actor);
    },
  });

  fastify.addHook('onRequest', async (request) => {
    request.actor = (authenticate === undefined ? null : await authenticate(request)) ?? anonymous;
  });

  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof PlumbError) return sendError(reply, 401, error.code as ServerErrorCode, error.message);
    if (error.statusCode === 413) return sendError(reply, 413, 'payload_too_large', `The request body is larger than ${options.bodyLimit ?? 65536} bytes.`);
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, 400, 'bad_request', error.message);
    }
    request.log.error({ err: error }, 'unexpected failure');
    return sendError(reply, 500, 'internal_error', 'Something went wrong on the server.');
  });
  fastify.setNotFoundHandler((request, reply) => sendError(reply, 404, 'not_found', `No route for ${request.method} ${request.url}.`));

  fastify.get('/healthz', () => ({ status: 'ok' }));

  fastify.post('/graphql', async (request, reply) => {
    const body = request.body as { query?: unknown; variables?: unknown; operationName?: unknown } | null;
    if (body === null || typeof body !== 'object' || typeof body.query !== 'string' || body.query.trim() === '') {
      return sendError(reply, 400, 'bad_request', "Send a JSON body with a non-empty string 'query' (and optional 'variables' object).");
    }
    if (body.variables !== undefined && body.variables !== null && (typeof body.variables !== 'object' || Array.isArray(body.variables))) {
      return sendError(reply, 400, 'bad_request', "'variables' must be a JSON object.");
    }
    if (body.operationName !== undefined && body.operationName !== null && typeof body.operationName !== 'string') {
      return sendError(reply, 400, 'bad_request', "'operationName' must be a string.");
    }
    // The request stream closes as soon as its body is read; the response closing before it was
    // written is what says the client went away.
    const controller = new AbortController();
    const abortOnClose = (): void => {
      if (!reply.raw.writableEnded) controller.abort();
    };
    reply.raw.once('close', abortOnClose);
    try {
      return await app.graphql({
        actor: request.actor,
        document: body.query,
        ...(body.variables ? { variables: body.variables as Record<string, unknown> } : {}),
        ...(typeof body.operationName === 'string' ? { operationName: body.operationName } : {}),
        signal: controller.signal,
      });
    } finally {
      reply.raw.off('close', abortOnClose);
    }
  });

  await fastify.ready();
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= fastify.close());
  return {
    fastify,
    async listen({ port, host }) {
      await fastify.listen({ port, host });
      const address = fastify.server.address();
      const actualPort = typeof address === 'object' && address !== null ? address.port : port;
      return `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function sendError(reply: FastifyReply, status: number, code: ServerErrorCode, message: string): FastifyReply {
  return reply.status(status).send({ error: { code, message } });
}
