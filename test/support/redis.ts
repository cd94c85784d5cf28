import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';

/** The Redis server the Redis tests run against: `redis://host:port`. */
export const redisUrlVariable = 'PLUMB_TEST_REDIS_URL';

export interface TestRedis {
  readonly url: string;
  /** A key prefix of the current test's own (its keys are deleted after it). */
  prefix(): string;
  /** A client on the test server, closed after the current test. */
  client(): Redis;
  /** A redis-server of the test's own on a free port, for stopping mid-test; stopped after it. */
  privateServer(): Promise<PrivateRedis>;
}

export interface PrivateRedis {
  readonly url: string;
  /** Ends the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => resolve());
  });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        await probe.connect();
        await probe.ping();
        return child;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`redis-server on port ${port} did not start`);
  } finally {
    probe.disconnect();
  }
}

function ready(url: string): TestRedis & { cleanUp(): Promise<void>; end(): Promise<void>; ping(): Promise<void> } {
  const admin = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  admin.on('error', () => undefined);
  const prefixes: string[] = [];
  const clients: Redis[] = [];
  const servers: ChildProcess[] = [];
  return {
    url,
    prefix: () => {
      const prefix = `plumb-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
      prefixes.push(prefix);
      return prefix;
    },
    client: () => {
      const client = new Redis(url, { maxRetriesPerRequest: 1 });
      client.on('error', () => undefined);
      clients.push(client);
      return client;
    },
    privateServer: async () => {
      const port = await freePort();
      let child = await startRedisServer(port);
      servers.push(child);
      const exited = (process: ChildProcess): Promise<void> => new Promise((resolve) => (process.exitCode !== null || process.signalCode !== null ? resolve() : process.once('exit', () => resolve())));
      return {
        url: `redis://127.0.0.1:${port}`,
        stop: async () => {
          child.kill('SIGCONT');
          child.kill('SIGTERM');
          await exited(child);
        },
        freeze: () => void child.kill('SIGSTOP'),
        thaw: () => void child.kill('SIGCONT'),
        start: async () => {
          child = await startRedisServer(port);
          servers.push(child);
        },
      };
    },
    ping: async () => {
      await admin.ping();
    },
    cleanUp: async () => {
      for (const client of clients.splice(0)) client.disconnect();
      for (const server of servers.splice(0)) {
        server.kill('SIGCONT');
        server.kill('SIGKILL');
      }
      for (const prefix of prefixes.splice(0)) {
        const keys = await admin.keys(`${prefix}*`);
        if (keys.length > 0) await admin.del(...keys);
      }
    },
    end: () => {
      admin.disconnect();
      return Promise.resolve();
    },
  };
}

/**
 * `describe` for tests that need a real Redis server, named by PLUMB_TEST_REDIS_URL (.ci/run starts
 * one). Without it — or when it does not answer — the tests fail when CI is set (CI must run them)
 * and are skipped, with a notice, on a developer's machine. Each test's keys, clients and private
 * servers are removed after it.
 */
export function describeWithRedis(title: string, body: (server: TestRedis) => void): void {
  const url = process.env[redisUrlVariable];
  const ci = process.env.CI !== undefined && process.env.CI !== '';
  if (url === undefined || url === '') {
    const reason = `${redisUrlVariable} is not set: point it at a Redis server (redis://127.0.0.1:6379); .ci/run starts one.`;
    if (ci) {
      describe(title, () => {
        it('has a Redis server to run against', () => {
          throw new Error(`${reason} CI must run the Redis tests.`);
        });
      });
      return;
    }
    // eslint-disable-next-line no-console -- test support: say why a suite did not run
    console.warn(`[plumb] skipping "${title}": ${reason}`);
    describe.skip(title, () => {
      it('needs a Redis server', () => undefined);
    });
    return;
  }
  describe(title, () => {
    const server = ready(url);
    let reachable = true;
    beforeAll(async () => {
      try {
        await server.ping();
      } catch (error) {
        const reason = `${redisUrlVariable}=${url} does not answer (${(error as Error).message}); start redis-server.`;
        if (ci) throw new Error(`${reason} CI must run the Redis tests.`);
        reachable = false;
        // eslint-disable-next-line no-console -- test support: say why a suite did not run
        console.warn(`[plumb] skipping "${title}": ${reason}`);
      }
    });
    beforeEach((context) => {
      if (!reachable) context.skip();
    });
    afterEach(() => server.cleanUp());
    afterAll(() => server.end());
    body(server);
  });
}
