import type { Command } from 'commander';
import { pino } from 'pino';
import { authenticateDemo, demoActor, demoActorNames, demoChatHost } from '../../demo/index.js';
import { createChatStack, createMemoryRateLimitStore, createRateLimiter, createServer, createTokenBudget, loadConfig, parseConfig } from '../../server/index.js';
import { openApp } from '../app-options.js';
import { CliFailure, CliUsageError } from '../program.js';
import type { CliIo } from '../program.js';
import { addRouterOption } from '../router-option.js';
import type { RouterMode } from '../router-option.js';

interface ServeOptions {
  readonly config?: string;
  readonly demo?: boolean;
  readonly db?: string;
  readonly port?: string;
  readonly host?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly log?: boolean;
  readonly router?: RouterMode;
}

export function registerServeCommand(program: Command, io: CliIo, signals: ShutdownSignals = processSignals): void {
  const command = program
    .command('serve')
    .description('Start the Plumb server (chat over HTTP, SSE and WebSocket, the console, /graphql, /healthz) until SIGINT or SIGTERM')
    .option('--config <file>', 'configuration file (default: plumb.config.json|.js|.mjs|.ts in the current directory)')
    .option('--demo', 'serve the embedded demo shop (SQLite, seeded on first use)')
    .option('--db <path>', "the demo's SQLite file (default .plumb/demo.sqlite)")
    .option('--port <port>', 'TCP port (0 picks a free one; default: the configuration\'s port, 8787)')
    .option('--host <host>', 'interface to listen on (default: the configuration\'s host, 127.0.0.1)')
    .option('--provider <name>', 'provider: openai, anthropic, ollama, gemini, scripted:FILE, or a module (overrides the configuration)')
    .option('--model <model>', 'model name (overrides providerConfig.model)')
    .option('--base-url <url>', 'provider base URL (overrides providerConfig.baseUrl)')
    .option('--log', 'write request logs as JSON lines to stderr');
  addRouterOption(command).action(async (options: ServeOptions) => {
      const started = performance.now();
      const overrides: Record<string, unknown> = {};
      if (options.port !== undefined) {
        const port = Number(options.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliUsageError(`--port must be an integer from 0 to 65535, got '${options.port}'`);
        overrides.port = port;
      }
      if (options.host !== undefined) overrides.host = options.host;
      if (options.provider !== undefined) overrides.provider = options.provider;
      if (options.router !== undefined) overrides.router = options.router;
      const { config: fileConfig } = await loadConfig({ ...(options.config === undefined ? {} : { path: options.config }), overrides });
      const config =
        options.model === undefined && options.baseUrl === undefined
          ? fileConfig
          : parseConfig({
              ...fileConfig,
              providerConfig: { ...fileConfig.providerConfig, ...(options.model === undefined ? {} : { model: options.model }), ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }) },
            });
      const app = await openApp(options);
      const logger = options.log === true ? pino({ name: 'plumb' }, process.stderr) : false;
      const rateLimiter = createRateLimiter(config.rateLimit, createMemoryRateLimitStore());
      const tokenBudget = createTokenBudget(rateLimiter);
      const stack = await createChatStack({ app, config, wrapProvider: tokenBudget.wrap, host: demoChatHost(app) });
      const server = await createServer({
        app,
        engine: stack.engine,
        settings: config,
        rateLimiter,
        tokenBudget,
        authenticate: authenticateHeaderOnly,
        login: { names: demoActorNames.filter((name) => name !== 'anonymous'), resolve: (name) => (name === 'anonymous' ? undefined : demoActor(name)) },
        consoleInfo: { provider: stack.provider?.name ?? 'none (router only)', model: stack.provider?.model ?? '—', router: stack.reader === undefined ? 'off' : 'on', examples: consoleExamples },
        logger,
      });
      const closeAll = async (): Promise<void> => {
        await server.close();
        await stack.close();
        await app.close();
      };
      let url: string;
      try {
        url = await server.listen({ port: config.port, host: config.host });
      } catch (error) {
        await closeAll();
        throw listenFailure(error, config.host, config.port);
      }
      io.stdout(`Plumb is listening on ${url} (ready in ${Math.round(performance.now() - started)} ms)\n`);
      io.stdout(`  console  ${url}/console/\n  chat     POST ${url}${config.url} · SSE ${url}${config.url}stream/ · WebSocket ${url.replace('http', 'ws')}${config.url}\n`);
      io.stdout(`  GET  ${url}/healthz\n  POST ${url}/graphql   (demo users: header 'X-Plumb-User: alice' or 'bob', or sign in on the console; none = anonymous)\n`);
      io.stdout(tryThis(`${url}/console/`, stack.reader !== undefined, stack.provider !== undefined));
      await signals.wait();
      io.stdout('Shutting down…\n');
      await closeAll();
    });
}

/** A port taken or not allowed, said so with what to do; anything else as it came. */
function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new CliFailure(`${host}:${port} is already in use (another plumb serve?). Stop that process or pass --port with a free port (0 picks one).`);
  if (code === 'EACCES') return new CliFailure(`not allowed to listen on ${host}:${port}. Pass --port 1024 or above, or run with the needed permission.`);
  if (code === 'EADDRNOTAVAIL') return new CliFailure(`${host} is not an address of this machine. Pass --host 127.0.0.1, 0.0.0.0 or one of this machine's addresses.`);
  return error;
}

/** What a newcomer can ask first: three questions the router answers with no model. */
export const firstQuestions = ['which parts are made of steel?', 'how many open tasks does Apollo have?', 'charge order 4411 (signed in as alice)'] as const;
const consoleExamples = ['which parts are made of steel?', 'how many open tasks does Apollo have?', 'charge order 4411', 'quais peças são de aço?'];

function tryThis(consoleUrl: string, router: boolean, model: boolean): string {
  if (!router) return `\nEvery turn goes to the model (router off). Open ${consoleUrl}\n`;
  const lines = firstQuestions.map((question, index) => `  ${index + 1}. ${question}\n`).join('');
  const mode = model ? 'the router reads each turn first; what it cannot read goes to the model' : 'no model configured: the router reads and answers on its own';
  return `\nOpen ${consoleUrl} and try (${mode}):\n${lines}`;
}

/**
 * The demo's users by the `X-Plumb-User` header (for tests and curl); the console's sign-in
 * uses the server's signed `plumb_login` cookie instead of the demo's plain one.
 */
const authenticateHeaderOnly: Parameters<typeof createServer>[0]['authenticate'] = (request) =>
  request.headers['x-plumb-user'] === undefined ? null : authenticateDemo(request);

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
