import cluster from 'node:cluster';
import type { Command } from 'commander';
import { pino } from 'pino';
import { actorNames, namedActor, settingFunction } from '../../config/index.js';
import type { Authenticate, PlumbConfig } from '../../config/index.js';
import {
  connectRedis,
  createChatStack,
  createLocalThreadEvents,
  createMemoryRateLimitStore,
  createRateLimiter,
  createRedisRateLimitStore,
  createRedisThreadEvents,
  createServer,
  createTokenBudget,
  exampleLanguages,
} from '../../server/index.js';
import type { RateLimitStore, ThreadEvents } from '../../server/index.js';
import { redactUrl, storeLocation } from '../../config/index.js';
import { displayPath } from '../display-path.js';
import { primaryShutdown, runPrimary } from './serve-workers.js';
import type { WorkerMessage } from './serve-workers.js';
import type { LoginDirectory } from '../../server/index.js';
import { addAppOptions, openCliApp } from '../app-options.js';
import type { AppOptions } from '../app-options.js';
import type { ModuleLoader } from '../../config/index.js';
import { addProviderOptions, checkProviderFlags, providerOverrides } from '../provider-options.js';
import type { ProviderOptions } from '../provider-options.js';
import { CliFailure, CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';
import { addRouterOption } from '../router-option.js';
import { runningPlumb } from '../../running-plumb.js';
import type { RouterMode } from '../router-option.js';

interface ServeOptions extends AppOptions, ProviderOptions {
  readonly port?: string;
  readonly host?: string;
  readonly log?: boolean;
  readonly router?: RouterMode;
  readonly workers?: string;
}

export function registerServeCommand(program: Command, io: CliIo, signals: ShutdownSignals = processSignals): void {
  const command = program
    .command('serve')
    .description('Start the Plumb server over the configured app (chat over HTTP, SSE and WebSocket, the console, /graphql, /healthz, /readyz) until SIGINT or SIGTERM')
    .option('--port <port>', 'TCP port (0 picks a free one; default: the configuration\'s port, 8787)')
    .option('--host <host>', 'interface to listen on (default: the configuration\'s host, 127.0.0.1)')
    .option('--log', 'write request logs as JSON lines to stderr')
    .option('--workers <n>', 'serve from N processes behind one port (node:cluster); the journal and rate limits must be shared: store on a file or postgres://, redis for the limits (default 1)');
  addRouterOption(addProviderOptions(addAppOptions(command))).action(async (options: ServeOptions) => {
    const started = performance.now();
    const workers = options.workers === undefined ? 1 : Number(options.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new CliUsageError(`--workers must be a whole number from 1 to 64, got '${options.workers}'`);
    const worker = cluster.isWorker && process.env.PLUMB_WORKER_INDEX !== undefined;
    if (workers > 1 && !worker) return runPrimary({ workers, io, shutdown: () => signals.wait() });
    if (!worker) return serveOne(options, io, signals, { workers, worker, started });
    // Listening from the start: a shutdown the primary asks for while this worker still starts is kept, not lost.
    const shutdownAsked = primaryShutdown();
    try {
      await serveOne(options, io, signals, { workers, worker, started, shutdownAsked });
    } catch (error) {
      process.send?.({ type: 'plumb-failed', message: error instanceof Error ? error.message : String(error) } satisfies WorkerMessage);
      throw error;
    } finally {
      // The IPC channel would keep a finished worker alive.
      if (process.connected) process.disconnect();
    }
  });
}

/** One server process: the whole of `plumb serve` without --workers, or one worker of it. */
async function serveOne(options: ServeOptions, io: CliIo, signals: ShutdownSignals, run: { readonly workers: number; readonly worker: boolean; readonly started: number; readonly shutdownAsked?: Promise<void> }): Promise<void> {
  const { workers, worker, started } = run;
  const overrides: Record<string, unknown> = { ...providerOverrides(options) };
  if (options.port !== undefined) {
    const port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliUsageError(`--port must be an integer from 0 to 65535, got '${options.port}'`);
    overrides.port = port;
  }
  if (options.host !== undefined) overrides.host = options.host;
  if (options.router !== undefined) overrides.router = options.router;
  const opened = await openCliApp(options, overrides);
  const { config, loaded } = opened;
  const closers: (() => Promise<void>)[] = [() => opened.close()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.reverse()) await close();
  };
  let url: string;
  let stack: Awaited<ReturnType<typeof createChatStack>>;
  try {
    checkProviderFlags(options, config.provider);
    const { app, tools, vocabulary, rulebook, examples } = opened.opened;
    const logger = options.log === true ? pino({ name: 'plumb' }, process.stderr) : false;
    const warnings = pino({ name: 'plumb' }, process.stderr);
    if (workers > 1 && storeLocation(config, loaded.root).kind === 'memory') throw new CliFailure('--workers needs a journal every worker shares: set store to a SQLite file or a postgres:// URL, not :memory:.');
    if (workers > 1 && config.redis === null && process.env.PLUMB_WORKER_INDEX === '0') io.stderr(`plumb: redis is not set: each of the ${workers} workers counts rate limits on its own (an actor gets ${workers}× the limit), and a thread is followed only on the worker that runs it.\n`);
    const shared = await sharedParts(config, (message, error) => warnings.warn({ err: error }, message));
    closers.push(() => shared.close());
    const rateLimiter = createRateLimiter(config.rateLimit, shared.rateStore);
    const tokenBudget = createTokenBudget(rateLimiter);
    stack = await createChatStack({ app, config, wrapProvider: tokenBudget.wrap, host: { tools, vocabulary, rulebook, actorRow: opened.opened.host.actorRow, examples }, cwd: loaded.root, events: shared.events });
    closers.push(() => stack.close());
    const server = await createServer({
      app,
      engine: stack.engine,
      settings: config,
      rateLimiter,
      // The new-session budget counts in the same store as the limiter, shared across workers.
      rateLimitStore: shared.rateStore,
      tokenBudget,
      cwd: loaded.root,
      runningPlumb,
      ...(config.authenticate === null ? {} : { authenticate: await authenticateFrom(config.authenticate, loaded.load) }),
      ...(config.consoleSignIn ? { login: signInDirectory(config) } : {}),
      consoleInfo: { provider: stack.provider?.name ?? 'none (router only)', model: stack.provider?.model ?? '—', router: stack.reader === undefined ? 'off' : 'on', examples: exampleLanguages(stack.reader, examples) },
      logger,
      following: { store: stack.store, events: shared.events },
      readiness: { store: stack.store, ...(shared.redis === undefined ? {} : { redis: shared.redis }) },
    });
    closers.push(() => server.close());
    try {
      url = await server.listen({ port: config.port, host: config.host });
    } catch (error) {
      throw listenFailure(error, config.host, config.port);
    }
  } catch (error) {
    await closeAll();
    throw error;
  }
  if (worker) {
    process.send?.({ type: 'plumb-ready', url, banner: '' } satisfies WorkerMessage);
    await Promise.race([signals.wait(), run.shutdownAsked ?? primaryShutdown()]);
    await closeAll();
    return;
  }
  io.stdout(`Plumb is listening on ${url} (ready in ${Math.round(performance.now() - started)} ms)\n`);
  io.stdout(`  console  ${url}/console/\n  chat     POST ${url}${config.url} · SSE ${url}${config.url}stream/ · WebSocket ${url.replace('http', 'ws')}${config.url}\n`);
  io.stdout(`  GET  ${url}/healthz · ${url}/readyz\n  POST ${url}/graphql${signInHint(config)}\n`);
  io.stdout(`  journal  ${journalShown(storeLocation(config, loaded.root))}\n`);
  const signIn = config.consoleSignIn && Object.keys(config.actors).length > 0 ? `  (sign in as ${Object.keys(config.actors).join(' or ')} at the console's top right to see more and make changes)\n` : '';
  io.stdout(`${tryThis(`${url}/console/`, opened.opened.examples, stack.reader !== undefined, stack.provider !== undefined)}${signIn}`);
  await signals.wait();
  io.stdout('Shutting down…\n');
  await closeAll();
}

/** The parts every worker shares through Redis when it is configured (counters, thread notices), else this process's own. */
async function sharedParts(config: PlumbConfig, warn: (message: string, error: unknown) => void): Promise<{ rateStore: RateLimitStore; events: ThreadEvents; redis?: { ping(): Promise<unknown> }; close: () => Promise<void> }> {
  if (config.redis === null) {
    const events = createLocalThreadEvents((error) => warn('A thread follower failed.', error));
    return { rateStore: createMemoryRateLimitStore(), events, close: () => events.close() };
  }
  const redis = await connectRedis(config.redis, { timeoutMs: config.redisTimeoutMs, onError: (error) => warn('Redis connection error.', error) });
  const rateStore = createRedisRateLimitStore({ redis: redis.client, whenUnavailable: config.rateLimit.whenUnavailable, warn });
  const events = await createRedisThreadEvents({ url: config.redis, timeoutMs: config.redisTimeoutMs, report: (error) => warn('Thread notices over Redis failed.', error) });
  return {
    rateStore,
    events,
    redis: redis.client,
    close: async () => {
      await events.close();
      await redis.close();
    },
  };
}

async function authenticateFrom(setting: Authenticate | string, load: ModuleLoader): Promise<Authenticate> {
  return settingFunction<Authenticate>(setting, { load, key: 'authenticate', names: ['authenticate'], signature: 'a function (request) => actor | null' });
}

/** The console's sign-in over the configuration's actors (`consoleSignIn`: development only). */
function signInDirectory(config: PlumbConfig): LoginDirectory {
  return { names: actorNames(config).filter((name) => name !== 'anonymous'), resolve: (name) => (name === 'anonymous' ? undefined : namedActor(config, name)) };
}

function signInHint(config: PlumbConfig): string {
  const names = Object.keys(config.actors);
  return config.consoleSignIn && names.length > 0 ? `   (sign in on the console as ${names.join(' or ')}; none = anonymous)` : '';
}

/** A port taken or not allowed, said so with what to do; anything else as it came. */
function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new CliFailure(`${host}:${port} is already in use (another plumb serve?). Stop that process or pass --port with a free port (0 picks one).`);
  if (code === 'EACCES') return new CliFailure(`not allowed to listen on ${host}:${port}. Pass --port 1024 or above, or run with the needed permission.`);
  if (code === 'EADDRNOTAVAIL') return new CliFailure(`${host} is not an address of this machine. Pass --host 127.0.0.1, 0.0.0.0 or one of this machine's addresses.`);
  return error;
}

function tryThis(consoleUrl: string, examples: readonly string[], router: boolean, model: boolean): string {
  if (!router) return `\nEvery turn goes to the model (router off). Open ${consoleUrl}\n`;
  const mode = model ? 'the router reads each turn first; what it cannot read goes to the model' : 'no model configured: the router reads and answers on its own';
  if (examples.length === 0) return `\nOpen ${consoleUrl} (${mode}).\n`;
  const lines = examples.slice(0, 3).map((question, index) => `  ${index + 1}. ${question}\n`).join('');
  return `\nOpen ${consoleUrl} and try (${mode}):\n${lines}`;
}

/** Resolves on the first shutdown signal; injectable so that tests can stop a server. */
export interface ShutdownSignals {
  wait(): Promise<void>;
}

const processSignals: ShutdownSignals = {
  wait: () =>
    new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }),
};

/** Where the conversations are kept, as the banner says it (a URL without its password). */
function journalShown(location: ReturnType<typeof storeLocation>): string {
  if (location.kind === 'memory') return 'in memory (gone when the server stops)';
  return location.kind === 'postgres' ? redactUrl(location.url) : displayPath(location.path);
}
