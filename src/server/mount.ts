import websocket from '@fastify/websocket';
import type { FastifyError, FastifyInstance } from 'fastify';
import { nanoid } from 'nanoid';
import { isPlumbError, PlumbError } from '../core/index.js';
import { identifyActors } from './actor-hook.js';
import { registerChatHttp } from './chat-http.js';
import { registerThreadFollow } from './thread-follow-route.js';
import { registerThreadRoutes } from './thread-routes.js';
import { registerQueueRoutes } from './queue-routes.js';
import { createThreadViews } from './thread-views.js';
import { frameCeiling, registerChatSocket, socketErrorHandler } from './chat-socket.js';
import type { ChatDeps } from './chat-deps.js';
import { cancelAnywhere } from './cancel-anywhere.js';
import type { CancelTurn } from './cancel-anywhere.js';
import { registerConsole } from './console-routes.js';
import type { ServerErrorCode } from './errors.js';
import { registerGraphql } from './graphql-route.js';
import { registerReadiness } from './readiness.js';
import { methodGuard } from './method-guard.js';
import type { PlumbChatOptions } from './options.js';
import { requestErrorOf, sendError, sendNotFound } from './reply-error.js';
import { createReport } from './setup.js';
import { drainRequest } from './drain-request.js';
import type { PlumbSetup } from './setup.js';

/** What the place Plumb is mounted in allows. */
export interface MountScope {
  /** Serve the chat WebSocket; false where there is no socket to upgrade (the fetch handler). */
  readonly websocket: boolean;
  /** Answer unknown paths with Plumb's 404: on Plumb's own instance and under a prefix, never over a host's root. */
  readonly notFound: boolean;
  /** Answer OPTIONS on Plumb's routes with 405: on Plumb's own instance only, where no host's CORS plugin answers preflights. */
  readonly options: boolean;
}

