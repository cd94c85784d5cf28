import type { FastifyPluginAsync } from 'fastify';
import { mountPlumb } from './mount.js';
import type { PlumbChatOptions } from './options.js';
import { resolveSetup } from './setup.js';

/**
 * Plumb on a host's own fastify instance: `await host.register(plumbChat, { prefix: '/assistant', app, engine })`
 * serves the chat routes, /graphql, /healthz and the console under the prefix. Plumb's hooks,
 * error handler and request decorations stay inside its own context; its 404 answers only under a
 * prefix. @fastify/websocket is registered here unless the host registered it first. The host's
 * instance keeps what only a root instance sets: `trustProxy` (the client address that rate limits
 * key anonymous clients by), `frameworkErrors` and `clientErrorHandler`.
 */
export const plumbChat: FastifyPluginAsync<PlumbChatOptions> = async (instance, options) => {
  await mountPlumb(instance, await resolveSetup(options), options, { websocket: true, notFound: instance.prefix !== '', options: false });
};
