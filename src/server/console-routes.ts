import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../core/index.js';
import { csrfCookieName, csrfHeaderName, csrfTokenValid, issueCsrfToken } from './csrf.js';
import { loginCookieName } from './request-actor.js';
import { readCookie, serializeCookie } from './signed-value.js';
import type { Signer } from './signed-value.js';

/** Users the console can sign in as (the demo's alice and bob); a real host brings its own login. */
export interface LoginDirectory {
  readonly names: readonly string[];
  resolve(name: string): Actor | undefined;
}

/** What the console's settings panel shows. */
export interface ConsoleInfo {
  readonly provider?: string;
  readonly model?: string;
  /** Whether turns are read by the router first. */
  readonly router?: 'on' | 'off';
  /** Questions offered on an empty conversation. */
  readonly examples?: readonly string[];
}

const files = {
  'index.html': 'text/html; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
} as const;

type ConsoleFiles = Record<keyof typeof files, string>;

/** The console's static files, read once from `src/console/` (no build step); undefined when absent. */
function loadFiles(): ConsoleFiles | undefined {
  const dir = new URL('../console/', import.meta.url);
  try {
    return Object.fromEntries(Object.keys(files).map((name) => [name, readFileSync(new URL(name, dir), 'utf8')])) as ConsoleFiles;
  } catch {
    return undefined;
  }
}

export function registerConsole(
  fastify: FastifyInstance,
  options: {
    /** The prefix the console is mounted under ('' at the root); its page and script point their own URLs there. */
    readonly base: string;
    readonly signer: Signer;
    /** The chat routes as the browser reaches them (prefix included). */
    readonly chatUrl: string;
    readonly chatEnabled: boolean;
    readonly bodyLimitBytes: number;
    readonly info: ConsoleInfo;
    readonly login?: LoginDirectory;
  },
): void {
  const loaded = loadFiles();
  if (loaded === undefined) {
    // A build that did not copy src/console/: say so instead of failing the whole server.
    fastify.get('/console/', (_request, reply) =>
      reply.status(404).send({ error: { code: 'not_found', message: 'The console files (index.html, console.css, console.js) are not next to this build; copy src/console/ beside the server folder.' } }),
    );
    return;
  }
  const content = options.base === '' ? loaded : underBase(loaded, options.base);
  const { signer } = options;
  const page = (_request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const token = issueCsrfToken(signer);
    reply.header('set-cookie', [serializeCookie(csrfCookieName, token), ...existingCookies(reply)]);
    reply.header('content-security-policy', "default-src 'self'; connect-src 'self' ws: wss:; style-src 'self'; script-src 'self'; img-src 'self' data:");
    return reply.type(files['index.html']).send(content['index.html'].replace('{{CSRF}}', token).replace('{{CHAT_URL}}', options.chatUrl));
  };
  fastify.get('/console/', page);
  for (const name of ['console.css', 'console.js'] as const) {
    fastify.get(`/console/${name}`, (_request, reply) => reply.type(files[name]).header('cache-control', 'no-cache').send(content[name]));
  }

  fastify.get('/console/session', (request) => ({
    actor: describe(request.actor),
    users: options.login?.names ?? [],
    chat_url: options.chatUrl,
    chat_enabled: options.chatEnabled,
    body_limit_bytes: options.bodyLimitBytes,
    provider: options.info.provider ?? null,
    model: options.info.model ?? null,
    router: options.info.router ?? 'off',
    examples: options.info.examples ?? [],
  }));

  const csrfOk = (request: FastifyRequest): boolean => {
    const header = request.headers[csrfHeaderName];
    return csrfTokenValid(signer, readCookie(request.headers.cookie, csrfCookieName), Array.isArray(header) ? header[0] : header);
  };
  fastify.post('/console/login', async (request, reply) => {
    if (!csrfOk(request)) return reply.status(403).send({ error: { code: 'csrf_failed', message: 'Reload the console: its CSRF token is missing or stale.' } });
    const user = (request.body as { user?: unknown } | null)?.user;
    if (user === null || user === 'anonymous' || user === undefined) {
      reply.header('set-cookie', serializeCookie(loginCookieName, '', { maxAgeSeconds: 0 }));
      return { actor: { kind: 'anonymous' } };
    }
    const actor = typeof user === 'string' ? options.login?.resolve(user) : undefined;
    if (actor === undefined || typeof user !== 'string') {
      return reply.status(401).send({ error: { code: 'unauthenticated', message: `Unknown user. Known users: ${(options.login?.names ?? []).join(', ') || '(none)'}.` } });
    }
    reply.header('set-cookie', serializeCookie(loginCookieName, signer.sign(user)));
    return { actor: describe(actor) };
  });
}

/**
 * The console's files name their own URLs from the root (`"/console/…` in the page, `'/console/…`
 * in the script); under a prefix they are rewritten once, here.
 */
function underBase(loaded: ConsoleFiles, base: string): ConsoleFiles {
  return {
    'index.html': loaded['index.html'].replaceAll('"/console/', `"${base}/console/`),
    'console.css': loaded['console.css'],
    'console.js': loaded['console.js'].replaceAll("'/console/", `'${base}/console/`),
  };
}

function existingCookies(reply: FastifyReply): string[] {
  const current = reply.getHeader('set-cookie');
  return current === undefined ? [] : Array.isArray(current) ? current.map(String) : [String(current)];
}

function describe(actor: Actor): Record<string, unknown> {
  return actor.kind === 'user' ? { kind: 'user', id: actor.id, roles: actor.roles, display_name: actor.displayName ?? actor.id } : { kind: 'anonymous' };
}
