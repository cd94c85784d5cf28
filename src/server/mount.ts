import websocket from '@fastify/websocket';
import type { FastifyError, FastifyInstance } from 'fastify';
import { nanoid } from 'nanoid';
import { PlumbError } from '../core/index.js';
import { identifyActors } from './actor-hook.js';
import { registerChatHttp } from './chat-http.js';
import { frameCeiling, registerChatSocket } from './chat-socket.js';
import type { ChatDeps } from './chat-deps.js';
import { registerConsole } from './console-routes.js';
import type { ServerErrorCode } from './errors.js';
import { registerGraphql } from './graphql-route.js';
import type { PlumbChatOptions } from './options.js';
import { sendError, sendNotFound } from './reply-error.js';
import { createReport } from './setup.js';
import type { PlumbSetup } from './setup.js';

/** What the place Plumb is mounted in allows. */
export interface MountScope {
  /** Serve the chat WebSocket; false where there is no socket to upgrade (the fetch handler). */
  readonly websocket: boolean;
  /** Answer unknown paths with Plumb's 404: on Plumb's own instance and under a prefix, never over a host's root. */
  readonly notFound: boolean;
}

/**
 * Registers everything Plumb serves on an encapsulated instance (its prefix included): the actor
 * hook, the error handler, /healthz, /graphql, the chat routes and the console. Nothing here
 * reaches the instance's parent, so a host's other routes never see Plumb's hooks or handlers.
 */
export async function mountPlumb(instance: FastifyInstance, setup: PlumbSetup, options: PlumbChatOptions, scope: MountScope): Promise<void> {
  const { settings, bodyLimit, signer } = setup;
  // `instance.prefix` is the whole prefix of this context ('' at the root, '/assistant' under one).
  const base = instance.prefix.replace(/\/+$/, '');
  const report = createReport(instance.log, options.onError);

  // The host's bodyLimit is its own; Plumb's routes take Plumb's.
  instance.addHook('onRoute', (route) => {
    route.bodyLimit ??= bodyLimit;
  });
  identifyActors(instance, { authenticate: setup.authenticate, login: options.login, signer });

  instance.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof PlumbError) return sendError(reply, 401, error.code as ServerErrorCode, error.message);
    if (error.statusCode === 413) return sendError(reply, 413, 'payload_too_large', `The request body is larger than ${bodyLimit} bytes (the server's bodyLimitBytes setting). Send a shorter message.`);
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, 400, 'bad_request', error.message);
    }
    report(error, { source: `${request.method} ${request.routeOptions.url ?? request.url}` });
    return sendError(reply, 500, 'internal_error', 'Something went wrong on the server.');
  });
  if (scope.notFound) instance.setNotFoundHandler(sendNotFound);

  // A frame over the body limit gets a payload_too_large event and the socket stays; only one over
  // the ceiling is cut off by ws itself (close 1009), so no frame is ever buffered past it. A host
  // that registered @fastify/websocket already owns the server's upgrades: a second registration
  // would answer each upgrade twice.
  if (scope.websocket && !instance.hasDecorator('websocketServer')) {
    await instance.register(websocket, { options: { maxPayload: frameCeiling(bodyLimit) } });
  }

  registerGraphql(instance, options.app);

  const engine = settings.enabled ? options.engine : undefined;
  if (engine !== undefined) {
    const deps: ChatDeps = {
      url: settings.url,
      publicUrl: `${base}${settings.url}`,
      engine,
      signer,
      permission: setup.permission,
      rateLimiter: setup.rateLimiter,
      tokenBudget: options.tokenBudget,
      audit: setup.audit,
      allowedOrigins: settings.allowedOrigins,
      maxBufferedBytes: settings.websocketMaxBufferedBytes,
      bodyLimitBytes: bodyLimit,
      pingIntervalMs: settings.websocketPingSeconds * 1000,
      sseHeadersWithinMs: settings.sseHeadersWithinSeconds * 1000,
      newId: () => nanoid(),
      report,
    };
    registerChatHttp(instance, deps);
    if (scope.websocket) registerChatSocket(instance, deps);
    else {
      instance.get(settings.url, (_request, reply) =>
        reply.status(405).header('allow', 'POST').send({ error: { code: 'method_not_allowed', message: 'This route answers POST; WebSocket is not served here (use POST …stream/ for a streamed turn).' } }),
      );
    }
  }
  if (options.console !== false) {
    registerConsole(instance, { base, signer, chatUrl: `${base}${settings.url}`, chatEnabled: engine !== undefined, bodyLimitBytes: bodyLimit, info: options.consoleInfo ?? {}, ...(options.login === undefined ? {} : { login: options.login }) });
  }
}
