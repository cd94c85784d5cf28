import { randomBytes } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nanoid } from 'nanoid';
import { anonymous, PlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { App } from '../data/index.js';
import { createAudit } from './audit.js';
import type { Audit, AuditOptions } from './audit.js';
import { registerChatHttp } from './chat-http.js';
import { frameCeiling, registerChatSocket } from './chat-socket.js';
import type { ChatDeps } from './chat-deps.js';
import { parseConfig } from './config.js';
import type { PlumbConfig } from './config.js';
import { registerConsole } from './console-routes.js';
import type { ConsoleInfo, LoginDirectory } from './console-routes.js';
import type { ChatEngine } from './engine-port.js';
import type { ServerErrorCode } from './errors.js';
import { resolvePermission } from './permission.js';
import { createMemoryRateLimitStore } from './rate-limit-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { createRateLimiter } from './rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import { appendSetCookie, loginCookieName, withSession } from './request-actor.js';
import type { PermissionCallable } from './settings.js';
import { createSigner, readCookie } from './signed-value.js';
import type { Signer } from './signed-value.js';
import type { TokenBudget } from './token-budget.js';

/** The host's hook: who is asking. `null` means anonymous; throw a PlumbError to refuse (401). */
export type Authenticate = (request: FastifyRequest) => Actor | null | Promise<Actor | null>;

export interface ServerOptions {
  readonly app: App;
  /** The engine behind the chat routes; without one, only /healthz, /graphql and the console are served. */
  readonly engine?: ChatEngine;
  /** The parsed configuration (`parseConfig`); default: every default. */
  readonly settings?: PlumbConfig;
  readonly authenticate?: Authenticate;
  /** Named users the console may sign in as (kept in a signed `plumb_login` cookie). */
  readonly login?: LoginDirectory;
  /** What the console's settings panel shows (provider, model). */
  readonly consoleInfo?: ConsoleInfo;
  /** Serve the console at /console/. Default true. */
  readonly console?: boolean;
  /** A pino-compatible logger, or false for none. Default: none. */
  readonly logger?: FastifyBaseLogger | false;
  /** Largest accepted request body in bytes; overrides `settings.bodyLimitBytes`. */
  readonly bodyLimit?: number;
  /** Where rate-limit counters live. Default: in memory. */
  readonly rateLimitStore?: RateLimitStore;
  /** The limiter (default: one over `rateLimitStore` from `settings.rateLimit`). */
  readonly rateLimiter?: RateLimiter;
  /**
   * When the engine's provider is `tokenBudget.wrap(provider)` over the same limiter: token usage
   * is recorded round by round and the next round of a turn is refused once a budget is spent.
   * Without it, usage is recorded from each turn's `done` and checked before the next turn.
   */
  readonly tokenBudget?: TokenBudget;
  /** Audit overrides (a destination for the default pino logger, or a logger function). */
  readonly audit?: Pick<AuditOptions, 'destination' | 'logger'>;
  /** Unexpected failures, with where they happened; also logged. */
  readonly onError?: (error: unknown, context: { readonly source: string }) => void;
  /** Secret for signed cookies; default: `settings.sessionSecret`, else random per process. */
  readonly secret?: string;
  /** Directory the module-path settings (`permission`, audit `logger`) are resolved from. */
  readonly cwd?: string;
  readonly clock?: () => number;
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

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
}

export async function createServer(options: ServerOptions): Promise<PlumbServer> {
  const { app, authenticate } = options;
  const settings = options.settings ?? parseConfig({});
  const bodyLimit = options.bodyLimit ?? settings.bodyLimitBytes;
  const signer: Signer = createSigner(options.secret ?? settings.sessionSecret ?? randomBytes(32));
  const clock = options.clock ?? Date.now;
  const logger = options.logger === undefined || options.logger === false ? undefined : options.logger;
  const report = (error: unknown, context: { readonly source: string }): void => {
    logger?.error({ err: error, source: context.source }, 'chat failure');
    try {
      options.onError?.(error, context);
    } catch {
      // an error hook that throws must not take a turn down
    }
  };
  const permission: PermissionCallable | undefined = await resolvePermission(settings.permission, options.cwd);
  const auditLogger = options.audit?.logger ?? (typeof settings.audit.logger === 'string' ? await importFunction(settings.audit.logger, options.cwd) : settings.audit.logger);
  const audit = createAudit({ ...settings.audit, logger: auditLogger, clock, ...(options.audit?.destination === undefined ? {} : { destination: options.audit.destination }) });
  const rateLimiter = options.rateLimiter ?? createRateLimiter(settings.rateLimit, options.rateLimitStore ?? createMemoryRateLimitStore(), clock);

  const fastify = Fastify({
    ...(logger === undefined ? { logger: false } : { loggerInstance: logger }),
    bodyLimit,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
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

  fastify.addHook('onRequest', async (request, reply) => {
    const signedLogin = options.login === undefined ? undefined : readCookie(request.headers.cookie, loginCookieName);
    const loginName = signedLogin === undefined ? undefined : signer.unsign(signedLogin);
    const fromLogin = loginName === undefined || request.headers['x-plumb-user'] !== undefined ? undefined : options.login?.resolve(loginName);
    const actor = fromLogin ?? (authenticate === undefined ? null : await authenticate(request)) ?? anonymous;
    const session = withSession(actor, request, signer);
    request.actor = session.actor;
    if (session.setCookie !== undefined) appendSetCookie(reply, session.setCookie);
  });

  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof PlumbError) return sendError(reply, 401, error.code as ServerErrorCode, error.message);
    if (error.statusCode === 413) return sendError(reply, 413, 'payload_too_large', `The request body is larger than ${bodyLimit} bytes (the server's bodyLimitBytes setting). Send a shorter message.`);
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, 400, 'bad_request', error.message);
    }
    report(error, { source: `${request.method} ${request.routeOptions.url ?? request.url}` });
    return sendError(reply, 500, 'internal_error', 'Something went wrong on the server.');
  });
  fastify.setNotFoundHandler((request, reply) => sendError(reply, 404, 'not_found', `No route for ${request.method} ${request.url}.`));

  // A frame over the body limit gets a payload_too_large event and the socket stays; only one over
  // the ceiling is cut off by ws itself (close 1009), so no frame is ever buffered past it.
  await fastify.register(websocket, { options: { maxPayload: frameCeiling(bodyLimit) } });

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

  if (options.engine !== undefined && settings.enabled) {
    const deps: ChatDeps = {
      url: settings.url,
      engine: options.engine,
      signer,
      permission,
      rateLimiter,
      tokenBudget: options.tokenBudget,
      audit,
      allowedOrigins: settings.allowedOrigins,
      maxBufferedBytes: settings.websocketMaxBufferedBytes,
      bodyLimitBytes: bodyLimit,
      pingIntervalMs: settings.websocketPingSeconds * 1000,
      sseHeadersWithinMs: settings.sseHeadersWithinSeconds * 1000,
      newId: () => nanoid(),
      report,
    };
    registerChatHttp(fastify, deps);
    registerChatSocket(fastify, deps);
  }
  if (options.console !== false) {
    registerConsole(fastify, { signer, chatUrl: settings.url, chatEnabled: options.engine !== undefined && settings.enabled, bodyLimitBytes: bodyLimit, info: options.consoleInfo ?? {}, ...(options.login === undefined ? {} : { login: options.login }) });
  }

  await fastify.ready();
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= fastify.close());
  return {
    fastify,
    settings,
    rateLimiter,
    audit,
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

function sendError(reply: FastifyReply, status: number, code: ServerErrorCode, message: string): FastifyReply {
  return reply.status(status).send({ error: { code, message } });
}

async function importFunction(path: string, cwd: string | undefined): Promise<(record: Readonly<Record<string, unknown>>) => void> {
  const specifier = path.startsWith('.') || isAbsolute(path) ? pathToFileURL(resolve(cwd ?? process.cwd(), path)).href : path;
  const module = (await import(specifier)) as { default?: unknown; logger?: unknown };
  const candidate = module.logger ?? module.default;
  if (typeof candidate !== 'function') throw new PlumbError('invalid_config', `audit.logger: the module '${path}' must export a function (default or 'logger').`);
  return candidate as (record: Readonly<Record<string, unknown>>) => void;
}
