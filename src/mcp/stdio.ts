import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export interface StdioOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Stops serving when it aborts (SIGINT, SIGTERM). */
  readonly signal?: AbortSignal;
}

/**
 * Serves `server` on stdin and stdout (newline-delimited JSON-RPC) until the client closes its end
 * of stdin or `signal` aborts; resolves once the server is closed. Nothing else may write to stdout.
 */
export async function serveMcpStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let stop: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const onEnd = (): void => stop?.();
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  options.signal?.addEventListener('abort', onEnd, { once: true });
  transport.onclose = onEnd;
  try {
    await server.connect(transport);
    if (options.signal?.aborted === true) onEnd();
    await stopped;
  } finally {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    options.signal?.removeEventListener('abort', onEnd);
    await server.close();
  }
}
