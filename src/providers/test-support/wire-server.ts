import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One reply the loopback server plays: status, headers, then body pieces written one by one. */
export interface WireReply {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Body pieces; each is written (and flushed) separately. */
  readonly chunks?: readonly string[];
  /** Wait before the status line and first byte. */
  readonly firstByteDelayMs?: number;
  /** Wait between pieces. */
  readonly chunkDelayMs?: number;
  /** A long wait before the last piece only (to trip the between-events clock). */
  readonly stallBeforeLastMs?: number;
  /** Destroy the socket after the pieces instead of ending the response cleanly. */
  readonly destroy?: boolean;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** A loopback HTTP server (127.0.0.1, port 0) that replays scripted replies in order and records requests. */
export class WireServer {
  readonly requests: RecordedRequest[] = [];
  readonly #replies: WireReply[] = [];
  readonly #server: Server;
  readonly #open = new Set<ServerResponse>();
  #timers = new Set<NodeJS.Timeout>();

  private constructor() {
    this.#server = createServer((request, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // keep the text
        }
        this.requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
        void this.#play(this.#replies.shift() ?? { status: 500, chunks: ['{"error":{"message":"no reply scripted"}}'] }, response);
      });
    });
  }

  static async start(): Promise<WireServer> {
    const server = new WireServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  get url(): string {
    const address = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  reply(...replies: WireReply[]): void {
    this.#replies.push(...replies);
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    for (const response of this.#open) response.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.add(timer);
    });
  }

  async #play(reply: WireReply, response: ServerResponse): Promise<void> {
    this.#open.add(response);
    try {
      await this.#sleep(reply.firstByteDelayMs ?? 0);
      if (response.destroyed) return;
      response.writeHead(reply.status ?? 200, reply.headers ?? {});
      response.flushHeaders();
      const chunks = reply.chunks ?? [];
      for (const [index, chunk] of chunks.entries()) {
        if (index > 0) await this.#sleep(index === chunks.length - 1 && reply.stallBeforeLastMs !== undefined ? reply.stallBeforeLastMs : (reply.chunkDelayMs ?? 1));
        if (response.destroyed) return;
        response.write(chunk);
      }
      if (reply.destroy === true) {
        await this.#sleep(5);
        response.socket?.destroy();
      } else {
        response.end();
      }
    } finally {
      this.#open.delete(response);
    }
  }
}

/** SSE framing: `data: …` records (objects JSON-encoded), each ended by a blank line. */
export function sse(...records: unknown[]): string[] {
  return records.map((record) => {
    if (typeof record === 'object' && record !== null && 'event' in record && 'data' in record) {
      const { event, data } = record as { event: string; data: unknown };
      return `event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
    }
    return `data: ${typeof record === 'string' ? record : JSON.stringify(record)}\n\n`;
  });
}

/** NDJSON framing: one JSON object per line. */
export function ndjson(...records: unknown[]): string[] {
  return records.map((record) => `${JSON.stringify(record)}\n`);
}

/** Splits every piece in two at its middle, so records straddle writes. */
export function straddle(chunks: readonly string[]): string[] {
  return chunks.flatMap((chunk) => (chunk.length < 2 ? [chunk] : [chunk.slice(0, chunk.length >> 1), chunk.slice(chunk.length >> 1)]));
}
