import type { IncomingMessage } from 'node:http';
import { Option } from 'commander';
import type { Command } from 'commander';
import { anonymous } from '../../core/index.js';
import type { Actor } from '../../core/index.js';
import { namedActor, settingFunction, splitConfig, storeLocation } from '../../config/index.js';
import type { Authenticate, PlumbConfig } from '../../config/index.js';
import { bearerTokens, createMcpHttpHandler, createMcpToolServer, listenMcpHttp, serveMcpStdio } from '../../mcp/index.js';
import type { McpAuthenticate, ToolRefusal } from '../../mcp/index.js';
import { createMemoryRateLimitStore, createRateLimiter, rateScope } from '../../server/index.js';
import type { RateLimiter } from '../../server/index.js';
import { createTelemetry } from '../../telemetry/index.js';
import { createChatDispatcher, createMemoryConfirmationStore, createSqliteConfirmationStore } from '../../tools/index.js';
import { addAppOptions, openCliApp } from '../app-options.js';
import type { AppOptions } from '../app-options.js';
import { CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';
import { plumbVersion } from '../version.js';

interface McpOptions extends AppOptions {
  readonly http?: boolean;
  readonly port?: string;
  readonly host?: string;
  readonly confirmWith?: 'auto' | 'tool';
}

/**
 * `plumb mcp`: the app's chat tools and host tools over the Model Context Protocol, every call
 * through the dispatcher. Over stdio (the default, for a client that spawns it) the actor is
 * `--as`'s and stdout carries only the protocol; over `--http` it is the bearer token's.
 */
export function registerMcpCommand(program: Command, io: CliIo, stop: () => Shutdown = shutdownSignal): void {
  const command = program
    .command('mcp')
    .description(
      "Serve the app's tools over the Model Context Protocol: on stdin and stdout for a client that spawns it (acting as --as), or over Streamable HTTP with --http (acting as each bearer token's actor, from the mcp.tokens setting); every call goes through the dispatcher, and a write waits for a person's confirmation (MCP elicitation, or the confirm tool)",
    )
    .option('--http', 'serve Streamable HTTP instead of stdio')
    .option('--port <port>', "with --http: TCP port (0 picks a free one; default: the configuration's mcp.port, 8788)")
    .option('--host <host>', "with --http: interface to listen on (default: the configuration's mcp.host, 127.0.0.1)")
    .addOption(new Option('--confirm-with <how>', 'auto: elicitation when the client supports it, else the confirm tool; tool: always the confirm tool').choices(['auto', 'tool']).default('auto'));
  addAppOptions(command).action(async (options: McpOptions) => {
    if (options.http !== true && (options.port !== undefined || options.host !== undefined)) throw new CliUsageError('--port and --host go with --http');
    const port = options.port === undefined ? undefined : Number(options.port);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new CliUsageError(`--port must be an integer from 0 to 65535, got '${options.port}'`);
    await using opened = await openCliApp(options);
    const { config, loaded } = opened;
    const journal = storeLocation(config, loaded.root);
    const shared = journal.kind === 'sqlite' ? createSqliteConfirmationStore({ path: journal.path }) : undefined;
    try {
      const telemetry = createTelemetry({ captureContent: config.telemetry.captureContent });
      const dispatcher = createChatDispatcher({
        app: opened.opened.app,
        settings: splitConfig(config).tools,
        hostTools: opened.opened.tools,
        confirmations: shared ?? createMemoryConfirmationStore(),
        instrument: telemetry.instrumentTools,
        onError: (error, report) => io.stderr(`plumb: tool error in ${report.tool}: ${error instanceof Error ? error.message : String(error)}\n`),
      });
      const limiter = createRateLimiter(config.rateLimit, createMemoryRateLimitStore());
      const serverFor = (actor: Actor, scope: string) =>
        createMcpToolServer({ dispatcher, actor, name: 'plumb', version: plumbVersion, confirmWith: options.confirmWith ?? 'auto', admit: () => admitted(limiter, scope) });
      using shutdown = stop();
      const { signal } = shutdown;
      if (options.http !== true) {
        await serveMcpStdio(serverFor(opened.actor, rateScope(opened.actor, 'stdio')), { signal });
        return;
      }
      const handler = createMcpHttpHandler({
        path: config.mcp.path,
        authenticate: await httpActors(config, loaded.load),
        serverFor: (actor, request) => serverFor(actor, rateScope(actor, request.socket.remoteAddress ?? '')),
        maxSessions: config.mcp.maxSessions,
        sessionIdleSeconds: config.mcp.sessionIdleSeconds,
        onError: (error) => io.stderr(`plumb: mcp request failed: ${error instanceof Error ? error.message : String(error)}\n`),
      });
      const listening = await listenMcpHttp(handler, { port: port ?? config.mcp.port, host: options.host ?? config.mcp.host });
      io.stdout(`Plumb MCP is listening on ${listening.url}${config.mcp.path} (Streamable HTTP; ${Object.keys(config.mcp.tokens).length} bearer token(s) configured, none = anonymous)\n`);
      if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      await listening.close();
    } finally {
      shared?.close();
    }
  });
}

/** Each tool call takes one request from the actor's `rateLimit.requests` budget, as a chat turn does. */
async function admitted(limiter: RateLimiter, scope: string): Promise<ToolRefusal | undefined> {
  const decision = await limiter.takeRequest(scope);
  if (decision.allowed) return undefined;
  if (decision.unavailable === true) return { error: { code: 'rate_limit_unavailable', message: 'The rate limit could not be checked; try again shortly.' } };
  return { error: { code: 'rate_limited', message: `Rate limit exceeded (${decision.budget}). Try again in ${decision.retryAfterSeconds} seconds.`, details: { retry_after_seconds: decision.retryAfterSeconds } } };
}

/**
 * Who an HTTP request is: a bearer token of `mcp.tokens` names its actor; else the host's
 * `authenticate` (given the same request view as chat) decides; else no token is anonymous and
 * an unknown one is refused.
 */
async function httpActors(config: PlumbConfig, load: Parameters<typeof settingFunction>[1]['load']): Promise<McpAuthenticate> {
  const tokens = new Map<string, Actor>();
  for (const [name, token] of Object.entries(config.mcp.tokens)) {
    const actor = namedActor(config, name);
    if (actor === undefined || actor.kind !== 'user') throw new CliUsageError(`mcp.tokens names '${name}', which is not one of the configuration's actors (${Object.keys(config.actors).join(', ') || 'none'})`);
    tokens.set(token, actor);
  }
  const byToken = bearerTokens(tokens);
  if (config.authenticate === null) return byToken;
  const host = await settingFunction<Authenticate>(config.authenticate, { load, key: 'authenticate', names: ['authenticate'], signature: 'a function (request) => actor | null' });
  return async (request: IncomingMessage) => {
    let refusal: Error | undefined;
    try {
      const known = await byToken(request);
      if (known.kind === 'user') return known;
    } catch (error) {
      // Not one of mcp.tokens: the host's authenticate may know it.
      refusal = error as Error;
    }
    const identified = await host({ method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, ip: request.socket.remoteAddress ?? '' });
    // A token known to neither is refused, never served as anonymous.
    if (identified === null && refusal !== undefined) throw refusal;
    if (identified === null) return anonymous;
    return 'actor' in identified ? identified.actor : identified;
  };
}

/** A signal that aborts on the first SIGINT or SIGTERM; disposing it removes the listeners. */
export interface Shutdown extends Disposable {
  readonly signal: AbortSignal;
}

function shutdownSignal(): Shutdown {
  const controller = new AbortController();
  const release = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  const stop = (): void => {
    release();
    controller.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return { signal: controller.signal, [Symbol.dispose]: release };
}
