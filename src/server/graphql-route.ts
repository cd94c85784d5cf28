import { execute } from 'graphql';
import type { FastifyInstance } from 'fastify';
import { isPlumbError } from '../core/index.js';
import type { App } from '../data/index.js';
import { createActorSchemas } from './actor-schema.js';
import { createGraphqlGate } from './graphql-gate.js';
import type { MethodGuard } from './method-guard.js';
import { sendError } from './reply-error.js';
import type { Report } from './setup.js';

/**
 * `GET /healthz` and `POST /graphql`: the app's schema as the request's actor may read it
 * (`createActorSchemas`), executed as that actor; introspection off with `graphqlIntrospection: false`.
 */
export function registerGraphql(instance: FastifyInstance, app: App, options: { readonly introspection: boolean; readonly guard: MethodGuard; readonly report: Report }): void {
  instance.get('/healthz', () => ({ status: 'ok' }));
  options.guard('/healthz', ['GET']);
  const schemas = createActorSchemas(app);
  const gate = createGraphqlGate({ introspection: options.introspection });

  instance.post('/graphql', async (request, reply) => {
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
    const schema = schemas.forActor(request.actor);
    // An actor who reads everything, with introspection on, needs nothing checked here: the app's schema is its own.
    if (schema !== app.schema || !options.introspection) {
      const decision = gate(schema, body.query, typeof body.operationName === 'string' ? body.operationName : undefined);
      if (decision.kind === 'errors') return { errors: decision.errors };
      if (decision.kind === 'introspection') {
        return execute({ schema, document: decision.document, ...(body.variables ? { variableValues: body.variables as Record<string, unknown> } : {}), ...(typeof body.operationName === 'string' ? { operationName: body.operationName } : {}) });
      }
    }
    // The request stream closes as soon as its body is read; the response closing before it was
    // written is what says the client went away.
    const controller = new AbortController();
    const abortOnClose = (): void => {
      if (!reply.raw.writableEnded) controller.abort();
    };
    reply.raw.once('close', abortOnClose);
    try {
      const result = await app.graphql({
        actor: request.actor,
        document: body.query,
        ...(body.variables ? { variables: body.variables as Record<string, unknown> } : {}),
        ...(typeof body.operationName === 'string' ? { operationName: body.operationName } : {}),
        signal: controller.signal,
      });
      // A host's failing read permission: the caller got PERMISSION_ERROR and a generic message, the host's log gets what failed.
      for (const error of result.errors ?? []) if (isPlumbError(error.originalError) && error.originalError.code === 'permission_error') options.report(error.originalError, { source: 'graphql' });
      return result;
    } finally {
      reply.raw.off('close', abortOnClose);
    }
  });
  options.guard('/graphql', ['POST']);
}
