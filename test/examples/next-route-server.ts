/**
 * What `next start` does with a request under app/api/chat/[...path]/: it makes a `Request` of it and
 * calls the route module's export for its method. Run from an installed next-route example's folder
 * with its own tsx, so that the route runs on the installed package without Next.js installed.
 * Prints `listening on <url>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Handler = (request: Request) => Promise<Response>;
const route = (await import(pathToFileURL(join(process.cwd(), 'app', 'api', 'chat', '[...path]', 'route.ts')).href)) as Record<string, Handler | undefined>;

const server = createServer((req, res) => {
  const answer = async (): Promise<void> => {
    const handler = route[req.method ?? 'GET'];
    if (handler === undefined) {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
    const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) }));
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') res.setHeader(name, value);
    });
    res.setHeader('set-cookie', response.headers.getSetCookie());
    res.writeHead(response.status).end(Buffer.from(await response.arrayBuffer()));
  };
  answer().catch((error: unknown) => res.writeHead(500).end(String(error)));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
