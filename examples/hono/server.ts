import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { createDemoApp } from 'plumb-agent/demo';
import { createChatStack, createFetchHandler, parseConfig } from 'plumb-agent/server';

export interface Shop {
  readonly url: string;
  close(): Promise<void>;
}

/** A Hono app with its own routes; /chat/* and /graphql go to Plumb's fetch handler (HTTP and SSE). */
export async function startShop(options: { readonly port: number; readonly host?: string }): Promise<Shop> {
  const app = await createDemoApp({ path: ':memory:' });
  const settings = parseConfig({ store: ':memory:' });
  const stack = await createChatStack({ app, config: settings });
  const plumb = await createFetchHandler({ app, engine: stack.engine, settings });

  const web = new Hono();
  web.get('/', (c) => c.json({ shop: 'Acme parts' }));
  const toPlumb = (c: Context): Promise<Response> => plumb.handle(c.req.raw, { clientAddress: getConnInfo(c).remote.address });
  web.all('/chat/*', toPlumb);
  web.post('/graphql', toPlumb);

  const hostname = options.host ?? '127.0.0.1';
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: web.fetch, port: options.port, hostname }, () => resolve(started));
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://${hostname}:${port}`,
    async close() {
      await plumb.close();
      await new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error))));
      await stack.close();
      await app.close();
    },
  };
}
