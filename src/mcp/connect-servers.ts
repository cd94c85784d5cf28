import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { PlumbError } from '../core/index.js';
import type { Tool, ToolEffect } from '../tools/index.js';
import { mcpHostTools } from './host-tools.js';

/** One external server, as the `mcpServers` setting describes it. */
export interface ExternalMcpServer {
  readonly command?: string | undefined;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string | undefined;
  readonly headers?: Readonly<Record<string, string>>;
  readonly effects?: Readonly<Record<string, ToolEffect>>;
  readonly prefix?: string | undefined;
  readonly timeoutSeconds?: number;
}

export interface ConnectedMcpTools extends AsyncDisposable {
  readonly tools: readonly Tool[];
  /** Closes every client (and stops the servers it spawned). Idempotent. */
  close(): Promise<void>;
}

function transportFor(server: ExternalMcpServer, cwd: string): Transport {
  if (server.command !== undefined) {
    return new StdioClientTransport({ command: server.command, args: [...(server.args ?? [])], env: { ...(server.env ?? {}) }, cwd, stderr: 'inherit' });
  }
  return new StreamableHTTPClientTransport(new URL(server.url ?? ''), { requestInit: { headers: { ...(server.headers ?? {}) } } });
}

/**
 * Connects to each external MCP server and lists its tools as host tools, named `<prefix><tool>`
 * (prefix default: the server's key and `_`). A server that cannot be started, reached or listed
 * fails the whole start with `mcp_server_unavailable`, after closing those already connected.
 */
export async function connectMcpServers(servers: Readonly<Record<string, ExternalMcpServer>>, options: { readonly cwd: string; readonly version?: string }): Promise<ConnectedMcpTools> {
  const clients: Client[] = [];
  const close = async (): Promise<void> => {
    const open = clients.splice(0);
    await Promise.allSettled(open.map((client) => client.close()));
  };
  const tools: Tool[] = [];
  try {
    for (const [key, server] of Object.entries(servers)) {
      const client = new Client({ name: 'plumb', version: options.version ?? '0.0.0' });
      try {
        await client.connect(transportFor(server, options.cwd));
      } catch (error) {
        throw new PlumbError('mcp_server_unavailable', `The MCP server '${key}' (mcpServers.${key}) could not be ${server.command === undefined ? `reached at ${server.url}` : `started with ${server.command}`}: ${(error as Error).message}`, { cause: error, details: { server: key } });
      }
      clients.push(client);
      try {
        tools.push(...(await mcpHostTools({ client, effects: server.effects ?? {}, prefix: server.prefix ?? `${key}_`, timeoutMs: (server.timeoutSeconds ?? 30) * 1000, label: `the MCP server '${key}'` })));
      } catch (error) {
        if (error instanceof PlumbError) throw error;
        throw new PlumbError('mcp_server_unavailable', `The MCP server '${key}' did not list its tools: ${(error as Error).message}`, { cause: error, details: { server: key } });
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { tools, close, [Symbol.asyncDispose]: close };
}
