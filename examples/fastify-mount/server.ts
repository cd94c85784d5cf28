import Fastify from 'fastify';
import { PlumbError } from 'plumb-agent';
import type { Actor, AuthRequest, AuthResult } from 'plumb-agent';
import { createDemoApp, demoActors } from 'plumb-agent/demo';
import { createChatStack, parseConfig, plumbChat } from 'plumb-agent/server';

/** The shop's API tokens; a real host keeps hashed tokens in its database. */
const apiTokens = new Map<string, Actor>([['token-for-bob', demoActors.bob]]);

/**
 * API clients send `Authorization: Bearer <token>`: a credential no cross-site page can make a
 * browser send, hence `credential: 'token'` (no CSRF pair needed). Everyone else is anonymous.
 */
function authenticate(request: AuthRequest): AuthResult {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return null;
  const actor = apiTokens.get(header.slice('Bearer '.length));
  if (actor === undefined) throw new PlumbError('unauthenticated', 'Unknown API token.');
  return { actor, credential: 'token' };
}

export interface Shop {
  readonly url: string;
  close(): Promise<void>;
}

/** The shop's own server, with its own routes, and Plumb under /assistant. */
export async function startShop(options: { readonly port: number; readonly host?: string }): Promise<Shop> {
  const app = await createDemoApp({ path: ':memory:' });
  const settings = parseConfig({ store: ':memory:' });
  const stack = await createChatStack({ app, config: settings });

  const server = Fastify();
  server.get('/', () => ({ shop: 'Acme parts', assistant: '/assistant/console/' }));
  await server.register(plumbChat, { prefix: '/assistant', app, engine: stack.engine, settings, authenticate });

  const url = await server.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  return {
    url,
    async close() {
      await server.close();
      await stack.close();
      await app.close();
    },
  };
}
