import type { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  /** Longest wait to connect and for each command's answer. Milliseconds. */
  readonly timeoutMs: number;
  /** Called for connection errors (a server that went away, refused credentials), at most once per `quietMs`. */
  readonly onError?: (error: Error) => void;
  /** For a subscriber connection: no command timeout (it waits for messages), the same reconnects. */
  readonly subscriber?: boolean;
}

/** A Redis connection that never hangs and never crashes the process. */
export interface RedisConnection extends AsyncDisposable {
  readonly client: Redis;
  /** Closes the connection; idempotent. */
  close(): Promise<void>;
}

/**
 * One ioredis connection, bounded: connecting and every command give up after `timeoutMs`; while
 * the server cannot be reached, commands fail at once instead of queueing (no offline queue, one
 * try per command), and ioredis reconnects in the background with a backoff capped at 2 s. Errors
 * go to `onError` (an unhandled 'error' event would end the process). ioredis loads on the first
 * call, so that a server without Redis never loads it. Resolves once connected, or after `timeoutMs`
 * without (it goes on connecting in the background).
 */
export async function connectRedis(url: string, options: RedisConnectionOptions): Promise<RedisConnection> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    connectTimeout: options.timeoutMs,
    ...(options.subscriber === true ? {} : { commandTimeout: options.timeoutMs }),
    maxRetriesPerRequest: 0,
    enableOfflineQueue: options.subscriber === true,
    retryStrategy: (times) => Math.min(times * 100, 2000),
    connectionName: 'plumb',
  });
  let lastReport = 0;
  client.on('error', (error: Error) => {
    const now = Date.now();
    if (now - lastReport < 10_000) return;
    lastReport = now;
    options.onError?.(error);
  });
  // Starts with the connection up when Redis answers within the timeout, else at once: it keeps trying in the background.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, options.timeoutMs);
    function done(): void {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    }
    client.once('ready', done);
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    })());
  return { client, close, [Symbol.asyncDispose]: close };
}
