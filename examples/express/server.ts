import { once } from 'node:events';
import express from 'express';
import { createDemoApp } from 'plumb-agent/demo';
import { createChatStack, createFetchHandler, parseConfig } from 'plumb-agent/server';
import { fromFetch } from './fetch-adapter.js';

export interface Shop {
  readonly url: string;
  close(): Promise<void>;
}

/** An Express 5 app with its own routes; /chat and /graphql go to Plumb's fetch handler (HTTP and SSE). */
export async function startShop(options: { readonly port: number; readonly host?: string }): Promise<Shop> {
  const app = await createDemoApp({ path: ':memory:' });
  const settings = parseConfig({ store: ':memory:' });
  const stack = await createChatStack({ app, config: settings });
  const plumb = await createFetchHandler({ app, engine: stack.engine, settings });

  const web = express();
  web.get('/', (_req, res) => {
    res.json({ shop: 'Acme parts' });
  });
  web.use(['/chat', '/graphql'], fromFetch(plumb.handle));

  const server = web.listen(options.port, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    async close() {
      await plumb.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error))));
      await stack.close();
      await app.close();
    },
  };
}
