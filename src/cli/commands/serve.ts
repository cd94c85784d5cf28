import type { Command } from 'commander';
import { pino } from 'pino';
import { authenticateDemo } from '../../demo/index.js';
import { createServer } from '../../server/index.js';
import { openApp, scaleHelp } from '../app-options.js';
import { CliUsageError } from '../program.js';
import type { CliIo } from '../program.js';

interface ServeOptions {
  readonly demo?: boolean;
  readonly db?: string;
  readonly scale?: string;
  readonly port: string;
  readonly host: string;
  readonly log?: boolean;
}

export function registerServeCommand(program: Command, io: CliIo, signals: ShutdownSignals = processSignals): void {
  program
    .command('serve')
    .description('Start the Plumb server (GET /healthz, POST /graphql) until SIGINT or SIGTERM')
    .option('--demo', 'serve the embedded demo shop (SQLite, seeded on first use)')
    .option('--db <path>', "the demo's SQLite file (default .plumb/demo.sqlite)")
    .option('--scale <n>', scaleHelp)
    .option('--port <port>', 'TCP port (0 picks a free one)', '8787')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--log', 'write request logs as JSON lines to stderr')
    .action(async (options: ServeOptions) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliUsageError(`--port must be an integer from 0 to 65535, got '${options.port}'`);
      const started = performance.now();
      const app = await openApp(options);
      const server = await createServer({
        app,
        authenticate: authenticateDemo,
        logger: options.log === true ? pino({ name: 'plumb' }, process.stderr) : false,
      });
      const url = await server.listen({ port, host: options.host });
      io.stdout(`Plumb is listening on ${url} (ready in ${Math.round(performance.now() - started)} ms)\n`);
      io.stdout(`  GET  ${url}/healthz\n  POST ${url}/graphql   (demo users: header 'X-Plumb-User: alice' or 'bob'; none = anonymous)\n`);
      await signals.wait();
      io.stdout('Shutting down…\n');
      await server.close();
      await app.close();
    });
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
