import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { actorKey, isPlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { McpErrorCode } from './errors.js';
import type { McpAuthenticate } from './http-actor.js';

export interface McpHttpOptions {
  /** The endpoint's path, e.g. `/mcp`. */
  readonly path: string;
  readonly authenticate: McpAuthenticate;
  /** A server for one session, whose every call runs as `actor`; `request` is the session's `initialize`. */
  readonly serverFor: (actor: Actor, request: IncomingMessage) => McpServer;
  /** Default 100. */
  readonly maxSessions?: number;
  /** Default 900. Seconds. */
  readonly sessionIdleSeconds?: number;
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly clock?: () => number;
  /** Unexpected failures (the client gets a generic 500). */
  readonly onError?: (error: unknown) => void;
}

export interface McpHttpHandler extends AsyncDisposable {
  /** Answers one request on any path (others get 404); never rejects. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  readonly sessionCount: () => number;
  /** Closes every session; later requests get 503. Idempotent. */
  close(): Promise<void>;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly owner: string;
  lastSeen: number;
}

function ownerOf(actor: Actor): string {
  return actorKey(actor) ?? 'anonymous';
}

function refuse(response: ServerResponse, status: number, code: McpErrorCode | 'not_found' | 'bad_request' | 'internal_error' | 'server_closed', message: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message, data: { code } }, id: null }));
}

/**
 * The Model Context Protocol's Streamable HTTP transport on one path, with a session per client:
 * each is opened by an `initialize` and bound to the actor its credentials name, and every later
 * request of it must name the same actor. Sessions are bounded: past `maxSessions` the least
 * recently used one idle for `sessionIdleSeconds` is closed, else the new one is refused.
 */
export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const sessions = new Map<string, Session>();
  const maxSessions = options.maxSessions ?? 100;
  const idleMs = (options.sessionIdleSeconds ?? 900) * 1000;
  const clock = options.clock ?? Date.now;
  const path = options.path.replace(/\/+$/, '') || '/';
  let closed = false;

  const drop = async (id: string, session: Session): Promise<void> => {
    sessions.delete(id);
    await session.server.close();
  };

  const roomForOne = async (): Promise<boolean> => {
    if (sessions.size < maxSessions) return true;
    let oldest: [string, Session] | undefined;
    for (const entry of sessions) if (oldest === undefined || entry[1].lastSeen < oldest[1].lastSeen) oldest = entry;
    if (oldest === undefined || clock() - oldest[1].lastSeen < idleMs) return false;
    await drop(oldest[0], oldest[1]);
    return true;
  };

  const open = async (actor: Actor, request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!(await roomForOne())) {
      refuse(response, 503, 'mcp_session_limit', `All ${maxSessions} MCP sessions are in use. Close one (DELETE) or try again later.`, { 'retry-after': String(Math.ceil(idleMs / 1000)) });
      return;
    }
    const server = options.serverFor(actor, request);
    const owner = ownerOf(actor);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, owner, lastSeen: clock() });
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined) sessions.delete(id);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    // Anything but an initialize leaves no session: nothing to keep.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await server.close();
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      const pathname = new URL(request.url ?? '/', 'http://mcp.invalid').pathname.replace(/\/+$/, '') || '/';
      if (pathname !== path) return refuse(response, 404, 'not_found', `No MCP endpoint here; it is at ${path}.`);
      if (closed) return refuse(response, 503, 'server_closed', 'The MCP server is shutting down.');
      let actor: Actor;
      try {
        actor = await options.authenticate(request);
      } catch (error) {
        if (isPlumbError(error)) return refuse(response, 401, 'invalid_token', error.message, { 'www-authenticate': 'Bearer' });
        throw error;
      }
      const header = request.headers['mcp-session-id'];
      const id = Array.isArray(header) ? header[0] : header;
      if (id === undefined) {
        if (request.method !== 'POST') return refuse(response, 400, 'bad_request', 'Open a session first: POST an initialize request.');
        return await open(actor, request, response);
      }
      const session = sessions.get(id);
      if (session === undefined) return refuse(response, 404, 'mcp_session_not_found', 'No such MCP session (it was closed or never opened). Initialize again.');
      if (session.owner !== ownerOf(actor)) return refuse(response, 403, 'mcp_session_forbidden', 'This MCP session belongs to another actor.');
      session.lastSeen = clock();
      await session.transport.handleRequest(request, response);
    } catch (error) {
      options.onError?.(error);
      refuse(response, 500, 'internal_error', 'The MCP request failed on the server.');
    }
  };

  const close = async (): Promise<void> => {
    closed = true;
    const open = [...sessions];
    sessions.clear();
    await Promise.allSettled(open.map(([, session]) => session.server.close()));
  };
  return { handle, sessionCount: () => sessions.size, close, [Symbol.asyncDispose]: close };
}

/** A node:http server for the handler, listening; `close` stops it and the handler's sessions. */
export async function listenMcpHttp(handler: McpHttpHandler, options: { readonly port: number; readonly host: string }): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    void handler.handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      (closing ??= (async () => {
        await handler.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
}
