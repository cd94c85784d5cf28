import { createDemoApp } from 'plumb-agent/demo';
import { createChatStack, createFetchHandler, parseConfig } from 'plumb-agent/server';
import type { PlumbFetchHandler } from 'plumb-agent/server';

interface Chat {
  readonly handler: PlumbFetchHandler;
  close(): Promise<void>;
}

let chat: Promise<Chat> | undefined;

/** One handler per server process, made on the first request (Next.js loads route modules lazily). */
export async function chatHandler(): Promise<PlumbFetchHandler> {
  chat ??= open().catch((error: unknown) => {
    chat = undefined; // the next request tries again
    throw error;
  });
  return (await chat).handler;
}

/** Closes the handler, the engine and the data (tests; a Next.js server just exits). */
export async function closeChat(): Promise<void> {
  const opened = chat;
  chat = undefined;
  if (opened !== undefined) await (await opened).close();
}

async function open(): Promise<Chat> {
  const app = await createDemoApp({ path: ':memory:' });
  const settings = parseConfig({ store: ':memory:' });
  const stack = await createChatStack({ app, config: settings });
  // The routes live under /api, where app/api/chat/… puts them: /api/chat/, /api/chat/stream/, …
  const handler = await createFetchHandler({ app, engine: stack.engine, settings, prefix: '/api' });
  return {
    handler,
    async close() {
      await handler.close();
      await stack.close();
      await app.close();
    },
  };
}
