import WebSocket from 'ws';
import { createDemoApp, demoActor, demoActorNames } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createServer, parseConfig } from '../../src/server/index.js';
import type { ChatEngine, PlumbConfigInput, PlumbServer, ServerOptions } from '../../src/server/index.js';
import { tempDir } from '../support/temp.js';

export interface Running {
  readonly server: PlumbServer;
  readonly url: string;
  readonly wsUrl: string;
  close(): Promise<void>;
}

/** Starts a real server on a loopback port over the demo app and the given engine. */
export async function startServer(engine: ChatEngine | undefined, settings: PlumbConfigInput = {}, extra: Partial<ServerOptions> = {}, app?: App): Promise<Running> {
  const dir = tempDir();
  const ownApp = app ?? (await createDemoApp({ path: ':memory:' }));
  const server = await createServer({
    app: ownApp,
    ...(engine === undefined ? {} : { engine }),
    settings: parseConfig(settings),
    authenticate: (request) => {
      const header = request.headers['x-plumb-user'];
      const name = Array.isArray(header) ? header[0] : header;
      return name === undefined ? null : (demoActor(name) ?? null);
    },
    login: { names: demoActorNames.filter((name) => name !== 'anonymous'), resolve: (name) => (name === 'anonymous' ? undefined : demoActor(name)) },
    secret: 'x'.repeat(40),
    ...extra,
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    server,
    url,
    wsUrl: url.replace('http', 'ws'),
    close: async () => {
      await server.close();
      if (app === undefined) await ownApp.close();
      dir.remove();
    },
  };
}

/** A browser-like client: keeps cookies, fetches a CSRF token, posts JSON. */
export class Client {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${this.base}${path}`, { ...init, headers: { ...this.headers, cookie: this.cookieHeader(), ...(init.headers as Record<string, string> | undefined) } });
    this.keep(response);
    return response;
  }

  async withCsrf(): Promise<this> {
    const response = await this.fetch('/chat/csrf/');
    this.csrf = ((await response.json()) as { token: string }).token;
    return this;
  }

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.csrf === undefined ? {} : { 'x-csrf-token': this.csrf }), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }
}

/** Reads an SSE body into its events. */
export async function readSse(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
}

/** Opens a WebSocket and collects its frames. */
export async function openSocket(url: string, options: WebSocket.ClientOptions = {}): Promise<{ socket: WebSocket; frames: Record<string, unknown>[]; next: (type: string) => Promise<Record<string, unknown>>; closed: Promise<{ code: number; reason: string }> }> {
  const socket = new WebSocket(url, { origin: new URL(url.replace('ws', 'http')).origin, ...options });
  const frames: Record<string, unknown>[] = [];
  const waiters: { type: string; resolve: (frame: Record<string, unknown>) => void; from: number }[] = [];
  let seen = 0;
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (frame.type === waiter.type) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('close', () => resolve());
  });
  return {
    socket,
    frames,
    closed,
    next: (type) =>
      new Promise((resolve) => {
        const found = frames.slice(seen).find((frame) => frame.type === type);
        if (found !== undefined) {
          seen = frames.indexOf(found) + 1;
          resolve(found);
          return;
        }
        waiters.push({ type, resolve: (frame) => ((seen = frames.indexOf(frame) + 1), resolve(frame)), from: seen });
      }),
  };
}