/**
 * Registers everything Plumb serves on an encapsulated instance (its prefix included): the actor
 * hook, the error handler, /healthz, /readyz, /graphql, the chat routes and the console. Nothing here
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

  // An answer given before the body was read (413, 401, 403) waits for the rest of it, within bounds,
  // so that the client still writing the body reads the answer instead of a reset.
  instance.addHook('onSend', async (request) => drainRequest(request.raw));

  instance.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof PlumbError) return sendError(reply, 401, error.code as ServerErrorCode, error.message);
    const refused = requestErrorOf(error, bodyLimit);
    if (refused !== undefined) return sendError(reply, refused.status, refused.code, refused.message);
    report(error, { source: `${request.method} ${request.routeOptions.url ?? '(no route)'}` });
    return sendError(reply, 500, 'internal_error', 'Something went wrong on the server.');
  });
  if (scope.notFound) instance.setNotFoundHandler(sendNotFound);
  const guard = methodGuard(instance, { options: scope.options });

  // A frame over the body limit gets a payload_too_large event and the socket stays; only one over
  // the ceiling is cut off by ws itself (close 1009), so no frame is ever buffered past it. A host
  // that registered @fastify/websocket already owns the server's upgrades: a second registration
  // would answer each upgrade twice.
  if (scope.websocket && !instance.hasDecorator('websocketServer')) {
    await instance.register(websocket, { options: { maxPayload: frameCeiling(bodyLimit) }, errorHandler: socketErrorHandler });
  }
  // After the websocket plugin's hooks: an upgrade refused here (401) still has its socket ended by them.
  identifyActors(instance, { authenticate: setup.authenticate, login: options.login, signer });

  registerGraphql(instance, options.app, { introspection: settings.graphqlIntrospection, guard, report });

  const engine = settings.enabled ? options.engine : undefined;
  const recovery = options.readiness?.recovery ?? engine?.ready;
  registerReadiness(instance, { ...options.readiness, ...(recovery === undefined ? {} : { recovery }) }, guard);
  if (engine !== undefined) {
    // Live views follow threads through the same journal and notices as `GET …/follow/` (docs/protocol.md, "Live thread views").
    const following = options.following;
    const views =
      following === undefined
        ? undefined
        : createThreadViews({
            store: following.store,
            events: following.events,
            coalesceMs: settings.viewCoalesceMs,
            maxPendingBatches: settings.viewMaxPendingBatches,
            maxPendingBytes: settings.viewMaxPendingBytes,
            maxReplayItems: settings.viewMaxReplayItems,
            report: (error) => report(error, { source: 'views' }),
          });
    if (views !== undefined) {
      // Before the server waits for its connections to end: every view's stream ends here.
      instance.addHook('preClose', (done) => {
        void views.close().then(() => done());
      });
    }
    const cancel = engine.cancel?.bind(engine);
    let cancelTurn: CancelTurn | undefined = cancel;
    if (cancel !== undefined && following !== undefined) {
      cancelTurn = cancelAnywhere(cancel, { store: following.store, events: following.events, timeoutMs: settings.cancelTimeoutMs });
      // Another process's cancel of a turn that may run here: the sender checked the actor; a no-op where the turn does not run.
      const stopListening = following.events.onCancel((request) => {
        cancel({ threadId: request.threadId, mode: request.mode }).catch((error: unknown) => {
          if (!(isPlumbError(error) && error.code === 'thread_not_found')) report(error, { source: 'cancel' });
        });
      });
      instance.addHook('onClose', (_instance, done) => {
        stopListening();
        done();
      });
    }
    const deps: ChatDeps = {
      url: settings.url,
      publicUrl: `${base}${settings.url}`,
      engine,
      cancel: cancelTurn,
      signer,
      permission: setup.permission,
      rateLimiter: setup.rateLimiter,
      anonymousBy: settings.rateLimit.anonymousBy,
      sessionBudget: setup.sessionBudget,
      guard,
      tokenBudget: options.tokenBudget,
      audit: setup.audit,
      allowedOrigins: settings.allowedOrigins,
      maxBufferedBytes: settings.websocketMaxBufferedBytes,
      bodyLimitBytes: bodyLimit,
      pingIntervalMs: settings.websocketPingSeconds * 1000,
      sseHeadersWithinMs: settings.sseHeadersWithinSeconds * 1000,
      newId: () => nanoid(),
      report,
      views,
      viewsPerSocket: settings.viewsPerSocket,
    };
    if (engine.on !== undefined) {
      // What the engine could not do reaches the host (log, onError; a failing permission also the audit log), never the client.
      const stops = [
        engine.on('error', (failure) => {
          report(failure.error, { source: `engine:${failure.source}` });
          if (isPlumbError(failure.error) && failure.error.code === 'permission_error') setup.audit.permissionFailure(failure);
        }),
      ];
      if (setup.audit.level !== 'off') stops.push(engine.on('turnDiagnostics', (payload) => setup.audit.turn(payload)));
      instance.addHook('onClose', (_instance, done) => {
        for (const stop of stops) stop();
        done();
      });
    }
    registerChatHttp(instance, deps);
    registerThreadRoutes(instance, deps);
    registerQueueRoutes(instance, deps);
    if (options.following !== undefined) registerThreadFollow(instance, deps, options.following);
    if (scope.websocket) registerChatSocket(instance, deps);
    else guard(settings.url, ['POST'], 'WebSocket is not served here: stream a turn with POST …stream/.');
  }
  if (options.console !== false) {
    registerConsole(instance, { base, signer, guard, sessionBudget: setup.sessionBudget, chatUrl: `${base}${settings.url}`, chatEnabled: engine !== undefined, viewsEnabled: engine !== undefined && options.following !== undefined, bodyLimitBytes: bodyLimit, info: options.consoleInfo ?? {}, ...(options.login === undefined ? {} : { login: options.login }) });
  }
}
